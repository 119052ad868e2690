import { describe, expect, it } from 'vitest';
import { isLowBalance, useBanners } from './low-balance.ts';

describe('low-balance banner rule', () => {
  it('shows below the limit, not at it', () => {
    expect(isLowBalance('400.00', null)).toBe(true); // default 1000
    expect(isLowBalance('999.99', '1000')).toBe(true);
    expect(isLowBalance('1000.00', '1000')).toBe(false);
    expect(isLowBalance('25000.00', '1000.00000000')).toBe(false);
    expect(isLowBalance('2000', '2500.5')).toBe(true);
  });
  it('shows nothing before the balance is known, and treats a missing USD account as 0', () => {
    expect(isLowBalance(undefined, '1000')).toBe(false);
    expect(isLowBalance('0', null)).toBe(true);
  });
  it('is dismissible and reset', () => {
    useBanners.getState().dismissLowBalance();
    expect(useBanners.getState().lowBalanceDismissed).toBe(true);
    useBanners.getState().reset();
    expect(useBanners.getState().lowBalanceDismissed).toBe(false);
  });
});
