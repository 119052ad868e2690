import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/schema.ts';

/** Every statement on the mail outbox. */

type Executor = Kysely<DB> | Transaction<DB>;

/** What a mail's body becomes once it must no longer be readable (it may carry a temporary password or a code). */
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
