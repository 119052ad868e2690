import crypto from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '@portal/contract/errors';
import { ConfigError, loadConfig } from '../src/config.ts';
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
