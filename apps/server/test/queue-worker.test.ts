import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import pino from 'pino';
import type PgBoss from 'pg-boss';
import { openDatabase, type Database } from '../src/db/database.ts';
import { createBoss } from '../src/jobs/boss.ts';
import { stopQueueWorkers, workQueue, type QueueWorker } from '../src/jobs/queue-worker.ts';
import { DATABASES, freshDatabase, serverDatabase } from './harness.ts';
import { tcpProxy, type TcpProxy } from './tcp-proxy.ts';

const log = pino({ level: 'silent' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const stateOf = async (boss: PgBoss, queue: string, id: string) => (await boss.getJobById(queue, id))?.state;

describe.each(DATABASES)('a queue worked with workQueue on %s', (kind) => {
  let database: Database;
  let boss: PgBoss;
  const workers: QueueWorker[] = [];
  beforeAll(async () => {
    database = await freshDatabase(kind);
    boss = createBoss(database);
    await boss.start();
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop()));
  });
  afterAll(async () => {
    await boss?.stop({ graceful: false, wait: true });
    await database?.close();
  });

  it('runs each job once and records it completed; a job that throws is tried again', async () => {
    await boss.createQueue('qw-runs', { name: 'qw-runs', retryLimit: 2, retryDelay: 0 });
    const runs: number[] = [];
    workers.push(
      workQueue<{ n: number }>(boss, 'qw-runs', { pollingIntervalSeconds: 0.2, log }, async (job) => {
        runs.push(job.data.n);
        if (job.data.n === 2 && runs.filter((n) => n === 2).length === 1) throw new Error('the first try fails');
      }),
    );
    const one = (await boss.send('qw-runs', { n: 1 }))!;
    const two = (await boss.send('qw-runs', { n: 2 }))!;
    await expect.poll(() => stateOf(boss, 'qw-runs', two), { timeout: 10_000, interval: 100 }).toBe('completed');
    expect(await stateOf(boss, 'qw-runs', one)).toBe('completed');
    expect(runs.sort()).toEqual([1, 2, 2]);
  });

  it('a job taken by a fetch whose answer was lost (it committed as the connection went) is worked at once, not at its expiry', async () => {
    await boss.createQueue('qw-lost-fetch', { name: 'qw-lost-fetch', retryLimit: 2, expireInSeconds: 600 });
    const db = boss.getDb();
    const original = db.executeSql.bind(db);
    let lost: string | undefined;
    // the first fetch that takes a job commits, then its connection is cut before the answer arrives
    const executeSql = vi.spyOn(db, 'executeSql').mockImplementation(async (text: string, values: unknown[]) => {
      const result = await original(text, values);
      if (!lost && /'active'/.test(text) && /update/i.test(text) && result.rows.length) {
        lost = (result.rows[0] as { id: string }).id;
        throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
      }
      return result;
    });
    const runs: string[] = [];
    workers.push(
      workQueue(boss, 'qw-lost-fetch', { pollingIntervalSeconds: 0.2, log }, async (job) => {
        runs.push(job.id);
      }),
    );
    const id = (await boss.send('qw-lost-fetch', {}))!;
    await expect.poll(() => stateOf(boss, 'qw-lost-fetch', id), { timeout: 5000, interval: 100 }).toBe('completed');
    expect(lost).toBe(id);
    expect(runs).toEqual([id]);
    executeSql.mockRestore();
  });

  it('a stop waits for the job under way, and hands back one that outlasts its grace (failed, so tried again) at once', async () => {
    await boss.createQueue('qw-stop', { name: 'qw-stop', retryLimit: 2, retryDelay: 60, expireInSeconds: 600 });
    let release: () => void = () => undefined;
    const started: string[] = [];
    const worker = workQueue(boss, 'qw-stop', { pollingIntervalSeconds: 0.2, log }, async (job) => {
      started.push(job.id);
      await new Promise<void>((r) => (release = r));
    });
    const quick = (await boss.send('qw-stop', {}))!;
    await expect.poll(() => started.length, { timeout: 10_000, interval: 50 }).toBe(1);
    setTimeout(() => release(), 200);
    await worker.stop(5000);
    expect(await stateOf(boss, 'qw-stop', quick)).toBe('completed');

    const slow = (await boss.send('qw-stop', {}))!;
    const second = workQueue(boss, 'qw-stop', { pollingIntervalSeconds: 0.2, log }, async (job) => {
      started.push(job.id);
      await new Promise<void>((r) => (release = r));
    });
    await expect.poll(() => started.length, { timeout: 10_000, interval: 50 }).toBe(2);
    await stopQueueWorkers(boss, 300);
    // not left active until its 10-minute expiry: waiting for its retry, on any server
    expect(await stateOf(boss, 'qw-stop', slow)).toBe('retry');
    release();
    await sleep(100);
    // the run that went on after the stop recorded nothing over the hand-back
    expect(await stateOf(boss, 'qw-stop', slow)).toBe('retry');
    await second.stop();
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('a queue worked with workQueue through a database connection cut', () => {
  let proxy: TcpProxy;
  let database: Database;
  let boss: PgBoss;
  let drop: () => Promise<void>;
  const workers: QueueWorker[] = [];
  beforeAll(async () => {
    const server = await serverDatabase();
    drop = server.drop;
    const target = new URL(server.url);
    proxy = await tcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    database = await openDatabase({ kind: 'postgres', url: proxy.through(server.url), max: 4 });
    boss = createBoss(database);
    await boss.start();
  });
  afterEach(async () => {
    proxy.restore();
    await Promise.all(workers.splice(0).map((w) => w.stop()));
  });
  afterAll(async () => {
    await boss?.stop({ graceful: false, wait: true });
    await database?.close();
    await proxy?.close();
    await drop?.();
  });

  it('a job that ends as the connection is cut is recorded completed once the database is back, not at its expiry', async () => {
    await boss.createQueue('qw-cut-end', { name: 'qw-cut-end', retryLimit: 2, expireInSeconds: 600 });
    const complete = vi.spyOn(boss, 'complete');
    let runs = 0;
    workers.push(
      workQueue(boss, 'qw-cut-end', { pollingIntervalSeconds: 0.2, log }, async () => {
        runs += 1;
        // the database goes away just as the job is done, and comes back 1.5 s later
        proxy.cut();
        setTimeout(() => proxy.restore(), 1500);
      }),
    );
    const id = (await boss.send('qw-cut-end', {}))!;
    await expect.poll(() => stateOf(boss, 'qw-cut-end', id).catch(() => 'unreachable'), { timeout: 15_000, interval: 250 }).toBe('completed');
    expect(runs).toBe(1);
    // the first tries met the cut: the outcome was recorded by a later one
    expect(complete.mock.calls.filter(([queue]) => queue === 'qw-cut-end').length).toBeGreaterThan(1);
    complete.mockRestore();
  });

  it('a job that fails on the cut is handed back (failed) once the database is back, and its next run completes it', async () => {
    await boss.createQueue('qw-cut-fail', { name: 'qw-cut-fail', retryLimit: 2, retryDelay: 0, expireInSeconds: 600 });
    let runs = 0;
    workers.push(
      workQueue(boss, 'qw-cut-fail', { pollingIntervalSeconds: 0.2, log }, async () => {
        runs += 1;
        if (runs === 1) {
          proxy.cut();
          setTimeout(() => proxy.restore(), 1500);
          throw new Error('Connection terminated unexpectedly');
        }
      }),
    );
    const id = (await boss.send('qw-cut-fail', {}))!;
    await expect.poll(() => stateOf(boss, 'qw-cut-fail', id).catch(() => 'unreachable'), { timeout: 15_000, interval: 250 }).toBe('completed');
    expect(runs).toBe(2);
  });
});
