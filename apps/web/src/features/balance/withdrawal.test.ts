import { afterEach, describe, expect, it } from 'vitest';
import { settlementWallet as wallet } from '../../testing/factories.ts';
import { amountAboveMax, amountProblem, destinations, withdrawableNow } from './withdrawal.ts';

describe('withdrawal', () => {
  it('goes to enabled wallets only, one destination per stablecoin', () => {
    const list = destinations([
      wallet({ id: 'a', network: 'ERC20', currencies: ['USDC', 'USDT'] }),
      wallet({ id: 'b', status: 'pending_screening' }),
      wallet({ id: 'c', status: 'disabled' }),
      wallet({ id: 'd', network: 'BTC', currencies: ['BTC'] }),
    ]);
    expect(list.map((d) => d.key)).toEqual(['a:USDC', 'a:USDT']);
    expect(destinations(undefined)).toEqual([]);
  });

  it("refuses an amount above the max with the spec's words, below the minimum, or malformed", () => {
    expect(amountProblem('25000.01', '25000.00')).toBe('You can withdraw at most USD 25,000.00');
    expect(amountProblem('25000', '25000.00')).toBeNull();
    expect(amountProblem('9.99', '25000.00')).toBe('Enter amount of at least USD 10.00');
    expect(amountProblem('10.001', '25000.00')).toMatch(/at most 2 decimals|such as/);
    expect(amountProblem('', '25000.00')).not.toBeNull();
    expect(amountProblem('1e3', '25000.00')).not.toBeNull();
  });

  describe('the most that can be withdrawn now', () => {
    const limit = (withdrawalMaxUsd: string) => {
      const meta = document.createElement('meta');
      meta.name = 'portal-config';
      meta.content = JSON.stringify({ withdrawalMaxUsd });
      document.head.append(meta);
    };
    afterEach(() => document.head.querySelector('meta[name="portal-config"]')?.remove());

    it('is what is available, to the cent, below the limit of one withdrawal (250,000.00 unless the server says)', () => {
      expect(withdrawableNow('58312.4')).toBe('58312.40');
      expect(withdrawableNow('250000.01')).toBe('250000.00');
      expect(withdrawableNow('0')).toBe('0.00');
      expect(withdrawableNow('-12.50')).toBe('0.00');
    });

    it("is the server's limit when the balance is above it, said as the amount is typed", () => {
      limit('1000.00');
      const max = withdrawableNow('58312.40');
      expect(max).toBe('1000.00');
      expect(amountAboveMax('1000.01', max)).toBe('You can withdraw at most USD 1,000.00');
      expect(amountAboveMax('1000', max)).toBeNull();
      expect(withdrawableNow('999.99')).toBe('999.99');
    });
  });
});
