import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { startMailCatcher, type MailCatcher } from '../src/lib/mail-catcher.ts';
import { createMailer } from '../src/lib/mailer.ts';
import { freshDatabase } from './harness.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import type { Database } from '../src/db/database.ts';

const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });

describe('the development mail catcher', () => {
  let catcher: MailCatcher;
  let database: Database;
  beforeAll(async () => {
    catcher = await startMailCatcher({ smtpPort: await freePort(), webPort: await freePort() });
    database = await freshDatabase('pglite');
    await migrateToLatest(database.db);
  });
  afterAll(async () => {
    await catcher?.stop();
    await database?.close();
  });

  it('receives mail over SMTP and shows it in its web inbox', async () => {
    const lines: string[] = [];
    const log = pino({ level: 'info' }, { write: (l: string) => void lines.push(l) });
    const mailer = createMailer({ db: database.db, smtpUrl: catcher.smtpUrl, from: 'Partner Dashboard <no-reply@portal.test>', log });
    await mailer.send({ to: 'jo@savanna.example', subject: 'Your code', text: 'Your verification code is 482913.' });
    const res = await fetch(`${catcher.webUrl.replace('localhost', '127.0.0.1')}/api/email`);
    expect(res.status).toBe(200);
    const mails = (await res.json()) as { subject: string; to: { address: string }[]; text: string }[];
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ subject: 'Your code', to: [{ address: 'jo@savanna.example' }] });
    expect(mails[0]!.text).toContain('482913');
    // the inbox a person opens in the browser
    const inbox = await fetch(`${catcher.webUrl.replace('localhost', '127.0.0.1')}/`, { headers: { accept: 'text/html' } });
    expect(inbox.status).toBe(200);
    expect(await inbox.text()).toContain('<html');
    // the root is the inbox for any client, not only one that asks for HTML (the README sends people there)
    const plain = await fetch(`${catcher.webUrl.replace('localhost', '127.0.0.1')}/`, { headers: { accept: '*/*' } });
    expect(plain.status).toBe(200);
    expect(await plain.text()).toContain('<html');
    // sent over SMTP: nothing of it in the log
    expect(lines.join('')).not.toContain('482913');
  });

  it('keeps codes out of the log when mail cannot be sent, unless in demo mode', async () => {
    const lines: string[] = [];
    const log = pino({ level: 'info' }, { write: (l: string) => void lines.push(l) });
    await createMailer({ db: database.db, from: 'x@portal.test', log }).send({ to: 'a@b.example', subject: 's', text: 'code 111222' });
    expect(lines.join('')).not.toContain('111222');
    await createMailer({ db: database.db, from: 'x@portal.test', log, logBodies: true }).send({ to: 'a@b.example', subject: 's', text: 'code 333444' });
    expect(lines.join('')).toContain('333444');
  });
});
