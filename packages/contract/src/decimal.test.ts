import { describe, expect, it } from 'vitest';
import { addDecimal, compareDecimal, divideDecimal, fromUnits, minDecimal, normalise, subtractDecimal, toUnits } from './decimal.ts';

describe('decimal strings', () => {
  it('reads and writes fixed-point units without floats', () => {
    expect(toUnits('25000.00')).toBe(2_500_000_000_000n);
    expect(toUnits('0.1', 2)).toBe(10n);
    expect(toUnits('-1.239', 2)).toBe(-123n);
    expect(fromUnits(123n, 2)).toBe('1.23');
    expect(fromUnits(-5n, 2)).toBe('-0.05');
    expect(fromUnits(7n, 0)).toBe('7');
    expect(normalise('12.5', 2)).toBe('12.50');
    expect(() => toUnits('1e5')).toThrow();
  });

  it('adds, subtracts, compares and divides exactly', () => {
    // 0.1 + 0.2 is 0.3 here, not 0.30000000000000004
    expect(addDecimal('0.1', '0.2')).toBe('0.30000000');
    expect(subtractDecimal('100.00', '0.00000001')).toBe('99.99999999');
    expect(compareDecimal('10.00', '10')).toBe(0);
    expect(compareDecimal('9.999', '10')).toBe(-1);
    expect(compareDecimal('-1', '-2')).toBe(1);
    expect(divideDecimal('100', '0.9995')).toBe('100.05002501');
    expect(divideDecimal('1', '3', 2)).toBe('0.33');
    expect(minDecimal('5', '4.99')).toBe('4.99');
    expect(() => divideDecimal('1', '0')).toThrow();
  });
});
