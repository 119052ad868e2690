/** CSV as RFC 4180 writes it, shared by the portal's exports and the server's report files. */

/** The byte-order mark that makes spreadsheet programs read the file as UTF-8. */
export const CSV_BOM = '\uFEFF';

/** A field, quoted when it holds a quote, a comma or a line break (quotes doubled). */
export function csvField(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record, ended by CRLF. */
export const csvLine = (values: readonly unknown[]) => `${values.map(csvField).join(',')}\r\n`;
