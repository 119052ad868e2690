/** CSV as RFC 4180 writes it, shared by the portal's exports and the server's report files. */

/** The byte-order mark that makes spreadsheet programs read the file as UTF-8. */
export const CSV_BOM = '\uFEFF';

/** A plain decimal number (an amount such as `-12.50`, a count): written as it is, so it stays a number. */
const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;

/** What a spreadsheet may read as the start of a formula (OWASP, CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A cell's text made safe to open in a spreadsheet: text starting with `=`, `+`, `-`, `@`, a tab or a carriage
 * return gets a leading single quote, so that Excel, LibreOffice or Google Sheets show it as text instead of
 * running it as a formula. A plain decimal number (`-12.50`) is not a formula and stays a number.
 */
export function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_DECIMAL.test(text) ? `'${text}` : text;
}

/** A field: formula-safe, then quoted when it holds a quote, a comma or a line break (quotes doubled). */
export function csvField(value: string | number | boolean | null | undefined): string {
  const text = value === null || value === undefined ? '' : neutraliseFormula(String(value));
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record, ended by CRLF. */
export const csvLine = (values: readonly (string | number | boolean | null | undefined)[]) => `${values.map(csvField).join(',')}\r\n`;
