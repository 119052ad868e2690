import { randomUUID } from 'node:crypto';
import type PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import { errorCause, isDatabaseOutage, logFailure } from '../db/outage.ts';

/** One loop taking a queue's jobs one at a time on this server. */
export type QueueWorker = {
  /** takes no new job, and waits up to `graceMs` for the one under way; one still running then is handed back */
  stop(graceMs?: number): Promise<void>;
};

export type QueueWorkerOptions = {
  /** how often an idle loop looks for work (a busy one takes its next job at once) */
  pollingIntervalSeconds: number;
  log: FastifyBaseLogger;
};

/** Longest wait between two tries to record a job's outcome while the database is away. */
const SETTLE_MAX_WAIT_MS = 2000;

const JOB_COLUMNS = `j.id, j.name, j.data, extract(epoch from j.expire_in) as "expireInSeconds"`;

/**
 * Takes the queue's next job as pg-boss 10's fetch does (one job: its batch rules for singleton and stately queues do
 * not apply to one), and marks it with `claim`, a token of this fetch, in the job's output (which its outcome
 * replaces). pg-boss's own fetch swallows every error: a fetch that commits as its connection is cut (a failover
 * after the synchronous replica has the commit) left the job active with no server working it until its expiry,
 * up to 15 minutes. With the token, the server that lost the answer finds the job it took.
 */
const CLAIM_SQL = `
  with next as (
    select id from pgboss.job
     where name = $1 and state < 'active' and start_after < now()
     order by priority desc, created_on, id
     limit 1
       for update skip locked
  )
  update pgboss.job j
     set state = 'active',
         started_on = now(),
         retry_count = case when j.started_on is not null then j.retry_count + 1 else j.retry_count end,
         output = jsonb_build_object('claim', $2::text)
    from next
   where j.name = $1 and j.id = next.id
  returning ${JOB_COLUMNS}`;

/** The job a fetch with this token took, when it took one and it is still active (its answer was lost). */
const CLAIMED_SQL = `select ${JOB_COLUMNS} from pgboss.job j where j.name = $1 and j.state = 'active' and j.output ->> 'claim' = $2`;

const running = new WeakMap<PgBoss, Set<QueueWorker>>();

/**
 * Works a queue one job at a time with `handle`, and records each job's outcome (completed, or failed so that the
 * queue tries it again) even across a database outage. pg-boss 10's own `work` records it once, without waiting
 * for the answer: a connection cut as a job ends (a blip, a restarted pooler, a failover) left the job active until
 * its expiry, up to 15 minutes, and a report asked for just before the cut waited that long. Here the outcome is
 * tried again until the database answers, for as long as the job is still this server's (its expiry); past that
 * the queue's expiry hands it to any server.
 */
export function workQueue<T extends object>(
  boss: PgBoss,
  queue: string,
  options: QueueWorkerOptions,
  handle: (job: PgBoss.Job<T>) => Promise<unknown>,
): QueueWorker {
  const { log } = options;
  const interval = options.pollingIntervalSeconds * 1000;
  let stopping = false;
  let abandoned = false;
  let current: PgBoss.Job<T> | undefined;
  let wake: (() => void) | undefined;

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      if (stopping) return resolve();
      const timer = setTimeout(done, ms);
      timer.unref();
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
    });

  async function settle(job: PgBoss.Job<T>, failure: unknown, expiresAt: number) {
    const record = () =>
      failure === undefined
        ? boss.complete(queue, job.id)
        : boss.fail(queue, job.id, { message: failure instanceof Error ? failure.message : errorCause(failure) });
    for (let wait = 250; ; wait = Math.min(wait * 2, SETTLE_MAX_WAIT_MS)) {
      try {
        await record();
        return;
      } catch (err) {
        // past its expiry the job may be another server's already: recording this outcome could end that one's run
        if (!isDatabaseOutage(err) || abandoned || Date.now() + wait >= expiresAt) {
          logFailure(log, err, `${queue}: the outcome of a job could not be recorded; the queue's expiry hands it back`, { job: job.id });
          return;
        }
        await new Promise((r) => setTimeout(r, wait).unref());
      }
    }
  }

  async function run(job: PgBoss.Job<T>) {
    const expiresAt = Date.now() + Number(job.expireInSeconds) * 1000;
    let failure: unknown;
    let timer: NodeJS.Timeout | undefined;
    try {
      // a run past the job's expiry is given up (the queue hands the job to a server again), as pg-boss does
      const expired = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${queue}: the job ran past its expiry`)), expiresAt - Date.now());
        timer.unref();
      });
      await Promise.race([handle(job), expired]);
    } catch (err) {
      failure = err ?? new Error('failed');
    } finally {
      clearTimeout(timer);
    }
    // handed back at a stop already (and perhaps another server's now): nothing more to record
    if (abandoned) return;
    if (failure !== undefined) logFailure(log, failure, `${queue}: a job failed; the queue tries it again`, { job: job.id });
    await settle(job, failure, expiresAt);
  }

  /** the token of a fetch whose answer was lost to an outage: the job it may have taken is looked for first */
  let lostClaim: string | undefined;
  const first = async (sql: string, claim: string) => {
    const { rows }: { rows: unknown[] } = await boss.getDb().executeSql(sql, [queue, claim]);
    return rows[0] as PgBoss.Job<T> | undefined;
  };
  const take = async (): Promise<PgBoss.Job<T> | undefined> => {
    if (lostClaim) {
      const job = await first(CLAIMED_SQL, lostClaim);
      lostClaim = undefined;
      if (job) {
        log.warn({ job: job.id }, `${queue}: a job taken as the database went away is worked now, not at its expiry`);
        return job;
      }
    }
    const claim = randomUUID();
    try {
      return await first(CLAIM_SQL, claim);
    } catch (err) {
      if (isDatabaseOutage(err)) lostClaim = claim;
      throw err;
    }
  };

  const loop = (async () => {
    while (!stopping) {
      let job: PgBoss.Job<T> | undefined;
      try {
        job = await take();
      } catch (err) {
        if (!stopping) logFailure(log, err, `${queue}: no job could be taken; tried again shortly`);
      }
      if (job) {
        current = job;
        await run(job);
        current = undefined;
        continue;
      }
      await pause(interval);
    }
  })();

  const worker: QueueWorker = {
    async stop(graceMs = 0) {
      stopping = true;
      wake?.();
      const finished = await Promise.race([loop.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), graceMs).unref())]);
      running.get(boss)?.delete(worker);
      if (finished || !current) return;
      // still running at the end of the grace: handed back now (failed, so tried again) rather than at its expiry
      abandoned = true;
      await boss.fail(queue, current.id, { message: 'the server stopped during the job' }).catch(() => undefined);
    },
  };
  const workers = running.get(boss) ?? new Set<QueueWorker>();
  if (!running.has(boss)) {
    running.set(boss, workers);
    // a queue stopped without stopQueueWorkers (a test's teardown) stops its loops too
    boss.once('stopped', () => void Promise.all([...workers].map((w) => w.stop())));
  }
  workers.add(worker);
  return worker;
}

/** Stops every loop working a queue of `boss`, giving the jobs under way `graceMs` to finish (before the queue stops). */
export async function stopQueueWorkers(boss: PgBoss, graceMs: number): Promise<void> {
  await Promise.all([...(running.get(boss) ?? [])].map((w) => w.stop(graceMs)));
}
