import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../db/schema.ts';

/** Every statement on the mail outbox. */

type Executor = Kysely<DB> | Transaction<DB>;

/** What a mail's body becomes once it must no longer be readable (it may carry an invitation link or a code). */
export const REDACTED_MAIL_BODY = '[removed after delivery]';

/** Delivered: sent over SMTP, or written to the log where no SMTP server is configured. */
export const DELIVERED_MAIL_STATUSES = ['sent', 'logged'] as const;

export async function insertQueuedMail(db: Executor, mail: { to: string; subject: string; text: string }): Promise<string> {
  const row = await db
    .insertInto('mail_outbox')
    .values({ to_address: mail.to, subject: mail.subject, text_body: mail.text, status: 'queued' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Marks a mail delivered; `redact` replaces its body at the same time. */
export async function markMailDelivered(db: Executor, id: string, status: (typeof DELIVERED_MAIL_STATUSES)[number], sentAt: Date, redact: boolean) {
  await db
    .updateTable('mail_outbox')
    .set({ status, sent_at: sentAt, ...(redact ? { text_body: REDACTED_MAIL_BODY } : {}) })
    .where('id', '=', id)
    .execute();
}

export async function markMailFailed(db: Executor, id: string, error: string) {
  await db.updateTable('mail_outbox').set({ status: 'failed', error }).where('id', '=', id).execute();
}

/** Redacts the bodies of mails written before `before`, whatever their state. Returns how many. */
export async function redactMailBodies(db: Executor, before: Date): Promise<number> {
  const result = await db
    .updateTable('mail_outbox')
    .set({ text_body: REDACTED_MAIL_BODY })
    .where('created_at', '<', before)
    .where('text_body', '<>', REDACTED_MAIL_BODY)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Deletes delivered mails sent before `before`. Returns how many. */
export async function deleteDeliveredMails(db: Executor, before: Date): Promise<number> {
  const result = await db.deleteFrom('mail_outbox').where('status', 'in', DELIVERED_MAIL_STATUSES).where('sent_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Mails a change writes in its transaction, for the relay to deliver once it commits. Returns their ids. */
export async function insertDeferredMails(trx: Transaction<DB>, mails: { to: string; subject: string; text: string }[]): Promise<string[]> {
  if (mails.length === 0) return [];
  const rows = await trx
    .insertInto('mail_outbox')
    .values(mails.map((m) => ({ to_address: m.to, subject: m.subject, text_body: m.text, status: 'queued', deferred: true, next_attempt_at: new Date(0) })))
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Claims up to `limit` deferred mails that are due (queued and due, or claimed by a sender that went quiet before
 * `staleBefore`), in one statement: another instance's claim is skipped, never waited for.
 */
export async function claimDueMails(db: Kysely<DB>, now: Date, staleBefore: Date, limit: number) {
  const rows = await sql<{ id: string; to_address: string; subject: string; text_body: string; attempts: number }>`
    update mail_outbox set status = 'sending', claimed_at = ${now}, attempts = attempts + 1
    where id in (
      select id from mail_outbox
      where deferred and ((status = 'queued' and next_attempt_at <= ${now}) or (status = 'sending' and claimed_at < ${staleBefore}))
      order by next_attempt_at
      limit ${limit}
      for update skip locked
    )
    returning id, to_address, subject, text_body, attempts`.execute(db);
  return rows.rows;
}

/** A deferred mail that could not be sent: tried again at `nextAt`, or failed for good when `nextAt` is null. */
export async function markMailRetry(db: Executor, id: string, error: string, nextAt: Date | null) {
  await db
    .updateTable('mail_outbox')
    .set(nextAt ? { status: 'queued', error, next_attempt_at: nextAt, claimed_at: null } : { status: 'failed', error })
    .where('id', '=', id)
    .execute();
}

/**
 * The outbox's undelivered mails, in one statement: those not delivered yet and not given up (queued, or being sent),
 * the age in seconds of the oldest of them from when it was written (0 when none), and those given up (failed: a
 * mail the relay tried MAIL_MAX_ATTEMPTS times, or one sent at once whose send failed; kept until someone removes them).
 */
export async function undeliveredMails(db: Executor): Promise<{ pending: number; oldestPendingSeconds: number; failed: number }> {
  const row = await sql<{ pending: number; oldest_pending_seconds: number | string | null; failed: number }>`
    select count(*) filter (where status in ('queued', 'sending'))::int as pending,
           extract(epoch from now() - min(created_at) filter (where status in ('queued', 'sending')))::float8 as oldest_pending_seconds,
           count(*) filter (where status = 'failed')::int as failed
      from mail_outbox
     where status in ('queued', 'sending', 'failed')`.execute(db);
  const r = row.rows[0];
  return {
    pending: Number(r?.pending ?? 0),
    oldestPendingSeconds: Math.max(0, Number(r?.oldest_pending_seconds ?? 0)),
    failed: Number(r?.failed ?? 0),
  };
}
