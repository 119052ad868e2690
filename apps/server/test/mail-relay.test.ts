import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import type { Database } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { MAIL_MAX_ATTEMPTS, createMailRelay } from '../src/lib/mail-relay.ts';
import type { Mail, Mailer } from '../src/lib/mailer.ts';
import { DATABASES, freshDatabase } from './harness.ts';

const log = pino({ level: 'silent' });

/** A mailer whose sends fail while `down` is set; what it sent, in order. */
function flakyMailer() {
  const sent: Mail[] = [];
  const state = { down: false, tries: 0 };
  const mailer: Mailer = {
    send: () => Promise.reject(new Error('not used by the relay')),
    async transmit(mail) {
      state.tries++;
      // a real send takes a moment: two relays racing overlap
      await new Promise((r) => setTimeout(r, 2));
      if (state.down) throw new Error('connect ECONNREFUSED 127.0.0.1:25');
      sent.push(mail);
      return 'sent';
    },
  };
  return { mailer, sent, state };
}

describe.each(DATABASES)('the mail relay on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await freshDatabase(kind);
    await migrateToLatest(database.db);
  });
  afterAll(async () => {
    await database?.close();
  });

  const mail = (n: number): Mail => ({ to: `user${n}@example.test`, subject: `Notice ${n}`, text: `Hello ${n}` });
  const rows = () =>
    database.db.selectFrom('mail_outbox').select(['to_address', 'status', 'attempts', 'text_body', 'error']).where('deferred', '=', true).execute();

  it('sends a mail only once its change commits, and nothing for a change that rolls back', async () => {
    const { mailer, sent } = flakyMailer();
    const relay = createMailRelay({ database, mailer, log });
    await database.db
      .transaction()
      .execute(async (trx) => {
        await relay.enqueue(trx, [mail(0)]);
        throw new Error('the change fails after its mail was written');
      })
      .catch(() => undefined);
    await database.db.transaction().execute((trx) => relay.enqueue(trx, [mail(1)]));
    await relay.deliver();
    expect(sent.map((m) => m.to)).toEqual(['user1@example.test']);
    const [row] = await rows();
    expect(row).toMatchObject({ to_address: 'user1@example.test', status: 'sent', attempts: 1 });
    // sent: its body no longer readable
    expect(row!.text_body).not.toContain('Hello');
    await relay.stop();
  });

  it('keeps a mail the mail server refused and sends it when it is back, with backoff; gives up after the last try', async () => {
    await database.db.deleteFrom('mail_outbox').execute();
    let now = Date.parse('2026-11-26T10:00:00Z');
    const { mailer, sent, state } = flakyMailer();
    const relay = createMailRelay({ database, mailer, log, now: () => now });
    state.down = true;
    await database.db.transaction().execute((trx) => relay.enqueue(trx, [mail(2)]));
    await relay.deliver();
    expect(await rows()).toMatchObject([{ status: 'queued', attempts: 1, error: 'connect ECONNREFUSED 127.0.0.1:25' }]);
    // not due yet: nothing is tried
    await relay.deliver();
    expect(state.tries).toBe(1);
    state.down = false;
    now += 30_000;
    await relay.deliver();
    expect(sent.map((m) => m.to)).toEqual(['user2@example.test']);
    expect(await rows()).toMatchObject([{ status: 'sent', attempts: 2 }]);

    // a mail server that never comes back: tried MAIL_MAX_ATTEMPTS times, then failed for good
    state.down = true;
    await database.db.transaction().execute((trx) => relay.enqueue(trx, [mail(3)]));
    for (let i = 0; i < MAIL_MAX_ATTEMPTS + 2; i++) {
      await relay.deliver();
      now += 60 * 60_000;
    }
    const failed = (await rows()).find((r) => r.to_address === 'user3@example.test');
    expect(failed).toMatchObject({ status: 'failed', attempts: MAIL_MAX_ATTEMPTS });
    await relay.stop();
  });

  it('two instances sending at once send each mail exactly once', async () => {
    await database.db.deleteFrom('mail_outbox').execute();
    const a = flakyMailer();
    const b = flakyMailer();
    const relayA = createMailRelay({ database, mailer: a.mailer, log });
    const relayB = createMailRelay({ database, mailer: b.mailer, log });
    await database.db.transaction().execute((trx) =>
      relayA.enqueue(
        trx,
        Array.from({ length: 60 }, (_, i) => mail(100 + i)),
      ),
    );
    await Promise.all([relayA.deliver(), relayB.deliver(), relayA.deliver(), relayB.deliver()]);
    await Promise.all([relayA.deliver(), relayB.deliver()]);
    const all = [...a.sent, ...b.sent].map((m) => m.to).sort();
    expect(all).toHaveLength(60);
    expect(new Set(all).size).toBe(60);
    expect((await rows()).every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
    await Promise.all([relayA.stop(), relayB.stop()]);
  });
});
