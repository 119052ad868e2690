import type { FastifyBaseLogger } from 'fastify';
import type { Transaction } from 'kysely';
import type { Database } from './database.ts';
import { listen, notifyInTransaction, type Listener } from './notify.ts';
import { logFailure } from './outage.ts';
import type { DB } from './schema.ts';

export type OutboxRelayOptions = {
  database: Database;
  /** the channel a change's transaction notifies (`announce`) and every instance listens on */
  channel: string;
  /** takes up to `batch` rows that are due and hands them on; resolves to how many it took */
  step: () => Promise<number>;
  batch: number;
  /** how often the relay looks without being told: a retry come due, a notification lost while reconnecting */
  sweepMs: number;
  /** what the log calls it */
  name: string;
  log: FastifyBaseLogger;
};

export type OutboxRelay = {
  /** In a change's transaction: tells every instance, once (and only if) it commits, that it wrote work. */
  announce: (trx: Transaction<DB>) => Promise<void>;
  /** Takes up what is due until a step takes less than a batch; a call during a run makes it run again. Resolves to how many rows it took. */
  run: () => Promise<number>;
  start: () => void;
  stop: () => Promise<void>;
};

/**
 * The one way work is done after a commit that is not a job of the queue: the change writes its rows (the outbox)
 * in its transaction and calls `announce`; every instance's relay hears it once committed (`NOTIFY <channel>` on a
 * PostgreSQL server, a nudge in process on the embedded database, whose statements wait for the change's session
 * lock) and runs `step` until nothing is due. Each step claims its rows with `for update skip locked`, so that one
 * instance takes each. A sweep every `sweepMs`, and a run each time the listener is in place again, catch what no
 * notification announced. Used by the mail relay (lib/mail-relay.ts) and the webhook relay (webhook-delivery.ts).
 */
export function createOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  const { database, channel, step, batch, log } = options;
  let running: Promise<number> | undefined;
  let again = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let listener: Listener | undefined;

  function run(): Promise<number> {
    if (stopped) return Promise.resolve(0);
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let total = 0;
      try {
        do {
          again = false;
          let taken: number;
          do {
            taken = await step();
            total += taken;
          } while (taken === batch && !stopped);
        } while (again && !stopped);
      } catch (err) {
        if (!stopped) logFailure(log, err, `${options.name} failed; it tries again shortly`);
      } finally {
        running = undefined;
      }
      return total;
    })();
    return running;
  }

  return {
    async announce(trx) {
      if (database.url) await notifyInTransaction(trx, channel, '');
      else setImmediate(() => void run());
    },
    run,
    start() {
      stopped = false;
      timer = setInterval(() => void run(), options.sweepMs);
      timer.unref();
      if (database.url) {
        listener = listen({
          url: database.url,
          registry: database.listeners,
          channel,
          onMessage: () => void run(),
          onListening: () => void run(),
          onReconnect: () => void run(),
          onError: (err) => log.warn({ err }, `${options.name}: notifications interrupted`),
        });
      }
      void run();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await listener?.close();
      await running;
    },
  };
}
