/** CSV as RFC 4180 writes it, shared by the portal's exports and the server's report files. */

/** The byte-order mark that makes spreadsheet programs read the file as UTF-8. */
export const CSV_BOM = '\uFEFF';

/** A plain decimal number (an amount such as `-12.50`, a count): written as it is, so it stays a number. */
const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;

/** What a spreadsheet may read as the start of a formula (OWASP, CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** The separators of the common spreadsheet locales: a comma (en), a semicolon (fr, de, pt, much of Africa), a tab. */
const SEPARATOR = /([,;\t])/;

const guard = (part: string) => (FORMULA_START.test(part) && !PLAIN_DECIMAL.test(part) ? `'${part}` : part);

/**
 * A cell's text made safe to open in a spreadsheet: text starting with `=`, `+`, `-`, `@`, a tab or a carriage
 * return gets a leading single quote, so that Excel, LibreOffice or Google Sheets show it as text instead of
 * running it as a formula. A plain decimal number (`-12.50`) is not a formula and stays a number. The same holds
 * for every piece after a separator of any common locale: a spreadsheet that splits `x;=1+1` on the semicolon
 * (or a person who splits it with "Text to columns") gets `x` and `'=1+1`.
 */
export function neutraliseFormula(text: string): string {
  const pieces = text.split(SEPARATOR).map((piece, i) => (i % 2 === 0 ? guard(piece) : piece));
  const guarded = pieces.join('');
  return guarded.startsWith("'") ? guarded : guard(guarded);
}

/** A field: formula-safe, then quoted when it holds a quote, a separator of any common locale or a line break. */
export function csvField(value: string | number | boolean | null | undefined): string {
  const text = value === null || value === undefined ? '' : neutraliseFormula(String(value));
  return /[",;\t\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record, ended by CRLF. */
export const csvLine = (values: readonly (string | number | boolean | null | undefined)[]) => `${values.map(csvField).join(',')}\r\n`;
