import nodemailer from 'nodemailer';
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { DB } from '../db/schema.ts';
import { AppError } from './errors.ts';
import { insertQueuedMail, markMailDelivered, markMailFailed } from './mail-outbox.repository.ts';

export const MAIL_UNAVAILABLE = 'The e-mail could not be sent just now. Try again in a few minutes.';

export type Mail = { to: string; subject: string; text: string };
export type Mailer = {
  /** Writes the mail to the outbox and sends it now; a failure is a 503 MailUnavailable (the mail stays, failed). */
  send(mail: Mail): Promise<void>;
  /**
   * Only sends (the mail relay, for mails already in the outbox): 'sent' over SMTP, 'logged' without SMTP_URL. A
   * failure is thrown as it is, for the relay to try again later.
   */
  transmit(mail: Mail): Promise<'sent' | 'logged'>;
};

/**
 * Every mail is written to the outbox first. With SMTP_URL it is then sent over SMTP and marked sent, and its body
 * is redacted at once (mails carry invitation links and reset codes); a failed one is marked failed. Without
 * SMTP_URL (the operator CLI outside production, when no mail catcher runs) it is marked logged: its text goes to the
 * log only in demo mode (codes in logs are a demo convenience, never a production one), and the body stays readable
 * in the outbox until the cleanup job redacts it (jobs/cleanup.ts, after 24 hours).
 */
export function createMailer(options: {
  db: Kysely<DB>;
  smtpUrl?: string;
  from: string;
  log: FastifyBaseLogger;
  /** demo mode: a mail that cannot be sent is written to the log in full */
  logBodies?: boolean;
}): Mailer {
  const transport = options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : undefined;
  async function transmit(mail: Mail): Promise<'sent' | 'logged'> {
    if (!transport) {
      const logged = options.logBodies ? { to: mail.to, subject: mail.subject, text: mail.text } : { to: mail.to, subject: mail.subject };
      options.log.info({ mail: logged }, 'mail (no SMTP_URL: kept in the outbox table, not sent)');
      return 'logged';
    }
    await transport.sendMail({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text });
    return 'sent';
  }
  return {
    transmit,
    async send(mail) {
      const id = await insertQueuedMail(options.db, mail);
      let how: 'sent' | 'logged';
      try {
        how = await transmit(mail);
      } catch (err) {
        options.log.error({ err, to: mail.to }, 'mail delivery failed');
        await markMailFailed(options.db, id, err instanceof Error ? err.message : String(err));
        // what was saved before the mail stays saved (the caller can send it again); the client gets a clear 503
        throw new AppError(503, 'MailUnavailable', MAIL_UNAVAILABLE);
      }
      // a sent mail's body is redacted at once; a logged one stays readable until the cleanup (see above)
      await markMailDelivered(options.db, id, how, new Date(), how === 'sent');
    },
  };
}
