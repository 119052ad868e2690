import { describe, expect, it } from 'vitest';
import { addressText, CalendarDate, hasControlCharacter, hasLoneSurrogate, isCalendarDate, safeText } from './validation.ts';

describe('safe text', () => {
  it('refuses control characters (NUL, escape, DEL, C1), keeping line breaks only where a field is multi-line', () => {
    for (const t of ['a\u0000b', '\u001b[31m', 'x\u007f', '\u0085', 'tab\there', 'line\nbreak'])
      expect(safeText().safeParse(t).success, JSON.stringify(t)).toBe(false);
    expect(safeText({ multiline: true }).safeParse('line\nbreak\r\n\tindented').success).toBe(true);
    expect(safeText({ multiline: true }).safeParse('a\u0000').success).toBe(false);
    expect(hasControlCharacter('plain text, émoji 😀, 中文')).toBe(false);
  });
  it('refuses lone UTF-16 surrogates and accepts whole pairs', () => {
    for (const t of ['\ud800', '\udfff', 'a\ud83d', '\ude00b', '\ude00\ud83d']) {
      expect(hasLoneSurrogate(t), JSON.stringify(t)).toBe(true);
      expect(safeText().safeParse(t).success).toBe(false);
    }
    expect(safeText().safeParse('😀 ok').success).toBe(true);
  });
  it('keeps its length bounds and messages', () => {
    const r = safeText({ min: 1, minMessage: 'Enter it', max: 3 });
    expect(r.safeParse('').error?.issues[0]?.message).toBe('Enter it');
    expect(r.safeParse('abcd').success).toBe(false);
    expect(safeText().safeParse('a\u0000').error?.issues[0]?.message).toBe('must not contain control characters');
  });
});

describe('calendar date', () => {
  it('accepts days that exist, leap days included', () => {
    for (const d of ['2026-01-31', '2024-02-29', '2000-02-29', '0001-01-01', '9999-12-31']) expect(isCalendarDate(d), d).toBe(true);
  });
  it('refuses days that do not, and other shapes', () => {
    for (const d of [
      '2026-02-30',
      '2026-13-01',
      '2026-00-10',
      '2026-04-31',
      '2025-02-29',
      '1900-02-29',
      '0000-01-01',
      '2026-1-1',
      '2026-01-01T00:00:00Z',
      '',
      '20260101',
    ]) {
      expect(isCalendarDate(d), d).toBe(false);
    }
    expect(CalendarDate.safeParse('2026-02-30').error?.issues[0]?.message).toBe('must be a real date YYYY-MM-DD');
  });
});

describe('address text', () => {
  const address = addressText('Enter a valid wallet address');
  it("takes an address trimmed, and refuses control characters and lone surrogates with the field's words", () => {
    expect(address.parse('  TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t ')).toBe('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
    for (const bad of ['a\u0000b', 'TR\u007f', '\u001b[31m', 'TR\u0085', 'TR\ud800', '', ' ', 'x'.repeat(129)]) {
      const result = address.safeParse(bad);
      expect(result.success, JSON.stringify(bad)).toBe(false);
      expect(result.error?.issues[0]?.message).toBe('Enter a valid wallet address');
    }
  });
});
