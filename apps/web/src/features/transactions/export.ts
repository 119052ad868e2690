import { TABS, type Column, type Row } from './tables.ts';

/** The export's columns of a tab: no View column; dates and amounts as stored, not formatted. */
export function exportColumns(displayIndex: number, walletMode: boolean): Column[] {
  const tab = TABS.find((t) => t.index === displayIndex);
  if (!tab) throw new Error(`case for display index : ${displayIndex} not implemented`);
  return tab.columns(walletMode);
}

const quote = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/** RFC 4180 CSV with a UTF-8 byte-order mark, so that spreadsheet programs read it as UTF-8. */
export function buildCsv(columns: Column[], rows: Row[]): string {
  const lines = [columns.map((c) => quote(c.header)).join(',')];
  for (const row of rows) lines.push(columns.map((c) => quote((c.raw ?? c.cell)(row))).join(','));
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
