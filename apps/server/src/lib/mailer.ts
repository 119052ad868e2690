import nodemailer from 'nodemailer';
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { DB } from '../db/schema.ts';

export type Mail = { to: string; subject: string; text: string };
export type Mailer = { send(mail: Mail): Promise<void> };

/**
 * Every mail is written to the outbox first. With SMTP_URL it is then sent over SMTP and marked sent (or failed);
 * without it, it is marked logged and its text goes to the log, so that a local start can read invitations.
 */
export function createMailer(options: {
  db: Kysely<DB>;
  smtpUrl?: string;
  from: string;
  log: FastifyBaseLogger;
}): Mailer {
  const transport = options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : undefined;
  return {
    async send(mail) {
      const row = await options.db
        .insertInto('mail_outbox')
        .values({ to_address: mail.to, subject: mail.subject, text_body: mail.text, status: 'queued' })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (!transport) {
        options.log.info({ mail: { to: mail.to, subject: mail.subject, text: mail.text } }, 'mail (no SMTP_URL: logged, not sent)');
        await options.db.updateTable('mail_outbox').set({ status: 'logged', sent_at: new Date() }).where('id', '=', row.id).execute();
        return;
      }
      try {
        await transport.sendMail({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text });
        await options.db.updateTable('mail_outbox').set({ status: 'sent', sent_at: new Date() }).where('id', '=', row.id).execute();
      } catch (err) {
        options.log.error({ err, to: mail.to }, 'mail delivery failed');
        await options.db
          .updateTable('mail_outbox')
          .set({ status: 'failed', error: err instanceof Error ? err.message : String(err) })
          .where('id', '=', row.id)
          .execute();
        throw err;
      }
    },
  };
}
