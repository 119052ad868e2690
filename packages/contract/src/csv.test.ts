import { describe, expect, it } from 'vitest';
import { CSV_BOM, csvField, csvLine, neutraliseFormula } from './csv.ts';

describe('CSV writer', () => {
  it.each<[value: string | null | undefined, field: string]>([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['a;b', '"a;b"'],
    ['a\tb', '"a\tb"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    [null, ''],
    [undefined, ''],
  ])('quotes a field holding a quote, a separator of any common locale or a line break, and leaves others bare: %j', (value, field) => {
    expect(csvField(value)).toBe(field);
  });

  it('ends a line with CRLF and names the byte order mark', () => {
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

  it.each<[value: string | number, field: string]>([
    [-12.5, '-12.5'],
    [3, '3'],
    ['NG', 'NG'],
    ['2026-01-02T03:04:05.000Z', '2026-01-02T03:04:05.000Z'],
    ['a=b', 'a=b'],
  ])('keeps numbers given as numbers, and text that starts harmlessly: %j', (value, field) => {
    expect(csvField(value)).toBe(field);
  });

  it('leaves a text already guarded as it is', () => {
    expect(neutraliseFormula("'=1")).toBe("'=1");
  });

  it.each([
    ['-12.50 USD', "'-12.50 USD"],
    ['-1e5', "'-1e5"],
    ['-12.', "'-12."],
  ])('does not take a number-like text with extra characters as a number: %j', (value, field) => {
    expect(csvField(value)).toBe(field);
  });
});
