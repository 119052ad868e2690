import { MailDev } from 'maildev';

export type MailCatcher = { smtpUrl: string; webUrl: string; stop(): Promise<void> };

/**
 * The development mail catcher (maildev): an SMTP server on 127.0.0.1 that keeps every mail, and a web inbox where a
 * person reads them. `npm start` uses it when SMTP_URL is unset outside production, so that invitations and
 * one-time codes travel over SMTP as they will in production, and nobody has to read them from a log.
 */
export async function startMailCatcher(options: { smtpPort: number; webPort: number }): Promise<MailCatcher> {
  const maildev = new MailDev({ smtp: options.smtpPort, web: options.webPort, ip: '127.0.0.1', webIp: '127.0.0.1', silent: true });
  await maildev.start();
  return {
    smtpUrl: `smtp://127.0.0.1:${options.smtpPort}`,
    webUrl: `http://localhost:${options.webPort}`,
    stop: () => maildev.stop(),
  };
}
