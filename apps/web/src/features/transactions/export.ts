import { CSV_BOM, csvLine } from '@portal/contract/csv';
import { INITIATED_PAYMENTS, TABS, TRADES, type Column, type Row } from './tables.ts';

/** The export's columns of a tab: no View column; dates and amounts as stored, not formatted. */
export function exportColumns(displayIndex: number, walletMode: boolean): Column[] {
  const tab = TABS.find((t) => t.index === displayIndex);
  if (!tab) throw new Error(`case for display index : ${displayIndex} not implemented`);
  return tab.columns(walletMode);
}

/** The export's columns of any table by its key; an unknown one is refused (transaction-data §8). */
export function exportColumnsFor(table: string, walletMode: boolean): Column[] {
  const def = [...TABS, TRADES, INITIATED_PAYMENTS].find((t) => t.key === table);
  if (!def) throw new Error(`Unsupported transaction type ${table}`);
  return def.columns(walletMode);
}

/** Rows as the tables read them: a missing request source is API (transaction-data §3); an unknown table is refused. */
export function cleanRows(table: string, rows: Row[]): Row[] {
  switch (table) {
    case 'collections':
      return rows.map((r) => ('requestSource' in r ? { ...r, requestSource: r.requestSource || 'api' } : r));
    case 'payments':
    case 'settlements':
    case 'fees':
    case 'trades':
    case 'initiate-payments':
      return rows;
    default:
      throw new Error(`cannot perform data cleaning for table : ${table}`);
  }
}

/**
 * RFC 4180 CSV with a UTF-8 byte-order mark, so that spreadsheet programs read it as UTF-8. The shared writer
 * neutralises text cells that a spreadsheet would run as formulas; amounts stay numbers.
 */
export function buildCsv(columns: Column[], rows: Row[]): string {
  return CSV_BOM + csvLine(columns.map((c) => c.header)) + rows.map((row) => csvLine(columns.map((c) => (c.raw ?? c.cell)(row)))).join('');
}
