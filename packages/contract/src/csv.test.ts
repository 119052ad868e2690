import { describe, expect, it } from 'vitest';
import { CSV_BOM, csvField, csvLine, neutraliseFormula } from './csv.ts';

describe('CSV writer', () => {
  it('quotes a field holding a quote, a separator of any common locale or a line break, and leaves others bare', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('a;b')).toBe('"a;b"');
    expect(csvField('a\tb')).toBe('"a\tb"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
    expect(csvLine(['a', 1, null])).toBe('a,1,\r\n');
    expect(CSV_BOM).toBe('\uFEFF');
  });

  it.each([
    ['=HYPERLINK("http://evil.example","Click")', `"'=HYPERLINK(""http://evil.example"",""Click"")"`],
    ['=1+2', "'=1+2"],
    ['+cmd|/C calc!A0', "'+cmd|/C calc!A0"],
    ['-2+3+cmd|/C calc!A0', "'-2+3+cmd|/C calc!A0"],
    ['@SUM(A1:A9)', "'@SUM(A1:A9)"],
    ['\t=1+2', `"'\t'=1+2"`],
    ['\r=1+2', `"'\r=1+2"`],
    ['-', "'-"],
    ['+2348012345678', "'+2348012345678"],
    ['=a,b', `"'=a,b"`],
    ['x;=1+1', `"x;'=1+1"`],
    ['Acme,=HYPERLINK("http://evil.example")', `"Acme,'=HYPERLINK(""http://evil.example"")"`],
    ['Jane\t@SUM(A1:A9)', `"Jane\t'@SUM(A1:A9)"`],
    ['a;b;+cmd|/C calc!A0', `"a;b;'+cmd|/C calc!A0"`],
  ])('neutralises a text cell that a spreadsheet would run as a formula: %j', (value, written) => {
    expect(csvField(value)).toBe(written);
  });

  it('leaves a plain decimal after a separator a number, and quotes the field', () => {
    expect(csvField('1;-2.50')).toBe('"1;-2.50"');
    // read whole (one quoted cell, as a semicolon locale does), it starts like a formula: guarded
    expect(csvField('-1,-2')).toBe(`"'-1,-2"`);
  });

  it.each(['-12.50', '-0.00000001', '1500.50', '0', '-7', '42'])('keeps a plain decimal number a number: %s', (value) => {
    expect(csvField(value)).toBe(value);
  });

  it('keeps numbers given as numbers, and text that starts harmlessly', () => {
    expect(csvField(-12.5)).toBe('-12.5');
    expect(csvField(3)).toBe('3');
    expect(csvField('NG')).toBe('NG');
    expect(csvField('2026-01-02T03:04:05.000Z')).toBe('2026-01-02T03:04:05.000Z');
    expect(csvField('a=b')).toBe('a=b');
    expect(neutraliseFormula("'=1")).toBe("'=1");
  });

  it('does not take a number-like text with extra characters as a number', () => {
    expect(csvField('-12.50 USD')).toBe("'-12.50 USD");
    expect(csvField('-1e5')).toBe("'-1e5");
    expect(csvField('-12.')).toBe("'-12.");
  });
});
