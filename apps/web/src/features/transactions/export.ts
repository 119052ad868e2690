import { exportColumns as fileColumns, exportCsv, type ExportColumn } from '@portal/contract/export-columns';
import { SEARCH_TABLES, type SearchTable } from '@portal/contract/transactions';
import { TABS, type Row } from './tables.ts';

/**
 * The export's columns of a tab: the contract's file column set (the one the server's report files use), so that
 * an export and a report of the same rows say the same thing.
 */
export function exportColumns(displayIndex: number, walletMode: boolean): ExportColumn<Row>[] {
  const tab = TABS.find((t) => t.index === displayIndex);
  if (!tab) throw new Error(`case for display index : ${displayIndex} not implemented`);
  return exportColumnsFor(tab.key, walletMode);
}

/** The export's columns of any table by its key; an unknown one is refused (transaction-data §8). */
export function exportColumnsFor(table: string, walletMode: boolean): ExportColumn<Row>[] {
  if (!(SEARCH_TABLES as readonly string[]).includes(table)) throw new Error(`Unsupported transaction type ${table}`);
  return fileColumns(table as SearchTable, { walletMode });
}

/** Rows as the tables read them: a missing request source is API (transaction-data §3); an unknown table is refused. */
export function cleanRows(table: string, rows: Row[]): Row[] {
  switch (table) {
    case 'collections':
    case 'all':
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
 * The file of a table's rows: RFC 4180 CSV with a UTF-8 byte-order mark, in the contract's column set (amounts as
 * plain numbers beside their currencies, labels as on screen, times in the user's zone, named in their headers); text cells a spreadsheet would run as
 * formulas are neutralised.
 */
export function buildCsv(table: string, rows: Row[], walletMode: boolean, timeZone = 'UTC'): string {
  exportColumnsFor(table, walletMode); // refuses an unknown table with the §8 message
  return exportCsv(table as SearchTable, rows, { walletMode, timeZone });
}
