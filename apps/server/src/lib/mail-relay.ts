import type { FastifyBaseLogger } from 'fastify';
import type { Transaction } from 'kysely';
import type { Database } from '../db/database.ts';
import { listen, notifyInTransaction, type Listener } from '../db/notify.ts';
import { logFailure } from '../db/outage.ts';
import type { DB } from '../db/schema.ts';
import { claimDueMails, insertDeferredMails, markMailDelivered, markMailRetry } from './mail-outbox.repository.ts';
import type { Mail, Mailer } from './mailer.ts';

export const MAIL_CHANNEL = 'portal_mail';
/** Mails one claim takes. */
const BATCH = 20;
/** A claimed mail whose sender went quiet this long (it died mid-send) is claimed again: at least once. */
const STALE_AFTER_MS = 5 * 60_000;
/** Tries of one mail before it is marked failed, and the wait before each retry (doubling from this). */
export const MAIL_MAX_ATTEMPTS = 6;
const FIRST_RETRY_MS = 30_000;
/** A sweep finds what no nudge announced (a retry come due, a nudge lost while the listener reconnected). */
const SWEEP_MS = 15_000;

/** What a change needs of the relay: to write its mails in its transaction, delivered once it commits. */
export type MailQueue = { enqueue(trx: Transaction<DB>, mails: Mail[]): Promise<void> };

/**
 * Delivers the mails changes write in their transactions (notifications): a mail is in the outbox if and only if its
 * change committed, and is sent after. On a PostgreSQL server the change sends `NOTIFY portal_mail` in its
 * transaction, heard by every instance once it commits; each claims due mails with `for update skip locked`, so one
 * instance sends each. On the embedded database the nudge is in process (the claim waits for the change's session
 * lock, so it sees the change committed). A failed send is tried again with backoff; a sweep every 15 s catches up.
 */
export function createMailRelay(options: { database: Database; mailer: Mailer; log: FastifyBaseLogger; now?: () => number }) {
  const { database, mailer, log } = options;
  const now = () => new Date(options.now?.() ?? Date.now());
  const url = database.url;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let listener: Listener | undefined;

  async function deliverOnce(): Promise<number> {
    const at = now();
    const mails = await claimDueMails(database.db, at, new Date(at.getTime() - STALE_AFTER_MS), BATCH);
    await Promise.all(
      mails.map(async (m) => {
        try {
          const how = await mailer.transmit({ to: m.to_address, subject: m.subject, text: m.text_body });
          await markMailDelivered(database.db, m.id, how, now(), how === 'sent');
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          const next = m.attempts >= MAIL_MAX_ATTEMPTS ? null : new Date(now().getTime() + FIRST_RETRY_MS * 2 ** (m.attempts - 1));
          log.warn({ err: message, to: m.to_address, attempts: m.attempts }, next ? 'mail not sent: tried again later' : 'mail not sent: given up');
          await markMailRetry(database.db, m.id, message, next);
        }
      }),
    );
    return mails.length;
  }

  /** Sends what is due until nothing is; a nudge during a run makes it run again. */
  function deliver(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          while ((await deliverOnce()) === BATCH && !stopped);
        } while (again && !stopped);
      } catch (err) {
        logFailure(log, err, 'mail relay');
      } finally {
        running = undefined;
      }
    })();
    return running;
  }

  return {
    async enqueue(trx: Transaction<DB>, mails: Mail[]) {
      if ((await insertDeferredMails(trx, mails)).length === 0) return;
      if (url) await notifyInTransaction(trx, MAIL_CHANNEL, '');
      else setImmediate(() => void deliver());
    },
    /** Sends what is due now (tests, and the sweep). */
    deliver,
    start() {
      stopped = false;
      timer = setInterval(() => void deliver(), SWEEP_MS);
      timer.unref();
      if (url) {
        listener = listen({
          url,
          registry: database.listeners,
          channel: MAIL_CHANNEL,
          onMessage: () => void deliver(),
          onListening: () => void deliver(),
          onReconnect: () => undefined,
          onError: (err) => log.warn({ err }, 'mail notifications interrupted'),
        });
      } else void deliver();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await listener?.close();
      await running;
    },
  };
}

export type MailRelay = ReturnType<typeof createMailRelay>;
