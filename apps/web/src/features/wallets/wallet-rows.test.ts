import { describe, expect, it } from 'vitest';
import { settlementWallet as wallet } from '../../testing/factories.ts';
import { clampStartIndex, pageRows, reviewable, walletRows } from './wallet-rows.ts';

describe('wallets table', () => {
  it('has one row per currency, the memo on Stellar only, and hides deleted wallets unless asked', () => {
    const rows = walletRows(
      [
        wallet({ id: 'a', network: 'ERC20', currencies: ['USDC', 'USDT'] }),
        wallet({ id: 'b', network: 'XLM', tag: '12345', currencies: ['USDC'] }),
        wallet({ id: 'c', network: 'TRC20', tag: 'ignored' }),
        wallet({ id: 'd', status: 'deleted' }),
      ],
      { showDeleted: false },
    );
    expect(rows.map((r) => [r.key, r.memo])).toEqual([
      ['a:USDC', null],
      ['a:USDT', null],
      ['b:USDC', '12345'],
      ['c:USDT', null],
    ]);
    expect(walletRows([wallet({ status: 'deleted' })], { showDeleted: true })).toHaveLength(1);
  });

  it('resets the start index to 1 with 10 entries or fewer, and keeps it on an existing page', () => {
    expect(clampStartIndex(11, 10)).toBe(1);
    expect(clampStartIndex(11, 11)).toBe(11);
    expect(clampStartIndex(21, 15)).toBe(11);
    expect(clampStartIndex(0, 30)).toBe(1);
    expect(pageRows([...Array(25).keys()], 21)).toEqual([20, 21, 22, 23, 24]);
  });

  it('lists for review only the wallets pending approval that the server says the user may review', () => {
    expect(
      reviewable([
        wallet({ id: 'x', status: 'pending_approval', canReview: true }),
        wallet({ id: 'y', status: 'pending_approval' }),
        wallet({ id: 'z', canReview: true }),
      ]).map((w) => w.id),
    ).toEqual(['x']);
  });
});
