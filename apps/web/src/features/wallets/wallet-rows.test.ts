import { describe, expect, it } from 'vitest';
import type { SettlementWallet } from '@portal/contract/wallets';
import { clampStartIndex, pageRows, reviewable, walletRows } from './wallet-rows.ts';

const wallet = (overrides: Partial<SettlementWallet> = {}): SettlementWallet => ({
  id: '00000000-0000-4000-8000-000000000001',
  partnerId: '0a5e0000-0000-4000-8000-00000000ac3e',
  address: 'TXYZ',
  network: 'TRC20',
  status: 'enabled',
  tag: null,
  currencies: ['USDT'],
  createdById: '0a5e0001-0000-4000-8000-000000000001',
  createdByName: 'Ada Mensah',
  createdAt: '2026-11-20T10:00:00.000Z',
  travelRuleInfo: null,
  reason: null,
  reviewedByName: null,
  canReview: false,
  ...overrides,
});

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
