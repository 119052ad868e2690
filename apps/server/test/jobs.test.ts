import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type PgBoss from 'pg-boss';
import { createBoss } from '../src/jobs/boss.ts';
import { DATABASES, setup, type TestContext } from './harness.ts';

describe.each(DATABASES)('background jobs on %s', (kind) => {
  let t: TestContext;
  let boss: PgBoss;
  beforeAll(async () => {
    t = await setup(kind, { seed: false });
    boss = createBoss(t.database);
    await boss.start();
  });
  afterAll(async () => {
    await boss?.stop({ graceful: false, wait: true });
    await t?.close();
  });

  it('runs a queued job once and records it as completed', async () => {
    await boss.createQueue('test-echo');
    const seen: unknown[] = [];
    await boss.work<{ n: number }>('test-echo', { pollingIntervalSeconds: 0.5 }, async ([job]) => {
      seen.push(job!.data);
    });
    const id = await boss.send('test-echo', { n: 42 });
    expect(id).toBeTruthy();
    await expect.poll(() => seen, { timeout: 10_000, interval: 100 }).toEqual([{ n: 42 }]);
    await expect.poll(async () => (await boss.getJobById('test-echo', id!))?.state, { timeout: 10_000, interval: 100 }).toBe('completed');
  });

  it('keeps a job that was queued while no worker ran', async () => {
    await boss.createQueue('test-later');
    const id = await boss.send('test-later', { kept: true });
    const job = await boss.getJobById('test-later', id!);
    expect(job).toMatchObject({ state: 'created', data: { kept: true } });
  });
});
