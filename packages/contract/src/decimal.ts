/**
 * Fixed-point decimal arithmetic on strings, for money: amounts travel and are stored as decimal strings, and are
 * never turned into floats. A value is held as a bigint of units of 10^-scale.
 */

const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/;

/** The units of a decimal string at this scale; digits beyond the scale are cut off (towards zero). */
export function toUnits(value: string, scale = 8): bigint {
  const m = DECIMAL.exec(value.trim());
  if (!m) throw new Error(`not a decimal number: ${value}`);
  const [, minus, whole = '0', fraction = ''] = m;
  const units = BigInt(whole + fraction.slice(0, scale).padEnd(scale, '0'));
  return minus ? -units : units;
}

/** A decimal string with exactly `scale` decimals. */
export function fromUnits(units: bigint, scale = 8): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${text}` : text;
}

/** Changes the number of decimals of a decimal string, cutting towards zero: normalise('12.5', 2) = '12.50'. */
export const normalise = (value: string, scale: number) => fromUnits(toUnits(value, scale), scale);

/** -1, 0 or 1 as a is below, equal to or above b. */
export function compareDecimal(a: string, b: string): -1 | 0 | 1 {
  const x = toUnits(a, 18);
  const y = toUnits(b, 18);
  return x < y ? -1 : x > y ? 1 : 0;
}

export const addDecimal = (a: string, b: string, scale = 8) => fromUnits(toUnits(a, scale) + toUnits(b, scale), scale);
export const subtractDecimal = (a: string, b: string, scale = 8) => fromUnits(toUnits(a, scale) - toUnits(b, scale), scale);

/** a / b with `scale` decimals, rounded down (a payout never sends more than the amount covers). */
export function divideDecimal(a: string, b: string, scale = 8): string {
  const divisor = toUnits(b, 18);
  if (divisor === 0n) throw new Error('division by zero');
  // (a * 10^18) / (b * 10^18), kept at `scale` decimals
  return fromUnits((toUnits(a, 18) * 10n ** BigInt(scale)) / divisor, scale);
}

/** The smaller of two decimal strings. */
/** A decimal string with thousands separators, as messages show amounts: groupThousands('5000000.00') = '5,000,000.00'. */
export const groupThousands = (value: string) => value.replace(/^(-?)(\d+)/, (_, sign: string, whole: string) => sign + whole.replace(/\B(?=(\d{3})+$)/g, ','));
export const minDecimal = (a: string, b: string) => (compareDecimal(a, b) <= 0 ? a : b);

/**
 * A decimal string as a spreadsheet reads a number: rounded half away from zero to `max` decimals, trailing zeros
 * dropped down to `min` decimals, no thousands separators: plainDecimal('7957.00000000', 2, 2) = '7957.00',
 * plainDecimal('8054.627313660000', 2, 8) = '8054.62731366'.
 */
const trailingZeros = new Map<number, RegExp>();
export function plainDecimal(value: string, min: number, max: number): string {
  // the common case without arithmetic: nothing to round (the digits past `max` are zeros), as stored amounts are
  const m = DECIMAL.exec(value.trim());
  if (m && !(m[3] ?? '').slice(max).replace(/0/g, '')) {
    const whole = m[2]!.replace(/^0+(?=\d)/, '');
    let fraction = (m[3] ?? '').slice(0, max);
    if (fraction.length < min) fraction = fraction.padEnd(min, '0');
    fraction = fraction.slice(0, min) + fraction.slice(min).replace(/0+$/, '');
    const zero = /^0*$/.test(whole + fraction);
    return `${m[1] && !zero ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
  }
  const exact = toUnits(value, 18);
  const step = 10n ** BigInt(18 - max);
  const half = step / 2n;
  const magnitude = exact < 0n ? -exact : exact;
  const rounded = ((magnitude + (max < 18 ? half : 0n)) / step) * (exact < 0n ? -1n : 1n);
  let text = fromUnits(rounded, max);
  if (max > min) {
    let zeros = trailingZeros.get(min);
    if (!zeros) trailingZeros.set(min, (zeros = new RegExp(`(\\.\\d{${min}}\\d*?)0+$`)));
    text = text.replace(zeros, '$1');
  }
  if (min === 0) text = text.replace(/\.$/, '');
  return text === '-0' || /^-0(\.0*)?$/.test(text) ? text.slice(1) : text;
}
