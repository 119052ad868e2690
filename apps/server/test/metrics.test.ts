import crypto from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ErrorBody } from '@portal/contract/errors';
import { ConfigError, loadConfig } from '../src/config.ts';
import { insertQueuedMail, markMailDelivered, markMailFailed } from '../src/lib/mail-outbox.repository.ts';
import { DATABASES, setup, type TestContext } from './harness.ts';
import { sample } from './prometheus-text.ts';

describe.each(DATABASES)('/metrics on %s', (kind) => {
  let t: TestContext;
  let guarded: TestContext;
  const token = crypto.randomBytes(24).toString('base64url');
  beforeAll(async () => {
    t = await setup(kind, { seed: false, jobs: true });
    guarded = await setup(kind, { seed: false, config: { METRICS_TOKEN: token } });
  });
  afterAll(async () => {
    await t?.close();
    await guarded?.close();
  });

  const scrape = async (app = t.app, headers: Record<string, string> = {}) => {
    const res = await app.inject({ method: 'GET', url: '/metrics', headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.body;
  };

  it('serves the process metrics in the Prometheus text format, outside the API and without a sign-in', async () => {
    const text = await scrape();
    expect(text).toContain('# TYPE process_cpu_user_seconds_total counter');
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(sample(text, 'nodejs_heap_size_total_bytes')).toBeGreaterThan(0);
    expect(text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/metrics' })).statusCode).toBe(404);
  });

  it('counts requests and their latency by route pattern and status code, never by raw URL', async () => {
    const unmatched = { method: 'GET', route: 'unmatched', status_code: '404' };
    const unmatchedBefore = sample(await scrape(), 'http_requests_total', unmatched) ?? 0;
    const ids = [crypto.randomUUID(), crypto.randomUUID()];
    for (const id of ids) expect((await t.app.inject({ method: 'GET', url: `/api/v1/report-jobs/${id}` })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/no/such/page.txt' })).statusCode).toBe(404);
    const text = await scrape();
    const route = { method: 'GET', route: '/api/v1/report-jobs/:jobId', status_code: '401' };
    expect(sample(text, 'http_requests_total', route)).toBe(2);
    expect(sample(text, 'http_request_duration_seconds_count', route)).toBe(2);
    expect(sample(text, 'http_request_duration_seconds_bucket', { ...route, le: '+Inf' })).toBe(2);
    expect(sample(text, 'http_request_duration_seconds_sum', route)).toBeGreaterThan(0);
    expect(sample(text, 'http_requests_total', { method: 'GET', route: '/healthz', status_code: '200' })).toBe(1);
    expect(sample(text, 'http_requests_total', unmatched)).toBe(unmatchedBefore + 1);
    for (const id of ids) expect(text).not.toContain(id);
    expect(text).not.toContain('/no/such/page.txt');
  });

  it('reports the depth of each job queue, sampled when scraped', async () => {
    const boss = t.app.boss!;
    await boss.createQueue('metrics-test');
    await boss.send('metrics-test', { n: 1 });
    await boss.send('metrics-test', { n: 2 });
    let text = await scrape();
    expect(sample(text, 'portal_job_queue_depth', { queue: 'metrics-test' })).toBe(2);
    expect(sample(text, 'portal_job_queue_active', { queue: 'metrics-test' })).toBe(0);
    const [picked] = await boss.fetch('metrics-test');
    expect(picked).toBeDefined();
    text = await scrape();
    expect(sample(text, 'portal_job_queue_depth', { queue: 'metrics-test' })).toBe(1);
    expect(sample(text, 'portal_job_queue_active', { queue: 'metrics-test' })).toBe(1);
  });

  it('reports how long the oldest due job of each queue has waited, from when it became due', async () => {
    const boss = t.app.boss!;
    const waiting = 'metrics-oldest';
    const later = 'metrics-later';
    await boss.createQueue(waiting);
    await boss.createQueue(later);
    let text = await scrape();
    // a queue with no job waiting shows 0
    expect(sample(text, 'portal_job_queue_oldest_seconds', { queue: waiting })).toBe(0);

    // due two minutes ago and not picked up; a newer one behind it
    await boss.send(waiting, { n: 1 }, { startAfter: new Date(Date.now() - 120_000) });
    await boss.send(waiting, { n: 2 });
    // scheduled for later: not waiting yet, however long ago it was sent
    await boss.send(later, { n: 3 }, { startAfter: 3600 });
    text = await scrape();
    const oldest = sample(text, 'portal_job_queue_oldest_seconds', { queue: waiting })!;
    expect(oldest).toBeGreaterThanOrEqual(119);
    expect(oldest).toBeLessThan(180);
    expect(sample(text, 'portal_job_queue_oldest_seconds', { queue: later })).toBe(0);

    // the oldest is picked up: the one behind it is the oldest now, seconds old
    const [picked] = await boss.fetch<{ n: number }>(waiting);
    expect(picked?.data.n).toBe(1);
    text = await scrape();
    expect(sample(text, 'portal_job_queue_oldest_seconds', { queue: waiting })).toBeLessThan(60);

    // a job that failed and is tried again in an hour is not waiting: measured from its retry's start, not its first
    await boss.complete(waiting, (await boss.fetch(waiting))[0]!.id);
    const retried = await boss.send(waiting, { n: 4 }, { startAfter: new Date(Date.now() - 600_000), retryLimit: 2, retryDelay: 3600 });
    text = await scrape();
    expect(sample(text, 'portal_job_queue_oldest_seconds', { queue: waiting })).toBeGreaterThanOrEqual(599);
    const [again] = await boss.fetch(waiting);
    expect(again?.id).toBe(retried);
    await boss.fail(waiting, retried!, { error: 'try later' });
    expect((await boss.getJobById(waiting, retried!))?.state).toBe('retry');
    text = await scrape();
    expect(sample(text, 'portal_job_queue_oldest_seconds', { queue: waiting })).toBe(0);
  });

  it('counts the enabled webhook endpoints whose latest tried deliveries all failed, never naming one', async () => {
    const db = t.database.db;
    const before = await scrape();
    const failingBefore = sample(before, 'portal_webhook_endpoints_failing')!;
    const enabledBefore = sample(before, 'portal_webhook_endpoints_enabled')!;
    expect(failingBefore).toBeGreaterThanOrEqual(0);

    const partnerId = crypto.randomUUID();
    await db
      .insertInto('partners')
      .values({
        id: partnerId,
        name: 'Metrics Partner',
        abbreviation: `M${crypto.randomBytes(3).toString('hex')}`,
        product_types: ['B2B'],
        feature_flags: '{}',
      })
      .execute();
    const url = (name: string) => `https://${name}.metrics.example/hook`;
    const endpoint = async (name: string, active = true) => {
      const id = crypto.randomUUID();
      await db
        .insertInto('webhook_endpoints')
        .values({ partner_id: partnerId, id, url: url(name), events: ['PAYMENT.COMPLETE'], secret_encrypted: 'x', active })
        .execute();
      return id;
    };
    type Delivery = { status: 'pending' | 'succeeded' | 'failed'; attempts: number; retryStep?: number; manual?: boolean };
    let minute = 0;
    // deliveries in the order written, oldest first
    const deliveries = async (endpointId: string, list: Delivery[]) => {
      for (const d of list) {
        const eventId = crypto.randomUUID();
        const at = new Date(Date.now() - 3600_000 + ++minute * 60_000);
        await db.insertInto('webhook_events').values({ partner_id: partnerId, id: eventId, type: 'PAYMENT.COMPLETE', data: '{}', created_at: at }).execute();
        await db
          .insertInto('webhook_deliveries')
          .values({
            partner_id: partnerId,
            id: crypto.randomUUID(),
            event_id: eventId,
            endpoint_id: endpointId,
            status: d.status,
            attempt_count: d.attempts,
            retry_step: d.retryStep ?? 0,
            manual: d.manual ?? false,
            created_at: at,
            updated_at: at,
          })
          .execute();
      }
    };
    const given = { status: 'failed', attempts: 8, retryStep: 7 } as const;
    const retrying = { status: 'pending', attempts: 1, retryStep: 1 } as const;
    const ok = { status: 'succeeded', attempts: 1 } as const;

    // failing: an old success, then three tried deliveries that failed (one given up, two waiting for a retry), and a
    // new one not tried yet
    const down = await endpoint('down');
    await deliveries(down, [ok, given, retrying, retrying, { status: 'pending', attempts: 0 }]);
    // healthy: failures, then a success (the latest tried delivery)
    const healthy = await endpoint('healthy');
    await deliveries(healthy, [given, retrying, ok]);
    // not failing: one failure among successes; manual attempts that failed; nothing tried yet
    await deliveries(await endpoint('flaky'), [ok, ok, retrying]);
    await deliveries(await endpoint('manual'), [ok, { status: 'failed', attempts: 1, manual: true }, { status: 'failed', attempts: 1, manual: true }]);
    await deliveries(await endpoint('new'), [{ status: 'pending', attempts: 0 }]);
    // disabled: counted neither way
    await deliveries(await endpoint('disabled', false), [given, given, given]);

    let text = await scrape();
    expect(sample(text, 'portal_webhook_endpoints_failing')).toBe(failingBefore + 1);
    expect(sample(text, 'portal_webhook_endpoints_enabled')).toBe(enabledBefore + 5);
    expect(text).not.toContain(partnerId);
    expect(text).not.toContain('metrics.example');

    // the healthy endpoint's next three tried deliveries fail: it counts too
    await deliveries(healthy, [retrying, retrying, given]);
    text = await scrape();
    expect(sample(text, 'portal_webhook_endpoints_failing')).toBe(failingBefore + 2);

    // a delivery to the failing one succeeds: it no longer counts
    await deliveries(down, [ok]);
    text = await scrape();
    expect(sample(text, 'portal_webhook_endpoints_failing')).toBe(failingBefore + 1);
  });

  it('reports the mail outbox: mails not delivered yet and the age of the oldest, and mails given up', async () => {
    const db = t.database.db;
    const before = await scrape();
    const pendingBefore = sample(before, 'portal_mail_outbox_pending')!;
    const failedBefore = sample(before, 'portal_mail_outbox_failed')!;
    expect(pendingBefore).toBeGreaterThanOrEqual(0);

    // written five minutes ago and not delivered yet (its sender stopped mid-send)
    const queued = await db
      .insertInto('mail_outbox')
      .values({ to_address: 'stuck@metrics.example', subject: 'Code', text_body: 'x', status: 'queued', created_at: new Date(Date.now() - 300_000) })
      .returning('id')
      .executeTakeFirstOrThrow();
    const sending = await insertQueuedMail(db, { to: 'late@metrics.example', subject: 'Code', text: 'y' });
    let text = await scrape();
    expect(sample(text, 'portal_mail_outbox_pending')).toBe(pendingBefore + 2);
    const oldest = sample(text, 'portal_mail_outbox_oldest_pending_seconds')!;
    expect(oldest).toBeGreaterThanOrEqual(299);
    expect(oldest).toBeLessThan(400);
    expect(sample(text, 'portal_mail_outbox_failed')).toBe(failedBefore);
    expect(text).not.toContain('metrics.example');

    // one is given up, the other delivered: nothing pending is left of them
    await markMailFailed(db, queued.id, 'refused');
    await markMailDelivered(db, sending, 'sent', new Date(), true);
    text = await scrape();
    expect(sample(text, 'portal_mail_outbox_pending')).toBe(pendingBefore);
    expect(sample(text, 'portal_mail_outbox_failed')).toBe(failedBefore + 1);
    if (pendingBefore === 0) expect(sample(text, 'portal_mail_outbox_oldest_pending_seconds')).toBe(0);
  });

  it('leaves out what it could not read, with a warning, and still answers', async () => {
    const failing = await setup(kind, { seed: false });
    try {
      // the outbox and the endpoints gone: their reads fail; the rest of the scrape is there
      await sql`drop table mail_outbox`.execute(failing.database.db);
      await sql`alter table webhook_endpoints rename to webhook_endpoints_gone`.execute(failing.database.db);
      const warn = vi.spyOn(failing.app.log, 'warn');
      const text = await scrape(failing.app);
      const warned = warn.mock.calls.map((call) => call.at(-1));
      expect(warned).toContain('metrics: the mail outbox could not be read');
      expect(warned).toContain('metrics: the webhook endpoints could not be read');
      expect(text).toContain('# TYPE portal_mail_outbox_pending gauge');
      for (const name of [
        'portal_mail_outbox_pending',
        'portal_mail_outbox_oldest_pending_seconds',
        'portal_mail_outbox_failed',
        'portal_webhook_endpoints_failing',
        'portal_webhook_endpoints_enabled',
      ])
        expect(sample(text, name), name).toBeUndefined();
      expect(sample(text, 'portal_db_pool_connections', { database: kind })).toBeGreaterThanOrEqual(1);
    } finally {
      await failing.close();
    }
  });

  it('reports the database connections: open, idle, and callers waiting for one', async () => {
    const text = await scrape();
    const total = sample(text, 'portal_db_pool_connections', { database: kind })!;
    const idle = sample(text, 'portal_db_pool_idle', { database: kind })!;
    if (kind === 'pglite') expect(total).toBe(1);
    else expect(total).toBeGreaterThanOrEqual(1);
    expect(idle).toBeGreaterThanOrEqual(0);
    expect(idle).toBeLessThanOrEqual(total);
    expect(sample(text, 'portal_db_pool_waiting', { database: kind })).toBeGreaterThanOrEqual(0);

    // a transaction holds a connection (on the embedded database, its one session) while a query waits for it
    let during = '';
    await t.database.db.transaction().execute(async (trx) => {
      await sql`select 1`.execute(trx);
      const waiting = kind === 'pglite' ? sql`select 1`.execute(t.database.db) : Promise.resolve();
      const scraped = scrape();
      await new Promise((r) => setTimeout(r, 300));
      void scraped.then((body) => (during = body));
      void waiting;
    });
    await expect.poll(() => during, { timeout: 10_000 }).not.toBe('');
    const busyTotal = sample(during, 'portal_db_pool_connections', { database: kind })!;
    const busyIdle = sample(during, 'portal_db_pool_idle', { database: kind })!;
    expect(busyIdle).toBeLessThan(busyTotal);
    if (kind === 'pglite') {
      expect(busyIdle).toBe(0);
      expect(sample(during, 'portal_db_pool_waiting', { database: kind })).toBeGreaterThanOrEqual(1);
    }
  });

  it('asks for the bearer token when METRICS_TOKEN is set', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong-token' }, { authorization: token }, { authorization: `Basic ${token}` }]) {
      const res = await guarded.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(ErrorBody.parse(res.json()).code).toBe('Unauthorized');
      expect(res.body).not.toContain('process_cpu');
    }
    expect(await scrape(guarded.app, { authorization: `Bearer ${token}` })).toContain('http_requests_total');
  });
});

describe('METRICS_TOKEN', () => {
  it('is refused at start when too short to be a secret', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(ConfigError);
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN: must be at least 16 characters/);
  });
});
