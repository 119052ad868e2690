import crypto from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type PgBoss from 'pg-boss';
import { MAX_REPORT_DAYS, type ReportJob, type SearchQuery, type SearchTable } from '@portal/contract/transactions';
import { CSV_BOM, csvLine } from '@portal/contract/csv';
import type { DB } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { AppError, badRequest, forbidden, notFound } from '../../lib/errors.ts';
import type { FileStorage } from '../../lib/file-storage.ts';
import type { Auth } from '../../plugins/auth.ts';
import { findPartner, toFeatureFlags } from '../partners/partners.repository.ts';
import { conditions, scrollBatch, tableRef, toDocument } from '../transactions/transactions.repository.ts';

export const REPORT_QUEUE = 'report-build';
export const REPORT_PAGE_ROWS = 5_000;
export const REPORT_TTL_HOURS = 24;

export function createReportsService(deps: { db: Kysely<DB>; boss: PgBoss | undefined; storage: FileStorage; now: () => number }) {
  const { db } = deps;

  function toJob(r: Record<string, unknown>): ReportJob {
    const expiresAt = r.expires_at as Date | null;
    const expired = expiresAt !== null && expiresAt.getTime() <= deps.now();
    const status = expired ? 'expired' : (r.status as ReportJob['status']);
    return {
      id: r.id as string,
      partnerId: r.partner_id as string,
      status,
      requestedByEmail: r.requested_by_email as string,
      requestedById: r.requested_by_id as string,
      startDate: r.start_date as string,
      endDate: r.end_date as string,
      dataSource: r.data_source as SearchTable,
      filters: r.filters as Record<string, string>,
      expiresAt: expiresAt ? expiresAt.toISOString() : null,
      downloadURL: status === 'complete' ? `/api/v1/report-jobs/${r.id as string}/download` : null,
      totalPages: r.total_pages as number,
      processedPages: r.processed_pages as number,
      rowCount: (r.row_count as number | null) ?? null,
      createdAt: (r.created_at as Date).toISOString(),
    };
  }

  const find = (partnerId: string, id: string) => db.selectFrom('report_jobs').selectAll().where('partner_id', '=', partnerId).where('id', '=', id).executeTakeFirst();

  /** Requesting and downloading reports need the partner's report-downloads flag. */
  async function requireReportDownloads(partnerId: string) {
    const partner = await findPartner(db, partnerId);
    if (!partner || !toFeatureFlags(partner.feature_flags).reportDownloadsEnabled) throw forbidden('Report downloads are not enabled for your account.');
  }

  async function enqueue(partnerId: string, id: string) {
    if (!deps.boss) return;
    await deps.boss.send(REPORT_QUEUE, { partnerId, id }, { singletonKey: id, retryLimit: 2, retryDelay: 5 });
  }

  return {
    async create(auth: Auth, input: { dataSource: SearchTable; startDate: string; endDate: string; filters: Record<string, string>; fiatWallet: string }) {
      await requireReportDownloads(auth.partnerId);
      const days = (Date.parse(input.endDate) - Date.parse(input.startDate)) / 86400_000 + 1;
      if (!(days >= 1)) throw badRequest('The end date must be on or after the start date.', 'ValidationFailed');
      if (days > MAX_REPORT_DAYS) throw badRequest('A report can span a year at most.', 'ValidationFailed');
      const id = crypto.randomUUID();
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('report_jobs')
          .values({
            partner_id: auth.partnerId,
            id,
            status: 'requested',
            requested_by_id: auth.userId,
            requested_by_email: auth.email,
            data_source: input.dataSource,
            start_date: input.startDate,
            end_date: input.endDate,
            filters: JSON.stringify(input.filters),
            fiat_wallet: input.fiatWallet,
            row_count: null,
            file_key: null,
            error: null,
            expires_at: null,
          })
          .execute();
        await audit(trx, { partnerId: auth.partnerId, actorUserId: auth.userId, actor: auth.email, action: 'report.requested', target: id, details: { ...input } });
      });
      await enqueue(auth.partnerId, id);
      return toJob((await find(auth.partnerId, id))!);
    },

    async list(partnerId: string, startIndex: number, size: number) {
      const rows = await db.selectFrom('report_jobs').selectAll().where('partner_id', '=', partnerId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(size).offset(startIndex).execute();
      const total = await db.selectFrom('report_jobs').select((eb) => eb.fn.countAll<number>().as('n')).where('partner_id', '=', partnerId).executeTakeFirstOrThrow();
      return { jobs: rows.map((r) => toJob(r as unknown as Record<string, unknown>)), total: Number(total.n) };
    },

    async get(partnerId: string, id: string) {
      const row = await find(partnerId, id);
      if (!row) throw notFound('No such report');
      return toJob(row as unknown as Record<string, unknown>);
    },

    /** The file of the partner's own, complete, unexpired job. */
    async download(partnerId: string, id: string) {
      await requireReportDownloads(partnerId);
      const row = await find(partnerId, id);
      if (!row) throw notFound('No such report');
      const job = toJob(row as unknown as Record<string, unknown>);
      if (job.status === 'expired') throw new AppError(410, 'NotFound', 'This report has expired. Request it again.');
      if (job.status !== 'complete' || !row.file_key) throw badRequest('This report is not ready yet.');
      return { stream: deps.storage.read(row.file_key), filename: `${job.dataSource}-${job.startDate}-to-${job.endDate}.csv` };
    },

    /**
     * Builds the file page by page. Safe to run again: a restarted job truncates its file and starts over, so a
     * crash mid-job loses nothing and duplicates nothing.
     */
    async build(partnerId: string, id: string) {
      const row = await find(partnerId, id);
      if (!row || row.status === 'complete') return;
      const query: SearchQuery = {
        table: row.data_source as SearchTable,
        filters: row.filters as Record<string, string>,
        idFilter: '',
        range: { startDate: row.start_date, endDate: row.end_date },
        fiatWallet: row.fiat_wallet,
      };
      const where = sql.join(conditions(partnerId, query), sql` and `);
      const counted = await sql<{ n: number }>`select count(*)::int as n from ${tableRef(query.table)} where ${where}`.execute(db);
      const total = Number(counted.rows[0]?.n ?? 0);
      const totalPages = Math.max(1, Math.ceil(total / REPORT_PAGE_ROWS));
      const update = (values: Partial<{ status: string; total_pages: number; processed_pages: number; row_count: number; file_key: string; error: string; expires_at: Date }>) =>
        db.updateTable('report_jobs').set({ ...values, updated_at: new Date(deps.now()) }).where('partner_id', '=', partnerId).where('id', '=', id).execute();
      await update({ status: 'in_progress', total_pages: totalPages, processed_pages: 0 });
      const key = `reports/${partnerId}/${id}.csv`;
      const file = await deps.storage.create(key);
      try {
        let header: string[] | undefined;
        let after: { createdAt: string; id: string } | undefined;
        let written = 0;
        for (let pageNo = 1; ; pageNo++) {
          const rows = await scrollBatch(db, partnerId, query, after, REPORT_PAGE_ROWS);
          if (rows.length === 0 && pageNo > 1) break;
          const docs = rows.map(toDocument);
          if (!header) {
            header = Object.keys(docs[0] ?? {}).filter((k) => k !== 'partnerId');
            await file.write(CSV_BOM + csvLine(header));
          }
          if (docs.length) await file.write(docs.map((d) => csvLine(header!.map((h) => d[h]))).join(''));
          written += docs.length;
          await update({ processed_pages: Math.min(pageNo, totalPages) });
          const last = rows.at(-1);
          if (!last || rows.length < REPORT_PAGE_ROWS) break;
          after = { createdAt: (last.created_at as Date).toISOString(), id: String(last.id) };
        }
        await update({ status: 'data_downloaded', row_count: written });
        await file.commit();
        await update({ status: 'complete', file_key: key, processed_pages: totalPages, expires_at: new Date(deps.now() + REPORT_TTL_HOURS * 3600_000) });
      } catch (err) {
        await file.abort();
        await update({ status: 'failed', error: err instanceof Error ? err.message : String(err) });
        throw err;
      }
    },

    /** Jobs left requested or half-built by a stopped server are queued again (their build starts over). */
    async requeueUnfinished() {
      const rows = await db.selectFrom('report_jobs').select(['partner_id', 'id']).where('status', 'in', ['requested', 'in_progress', 'data_downloaded']).execute();
      for (const r of rows) await enqueue(r.partner_id, r.id);
      return rows.length;
    },
  };
}

export type ReportsService = ReturnType<typeof createReportsService>;
