import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type PgBoss from 'pg-boss';
import { MAX_REPORT_DAYS, type ReportJob, type SearchTable, REPORT_MESSAGES } from '@portal/contract/transactions';
import type { DB } from '../../db/schema.ts';
import { createReportQueue, enqueueReportBuild } from './report-queue.ts';
import { auditChange } from '../../lib/audit.repository.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import type { FileStorage } from '../../lib/file-storage.ts';
import type { Auth } from '../../lib/access.ts';
import type { PartnerAccess } from '../partners/index.ts';
import {
  countActiveReportJobs,
  countReportJobs,
  findReportJob,
  insertReportJobWithinLimit,
  listReportJobs,
  updateReportJob,
  expiredReportFiles,
  forgetReportFile,
  type ReportJobRow,
} from './reports.repository.ts';

/** The refusal when a partner already has its limit of reports queued or being built. */
export const tooManyActiveReports = (active: number) => new AppError(429, 'TooManyActiveReports', REPORT_MESSAGES.tooManyActive(active));

export type ReportsDeps = {
  db: Kysely<DB>;
  /** the job queue; without it (some tests) reports are recorded and not built */
  boss: PgBoss | undefined;
  storage: FileStorage;
  /** the partner's feature rule (the partners module's port) */
  partners: Pick<PartnerAccess, 'requireFeature'>;
  now: () => number;
  /** reports a partner may have queued or being built at once */
  activeLimit: number;
};

export function toJob(r: ReportJobRow, now: number): ReportJob {
  const expired = r.expires_at !== null && r.expires_at.getTime() <= now;
  const status = expired ? 'expired' : (r.status as ReportJob['status']);
  return {
    id: r.id,
    partnerId: r.partner_id,
    status,
    requestedByEmail: r.requested_by_email,
    requestedById: r.requested_by_id,
    startDate: r.start_date,
    endDate: r.end_date,
    dataSource: r.data_source as SearchTable,
    filters: r.filters,
    expiresAt: r.expires_at ? r.expires_at.toISOString() : null,
    downloadURL: status === 'complete' ? `/api/v1/report-jobs/${r.id}/download` : null,
    totalPages: r.total_pages,
    processedPages: r.processed_pages,
    rowCount: r.row_count ?? null,
    timeZone: r.time_zone,
    createdAt: r.created_at.toISOString(),
  };
}

/** Report jobs of the caller's partner: request (limited per partner), list, read, download. The build is report-build.ts. */
export function createReportsService(deps: ReportsDeps) {
  const { db } = deps;
  let queueReady: Promise<void> | undefined;
  /** The files past their expiry that the cleanup removes, and how it forgets one once its file is gone. */
  const files = {
    expired: (now: Date, limit: number) => expiredReportFiles(db, now, limit),
    forget: (partnerId: string, id: string, now: Date) => forgetReportFile(db, partnerId, id, now),
  };

  /** Requesting and downloading reports need the partner's report-downloads flag. */
  async function requireReportDownloads(partnerId: string) {
    await deps.partners.requireFeature({ partnerId }, 'reportDownloadsEnabled', 'Report downloads are not enabled for your account.');
  }

  /** The queue exists once any server started its worker; a server that only answers requests makes sure too. */
  async function ensureQueue(boss: PgBoss) {
    if (!queueReady) {
      queueReady = createReportQueue(boss);
      queueReady.catch(() => (queueReady = undefined));
    }
    await queueReady;
  }

  return {
    files,
    async create(
      auth: Auth,
      input: {
        dataSource: SearchTable;
        startDate: string;
        endDate: string;
        filters: Record<string, string>;
        fiatWallet: string;
        timeZone?: string | undefined;
      },
    ) {
      await requireReportDownloads(auth.partnerId);
      const days = (Date.parse(input.endDate) - Date.parse(input.startDate)) / 86400_000 + 1;
      if (!(days >= 1)) throw badRequest(REPORT_MESSAGES.reversedRange, 'ValidationFailed');
      if (days > MAX_REPORT_DAYS) throw badRequest(REPORT_MESSAGES.tooLong, 'ValidationFailed');
      // a partner at its limit is refused at once, without queueing behind its own other requests for the lock
      const active = await countActiveReportJobs(db, auth.partnerId);
      if (active >= deps.activeLimit) throw tooManyActiveReports(active);
      const boss = deps.boss;
      if (boss) await ensureQueue(boss);
      const id = crypto.randomUUID();
      // the row, its place in the partner's line and its queue job land together or not at all
      await db.transaction().execute(async (trx) => {
        const placed = await insertReportJobWithinLimit(
          trx,
          {
            partner_id: auth.partnerId,
            id,
            requested_by_id: auth.userId,
            requested_by_email: auth.email,
            data_source: input.dataSource,
            start_date: input.startDate,
            end_date: input.endDate,
            filters: input.filters,
            fiat_wallet: input.fiatWallet,
            time_zone: input.timeZone ?? 'UTC',
          },
          deps.activeLimit,
        );
        if (!placed.inserted) throw tooManyActiveReports(placed.active);
        if (boss) {
          const queueJobId = await enqueueReportBuild(boss, trx, { partnerId: auth.partnerId, id }, placed.rank);
          await updateReportJob(trx, auth.partnerId, id, { queue_job_id: queueJobId }, new Date(deps.now()));
        }
        await auditChange(trx, {
          partnerId: auth.partnerId,
          actorUserId: auth.userId,
          actor: auth.email,
          action: 'report.requested',
          target: id,
          details: { ...input },
        });
      });
      return toJob((await findReportJob(db, auth.partnerId, id))!, deps.now());
    },

    async list(partnerId: string, startIndex: number, size: number) {
      const [rows, total] = await Promise.all([listReportJobs(db, partnerId, startIndex, size), countReportJobs(db, partnerId)]);
      return { jobs: rows.map((r) => toJob(r, deps.now())), total };
    },

    async get(partnerId: string, id: string) {
      const row = await findReportJob(db, partnerId, id);
      if (!row) throw notFound(REPORT_MESSAGES.notFound);
      return toJob(row, deps.now());
    },

    /** The file of the partner's own, complete, unexpired job. */
    async download(partnerId: string, id: string) {
      await requireReportDownloads(partnerId);
      const row = await findReportJob(db, partnerId, id);
      if (!row) throw notFound(REPORT_MESSAGES.notFound);
      const job = toJob(row, deps.now());
      if (job.status === 'expired') throw new AppError(410, 'NotFound', REPORT_MESSAGES.expired);
      if (job.status !== 'complete' || !row.file_key) throw badRequest(REPORT_MESSAGES.notReady);
      return { stream: deps.storage.read(row.file_key), filename: `${job.dataSource}-${job.startDate}-to-${job.endDate}.csv` };
    },
  };
}

export type ReportsService = ReturnType<typeof createReportsService>;
