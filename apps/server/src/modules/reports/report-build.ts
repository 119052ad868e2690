import type { Kysely } from 'kysely';
import { exportColumns, exportHeaderLine, exportLines } from '@portal/contract/export-columns';
import type { SearchQuery, SearchTable } from '@portal/contract/transactions';
import type { DB } from '../../db/schema.ts';
import type { FileStorage } from '../../lib/file-storage.ts';
import { findReportJob, updateReportJob, type ReportJobUpdate } from './reports.repository.ts';
import type { PartnerAccess } from '../partners/index.ts';
import { searchRows, toRows } from '../transactions/index.ts';

/** Rows read and written per step; each step moves the job's progress. */
export const REPORT_PAGE_ROWS = 5_000;
/** Files live this long after they are built. */
export const REPORT_TTL_HOURS = 24;

export type ReportBuildDeps = {
  db: Kysely<DB>;
  /** where the report's rows are read: a replica that has caught up with the primary, else the primary */
  read?: () => Promise<Kysely<DB>>;
  storage: FileStorage;
  now: () => number;
  /** the partner's fiat-wallet setting (the partners module's port) */
  partners: Pick<PartnerAccess, 'find'>;
};

/**
 * Builds a report's CSV file page by page (keyset pages, newest first), in the column set of the portal's exports
 * (contract `export-columns.ts`: the same headers, labels, amounts with their currencies, times in the zone the report
 * was requested in; the Wallet
 * column when the partner has fiat wallets), through the shared CSV writer. Safe to run
 * again: a restarted build truncates its file and starts over, so a crash mid-build loses nothing and duplicates
 * nothing. A failure marks the job failed and is thrown, so that the queue tries it again.
 */
export async function buildReport(deps: ReportBuildDeps, partnerId: string, id: string): Promise<void> {
  const { db } = deps;
  const row = await findReportJob(db, partnerId, id);
  if (!row || row.status === 'complete') return;
  const table = row.data_source as SearchTable;
  const partner = await deps.partners.find(partnerId);
  const columns = exportColumns(table, { walletMode: partner?.fiatWalletsEnabled === true, timeZone: row.time_zone });
  const query: SearchQuery = {
    table,
    filters: row.filters,
    idFilter: '',
    range: { startDate: row.start_date, endDate: row.end_date },
    fiatWallet: row.fiat_wallet,
    timeZone: row.time_zone,
  };
  const update = (values: ReportJobUpdate) => updateReportJob(db, partnerId, id, values, new Date(deps.now()));
  // the rows as of the build's start (a replica only once it has every write committed before it), the job's own
  // row on the primary
  const rows = deps.read ? await deps.read() : db;
  const total = await searchRows.count(rows, partnerId, query);
  const totalPages = Math.max(1, Math.ceil(total / REPORT_PAGE_ROWS));
  await update({ status: 'in_progress', total_pages: totalPages, processed_pages: 0, error: null });
  const key = `reports/${partnerId}/${id}.csv`;
  const file = await deps.storage.create(key);
  try {
    await file.write(exportHeaderLine(columns));
    let after: { createdAt: string; id: string } | undefined;
    let written = 0;
    for (let pageNo = 1; ; pageNo++) {
      const page = await searchRows.after(rows, partnerId, query, after, REPORT_PAGE_ROWS);
      if (page.length === 0 && pageNo > 1) break;
      if (page.length) await file.write(exportLines(columns, toRows(table, page)));
      written += page.length;
      await update({ processed_pages: Math.min(pageNo, totalPages) });
      const last = page.at(-1);
      if (!last || page.length < REPORT_PAGE_ROWS) break;
      after = { createdAt: last.created_at.toISOString(), id: String(last.id) };
    }
    await update({ status: 'data_downloaded', row_count: written });
    await file.commit();
    await update({ status: 'complete', file_key: key, processed_pages: totalPages, expires_at: new Date(deps.now() + REPORT_TTL_HOURS * 3600_000) });
  } catch (err) {
    await file.abort();
    await update({ status: 'failed', error: err instanceof Error ? err.message : String(err) });
    throw err;
  }
}
