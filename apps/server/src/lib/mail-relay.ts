import type { FastifyBaseLogger } from 'fastify';
import type { Transaction } from 'kysely';
import type { Database } from '../db/database.ts';
import { createOutboxRelay } from '../db/outbox-relay.ts';
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
 * Delivers the mails changes write in their transactions (notifications, password reset codes): a mail is in the
 * outbox if and only if its change committed, and is sent after, by the outbox relay (db/outbox-relay.ts: every
 * instance hears the commit, one claims each mail). A failed send is tried again with backoff, at most
 * MAIL_MAX_ATTEMPTS times; a mail claimed by an instance that died mid-send is claimed again (at least once).
 */
export function createMailRelay(options: { database: Database; mailer: Mailer; log: FastifyBaseLogger; now?: () => number }) {
  const { database, mailer, log } = options;
  const now = () => new Date(options.now?.() ?? Date.now());

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

  const relay = createOutboxRelay({ database, channel: MAIL_CHANNEL, step: deliverOnce, batch: BATCH, sweepMs: SWEEP_MS, name: 'mail relay', log });

  return {
    async enqueue(trx: Transaction<DB>, mails: Mail[]) {
      if ((await insertDeferredMails(trx, mails)).length > 0) await relay.announce(trx);
    },
    /** Sends what is due now (tests, and the sweep). */
    async deliver() {
      await relay.run();
    },
    start: relay.start,
    stop: relay.stop,
  };
}

export type MailRelay = ReturnType<typeof createMailRelay>;
