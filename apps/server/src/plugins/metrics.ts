import { ACCESS_MESSAGES } from '@portal/contract/errors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { unauthorized } from '../lib/errors.ts';
import type { Ledger } from '../modules/ledger/index.ts';
import { safeEqual } from '../lib/tokens.ts';

export const METRICS_PATH = '/metrics';

/** Request latency buckets in seconds: an API answering in milliseconds, a report download taking seconds. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The process metrics (CPU, memory, event loop, GC, handles) belong to the process, not to one app: collected once
 * into their own registry and merged into every scrape. Tests build many apps in one process.
 */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** Where the route label comes from: the route's pattern, never the raw URL (ids would make a series per call). */
function routeLabel(request: FastifyRequest): string {
  return request.routeOptions.url ?? 'unmatched';
}

/**
 * Prometheus metrics at /metrics (text format): requests and their latency by method, route pattern and status;
 * the job queue's depth per queue, sampled at each scrape; the database connections; the latest ledger
 * reconciliation's findings and time; the process metrics.
 * Outside /api/v1 and not behind the sign-in (a scraper has no user); with METRICS_TOKEN set, a scrape must send
 * `Authorization: Bearer <token>`.
 */
export function registerMetrics(app: FastifyInstance, options: { token?: string | undefined; ledger: Pick<Ledger, 'lastReconciliation'> }) {
  const registry = new Registry();
  const labelNames = ['method', 'route', 'status_code'] as const;
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code',
    labelNames,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to answering it, by method, route pattern and status code',
    labelNames,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });

  app.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
    const labels = { method: request.method, route: routeLabel(request), status_code: String(reply.statusCode) };
    requests.inc(labels);
    latency.observe(labels, reply.elapsedTime / 1000);
  });

  // before the queue's gauges: a scrape samples these first, before its own queries take a connection
  const database = app.database;
  const pool = (name: string, help: string, pick: (s: ReturnType<typeof database.poolStats>) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['database'],
      registers: [registry],
      collect() {
        this.set({ database: database.kind }, pick(database.poolStats()));
      },
    });
  pool('portal_db_pool_connections', 'Database connections open (PostgreSQL pool), or 1 for the embedded database session', (s) => s.total);
  pool('portal_db_pool_idle', 'Database connections open and idle (embedded database: 1 when its session is free)', (s) => s.idle);
  pool('portal_db_pool_waiting', 'Queries waiting for a database connection (embedded database: for its session)', (s) => s.waiting);

  new Counter({
    name: 'portal_db_reads_total',
    help: 'Searches, exports and reports read, by where: the replica (caught up with the primary) or the primary in its place',
    labelNames: ['target'],
    registers: [registry],
    collect() {
      const stats = database.readStats();
      this.reset();
      this.inc({ target: 'replica' }, stats.replica);
      this.inc({ target: 'primary' }, stats.primary);
    },
  });

  // the latest daily reconciliation (jobs/reconcile.ts): what the LedgerMismatch and ReconciliationMissing alerts
  // watch. Both gauges of a scrape share the read under way.
  let reading: ReturnType<typeof options.ledger.lastReconciliation> | undefined;
  const lastRun = () => (reading ??= options.ledger.lastReconciliation().finally(() => (reading = undefined)));
  const fromLastRun = (set: (run: NonNullable<Awaited<ReturnType<typeof lastRun>>>) => void) => async () => {
    try {
      const run = await lastRun();
      if (run) set(run);
    } catch (err) {
      app.log.warn({ err }, 'metrics: the last reconciliation could not be read');
    }
  };
  const differences: Gauge = new Gauge({
    name: 'portal_reconciliation_differences',
    help: 'What the latest ledger reconciliation found wrong: accounts whose kept figures differ from their entries, withdrawals without exactly one debit',
    labelNames: ['kind'],
    registers: [registry],
    collect: fromLastRun((run) => {
      differences.set({ kind: 'accounts' }, run.differingAccounts);
      differences.set({ kind: 'withdrawals' }, run.unmatchedWithdrawals);
    }),
  });
  const ranAt: Gauge = new Gauge({
    name: 'portal_reconciliation_last_run_timestamp_seconds',
    help: 'When the latest ledger reconciliation ran (Unix time); 0 before the first',
    registers: [registry],
    collect: fromLastRun((run) => ranAt.set(run.ranAt.getTime() / 1000)),
  });

  // the job queue, per queue, read at each scrape (an app built without a queue reports none)
  const perQueue = (name: string, help: string, count: (boss: NonNullable<typeof app.boss>, queue: string) => Promise<number>) =>
    new Gauge({
      name,
      help,
      labelNames: ['queue'],
      registers: [registry],
      async collect() {
        this.reset();
        const boss = app.boss;
        if (!boss) return;
        try {
          for (const queue of await boss.getQueues()) this.set({ queue: queue.name }, await count(boss, queue.name));
        } catch (err) {
          app.log.warn({ err }, 'metrics: the job queue could not be read');
        }
      },
    });
  perQueue('portal_job_queue_depth', 'Jobs waiting in each queue (created or due for a retry, not yet picked up), sampled at each scrape', (boss, queue) =>
    boss.getQueueSize(queue),
  );
  perQueue('portal_job_queue_active', 'Jobs being worked on in each queue, sampled at each scrape', async (boss, queue) => {
    const waiting = await boss.getQueueSize(queue);
    return (await boss.getQueueSize(queue, { before: 'completed' })) - waiting;
  });

  app.get(METRICS_PATH, { schema: { hide: true } }, async (request, reply) => {
    if (options.token) {
      const header = request.headers.authorization ?? '';
      const given = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
      if (!safeEqual(given, options.token)) {
        void reply.header('www-authenticate', 'Bearer realm="metrics"');
        throw unauthorized(ACCESS_MESSAGES.metricsToken);
      }
    }
    const merged = Registry.merge([processMetrics(), registry]);
    return reply
      .type(merged.contentType)
      .header('cache-control', 'no-store')
      .send(await merged.metrics());
  });
}
