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
 * What a scrape reads of the database besides the ledger, one statement a metric family (the composition root builds
 * it from the repositories).
 */
export type MonitoringReads = {
  /** per queue, the age in seconds of its oldest job due and not picked up yet (0 for a queue with none) */
  oldestDueJobs(): Promise<{ queue: string; seconds: number }[]>;
  /** enabled webhook endpoints, and how many of them have their latest tried deliveries all failing */
  webhookEndpoints(): Promise<{ enabled: number; failing: number }>;
  /** the mail outbox: mails not delivered yet, the age in seconds of the oldest of them, and mails given up */
  mailOutbox(): Promise<{ pending: number; oldestPendingSeconds: number; failed: number }>;
};

/** A gauge with no sample at all (a labelless gauge's reset leaves a 0): what a scrape shows of a read that failed. */
function clear(gauge: Gauge) {
  gauge.reset();
  gauge.remove({});
}

/**
 * One read shared by the gauges of a scrape that each show a part of it: the first gauge's collect starts it, the
 * others of the same scrape take the same answer; the next scrape reads again. A read that fails logs a warning and
 * leaves the gauges out (no sample, never the previous one).
 */
function sharedRead<T>(app: FastifyInstance, what: string, read: () => Promise<T>) {
  let reading: Promise<T> | undefined;
  return (set: (gauge: Gauge, value: T) => void) =>
    async function collect(this: Gauge) {
      try {
        const value = await (reading ??= read().finally(() => (reading = undefined)));
        this.reset();
        set(this, value);
      } catch (err) {
        clear(this);
        app.log.warn({ err }, `metrics: ${what} could not be read`);
      }
    };
}

/**
 * Prometheus metrics at /metrics (text format): requests and their latency by method, route pattern and status;
 * the job queue's depth per queue and the age of its oldest due job, sampled at each scrape; the database
 * connections; failing webhook endpoints; the mail outbox; the latest ledger reconciliation's findings and time;
 * the process metrics.
 * Outside /api/v1 and not behind the sign-in (a scraper has no user); with METRICS_TOKEN set, a scrape must send
 * `Authorization: Bearer <token>`.
 */
export function registerMetrics(
  app: FastifyInstance,
  options: { token?: string | undefined; ledger: Pick<Ledger, 'lastReconciliation'>; monitoring: MonitoringReads },
) {
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
  // how long the oldest due job of each queue has waited for a worker (JobQueueOldestJobTooOld): one statement for
  // every queue, on pg-boss's own job table
  new Gauge({
    name: 'portal_job_queue_oldest_seconds',
    help: 'Age in seconds of the oldest job in each queue that is due and not yet picked up (created or due for a retry, start time come), from its start time; 0 when none',
    labelNames: ['queue'],
    registers: [registry],
    async collect() {
      this.reset();
      if (!app.boss) return;
      try {
        for (const { queue, seconds } of await options.monitoring.oldestDueJobs()) this.set({ queue }, seconds);
      } catch (err) {
        app.log.warn({ err }, "metrics: the age of the queues' oldest jobs could not be read");
      }
    },
  });

  // webhook endpoints whose deliveries keep failing (WebhookEndpointsFailing), across partners: counts only, never a
  // partner or an address. Both gauges of a scrape share one read.
  const endpoints = sharedRead(app, 'the webhook endpoints', () => options.monitoring.webhookEndpoints());
  new Gauge({
    name: 'portal_webhook_endpoints_failing',
    help: 'Enabled webhook endpoints whose latest 3 tried automatic deliveries (fewer if it has had fewer) all failed at their last attempt: given up, or waiting for a retry',
    registers: [registry],
    collect: endpoints((gauge, e) => gauge.set(e.failing)),
  });
  new Gauge({
    name: 'portal_webhook_endpoints_enabled',
    help: 'Enabled webhook endpoints, of every partner',
    registers: [registry],
    collect: endpoints((gauge, e) => gauge.set(e.enabled)),
  });

  // the mail outbox (MailOutboxStuck, MailDeliveryFailing): the three gauges of a scrape share one read
  const outbox = sharedRead(app, 'the mail outbox', () => options.monitoring.mailOutbox());
  new Gauge({
    name: 'portal_mail_outbox_pending',
    help: 'Mails in the outbox not delivered yet and not given up (queued, or being sent)',
    registers: [registry],
    collect: outbox((gauge, m) => gauge.set(m.pending)),
  });
  new Gauge({
    name: 'portal_mail_outbox_oldest_pending_seconds',
    help: 'Age in seconds of the oldest mail in the outbox not delivered yet and not given up, from when it was written; 0 when none',
    registers: [registry],
    collect: outbox((gauge, m) => gauge.set(m.oldestPendingSeconds)),
  });
  new Gauge({
    name: 'portal_mail_outbox_failed',
    help: 'Mails in the outbox given up on (failed), kept until someone removes them',
    registers: [registry],
    collect: outbox((gauge, m) => gauge.set(m.failed)),
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
