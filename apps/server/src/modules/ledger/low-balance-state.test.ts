import { describe, expect, it } from 'vitest';
import { lowBalanceState } from './ledger.service.ts';

describe('where a balance stands against the low balance limit', () => {
  it('is below under the limit, approaching within 20% above it, clear from 20% above, and clear without a limit', () => {
    expect(lowBalanceState('999.99', '1000')).toBe('below');
    expect(lowBalanceState('1000.00', '1000')).toBe('approaching');
    expect(lowBalanceState('1199.99999999', '1000')).toBe('approaching');
    expect(lowBalanceState('1200', '1000')).toBe('ok');
    expect(lowBalanceState('-5', '1000')).toBe('below');
    expect(lowBalanceState('-5', null)).toBe('ok');
    // exact decimals, no float: 0.1 + 0.2 style limits hold
    expect(lowBalanceState('0.36', '0.3')).toBe('ok');
    expect(lowBalanceState('0.35999999', '0.3')).toBe('approaching');
  });
});
