import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PARTNERS, DEMO_USERS } from '../src/db/seed/demo.ts';
import { CLEANUP_CRON, CLEANUP_QUEUE, runCleanup, startCleanupJob } from '../src/jobs/cleanup.ts';
import { REDACTED_MAIL_BODY } from '../src/lib/mail-outbox.repository.ts';
import { DATABASES, setup, setupOverSmtp, testMailer, type TestContext } from './harness.ts';
import { mailText, type Sink } from './smtp-sink.ts';

const ACME = DEMO_PARTNERS.acme.id;
const [ada, kwame, thandi, femi] = DEMO_USERS.filter((u) => u.partner === 'acme') as [
  (typeof DEMO_USERS)[0],
  (typeof DEMO_USERS)[0],
  (typeof DEMO_USERS)[0],
  (typeof DEMO_USERS)[0],
];
const HOUR = 3600_000;
const DAY = 24 * HOUR;

describe.each(DATABASES)('the cleanup job on %s', (kind) => {
  let t: TestContext;
  let now: number;
  const at = (offset: number) => new Date(now + offset);
  // the modules' ports the composition root hands the job
  const modulePorts = () => ({ notifications: t.app.services.notifications, reports: t.app.services.reports });
  beforeAll(async () => {
    t = await setup(kind, { jobs: true });
    now = t.clock.now;
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Old and fresh rows of every kind the job cleans. */
  async function seedRows() {
    const db = t.database.db;
    await db
      .insertInto('auth_challenges')
      .values([
        { partner_id: ACME, user_id: ada.id, session_hash: 'old-challenge', challenge_name: 'SOFTWARE_TOKEN_MFA', expires_at: at(-10 * 60_000) },
        { partner_id: ACME, user_id: ada.id, session_hash: 'fresh-challenge', challenge_name: 'SOFTWARE_TOKEN_MFA', expires_at: at(3 * 60_000) },
      ])
      .execute();
    const token = (name: string, family: string, expiresIn: number, extra: { used_at?: Date; revoked_at?: Date } = {}) => ({
      partner_id: ACME,
      id: crypto.randomUUID(),
      user_id: ada.id,
      family_id: family,
      token_hash: name,
      expires_at: at(expiresIn),
      used_at: extra.used_at ?? null,
      revoked_at: extra.revoked_at ?? null,
    });
    const ended = crypto.randomUUID();
    const revoked = crypto.randomUUID();
    const living = crypto.randomUUID();
    // the sessions the token families belong to
    await db
      .insertInto('auth_sessions')
      .values([
        { partner_id: ACME, id: ended, user_id: ada.id, expires_at: at(-HOUR) },
        { partner_id: ACME, id: revoked, user_id: ada.id, expires_at: at(-HOUR), revoked_at: at(-3 * HOUR) },
        { partner_id: ACME, id: living, user_id: ada.id, expires_at: at(6 * HOUR) },
        // ended more than a day ago: removed
        { partner_id: ACME, id: crypto.randomUUID(), user_id: ada.id, expires_at: at(-2 * DAY) },
        { partner_id: ACME, id: crypto.randomUUID(), user_id: ada.id, expires_at: at(HOUR), revoked_at: at(-2 * DAY) },
      ])
      .execute();
    await db
      .insertInto('sign_in_throttle')
      .values([
        { key: 'idle', failures: 2, locked_until: null, updated_at: at(-2 * DAY) },
        { key: 'locked-now', failures: 5, locked_until: at(10 * 60_000), updated_at: at(-2 * DAY) },
        { key: 'recent', failures: 1, locked_until: null, updated_at: at(-HOUR) },
      ])
      .execute();
    // the two code tables hold the same three states: a used code and an expired one (both removed), a living one
    const codes = (lifetime: number, living: string) => [
      { partner_id: ACME, user_id: ada.id, code_hash: 'used', expires_at: at(lifetime), used_at: at(-60_000) },
      { partner_id: ACME, user_id: kwame.id, code_hash: 'expired', expires_at: at(-60_000) },
      { partner_id: ACME, user_id: thandi.id, code_hash: living, expires_at: at(lifetime) },
    ];
    await db
      .insertInto('email_otps')
      .values(codes(5 * 60_000, 'live'))
      .execute();
    await db
      .insertInto('refresh_tokens')
      .values([
        // a family that ended long ago: every token expired
        token('ended-1', ended, -2 * DAY, { used_at: at(-2 * DAY - HOUR) }),
        token('ended-2', ended, -HOUR),
        // a revoked family whose tokens have expired
        token('revoked-1', revoked, -HOUR, { revoked_at: at(-3 * HOUR) }),
        // a living session: its expired, used token goes, its current one stays
        token('living-old', living, -HOUR, { used_at: at(-2 * HOUR) }),
        token('living-now', living, 6 * HOUR),
      ])
      .execute();
    await db
      .insertInto('password_reset_codes')
      .values(codes(10 * 60_000, 'fresh'))
      .execute();
    await db
      .insertInto('rate_limit_counters')
      .values([
        { key: 'ended-window', hits: 3, window_ends: at(-60_000) },
        { key: 'current-window', hits: 2, window_ends: at(30_000) },
      ])
      .execute();
    await db
      .insertInto('idempotency_keys')
      .values([
        {
          partner_id: ACME,
          key: 'expired-key',
          fingerprint: 'f',
          claim_token: crypto.randomUUID(),
          status_code: 201,
          response_body: '{}',
          content_type: 'application/json',
          locked_until: at(-2 * DAY),
          expires_at: at(-60_000),
        },
        {
          partner_id: ACME,
          key: 'living-key',
          fingerprint: 'f',
          claim_token: crypto.randomUUID(),
          status_code: 201,
          response_body: '{}',
          content_type: 'application/json',
          locked_until: at(-HOUR),
          expires_at: at(HOUR),
        },
      ])
      .execute();
    // an outbox row written `age` ago, and sent (or logged) then unless it failed
    const mail = (to_address: string, status: 'logged' | 'sent' | 'failed', text_body: string, age: number) => ({
      to_address,
      subject: 's',
      text_body,
      status,
      created_at: at(-age),
      sent_at: status === 'failed' ? null : at(-age),
    });
    await db
      .insertInto('mail_outbox')
      .values([
        mail('logged-old@portal.test', 'logged', 'Temporary password: Old-secret-1', 2 * DAY),
        mail('logged-fresh@portal.test', 'logged', 'Your code is 123456', HOUR),
        mail('sent-ancient@portal.test', 'sent', REDACTED_MAIL_BODY, 40 * DAY),
        mail('logged-ancient@portal.test', 'logged', 'Temporary password: Ancient-1', 31 * DAY),
        mail('failed-ancient@portal.test', 'failed', 'Temporary password: Failed-1', 40 * DAY),
      ])
      .execute();
    // the live event log: one event past its day, one fresh
    await db
      .insertInto('live_events')
      .values([
        { partner_id: ACME, payload: '{"table":"payments"}', created_at: at(-DAY - HOUR) },
        { partner_id: ACME, payload: '{"table":"payments"}', created_at: at(-HOUR) },
      ])
      .execute();
    // notifications: one past its 180 days, one recent (read or not, age decides)
    const notice = { partner_id: ACME, user_id: ada.id, topic: 'withdrawals', title: 'Withdrawal requested', body: 'b', link: '/balance', read_at: null };
    await db
      .insertInto('notifications')
      .values([
        { ...notice, title: 'old', created_at: at(-181 * DAY) },
        { ...notice, title: 'recent', created_at: at(-179 * DAY) },
      ])
      .execute();
    // report files: one past its expiry, one still downloadable
    const report = async (name: string, expiresIn: number) => {
      const id = crypto.randomUUID();
      const key = `reports/${ACME}/${id}.csv`;
      const file = await t.app.storage.create(key);
      await file.write(`${name}\r\n`);
      await file.commit();
      await db
        .insertInto('report_jobs')
        .values({
          partner_id: ACME,
          id,
          status: 'complete',
          requested_by_id: femi.id,
          requested_by_email: femi.email,
          data_source: 'payments',
          start_date: '2026-01-01',
          end_date: '2026-01-31',
          filters: '{}',
          fiat_wallet: 'all',
          row_count: 0,
          file_key: key,
          error: null,
          expires_at: at(expiresIn),
          queue_job_id: null,
          created_at: at(expiresIn - DAY),
          updated_at: at(expiresIn - DAY),
        })
        .execute();
      return { id, file: path.join(t.app.config.dataDir, key) };
    };
    return { expiredReport: await report('old', -HOUR), freshReport: await report('fresh', 20 * HOUR), sessions: [ended, revoked, living] };
  }

  it('removes what has expired, been used or been delivered long ago, and keeps what is fresh', async () => {
    const { expiredReport, freshReport, sessions } = await seedRows();
    expect(fs.existsSync(expiredReport.file)).toBe(true);

    const result = await runCleanup({ db: t.database.db, storage: t.app.storage, now: () => now, ...modulePorts() });
    expect(result).toEqual({
      reportFiles: 1,
      refreshTokens: 4,
      challenges: 1,
      resetCodes: 2,
      sessions: 2,
      signInCounters: 1,
      emailCodes: 2,
      rateLimitWindows: 1,
      mailBodiesRedacted: 3,
      mailsDeleted: 2,
      idempotencyKeys: 1,
      liveEvents: 1,
      notifications: 1,
    });
    expect((await t.database.db.selectFrom('notifications').select('title').execute()).map((r) => r.title)).toEqual(['recent']);

    const db = t.database.db;
    expect((await db.selectFrom('auth_challenges').select('session_hash').execute()).map((r) => r.session_hash)).toEqual(['fresh-challenge']);
    expect((await db.selectFrom('refresh_tokens').select('token_hash').execute()).map((r) => r.token_hash)).toEqual(['living-now']);
    // sessions that ended within the last day stay (and the living one); older ones go
    expect((await db.selectFrom('auth_sessions').select('id').execute()).map((r) => r.id).sort()).toEqual([...sessions].sort());
    expect((await db.selectFrom('sign_in_throttle').select('key').orderBy('key').execute()).map((r) => r.key)).toEqual(['locked-now', 'recent']);
    expect((await db.selectFrom('email_otps').select('code_hash').execute()).map((r) => r.code_hash)).toEqual(['live']);
    expect((await db.selectFrom('password_reset_codes').select('code_hash').execute()).map((r) => r.code_hash)).toEqual(['fresh']);
    expect((await db.selectFrom('rate_limit_counters').select('key').execute()).map((r) => r.key)).toEqual(['current-window']);
    expect((await db.selectFrom('idempotency_keys').select('key').execute()).map((r) => r.key)).toEqual(['living-key']);

    const outbox = await db.selectFrom('mail_outbox').select(['to_address', 'text_body', 'status']).orderBy('to_address').execute();
    expect(outbox).toEqual([
      // a failed mail is kept (it was never delivered) but its secret does not stay readable
      { to_address: 'failed-ancient@portal.test', text_body: REDACTED_MAIL_BODY, status: 'failed' },
      { to_address: 'logged-fresh@portal.test', text_body: 'Your code is 123456', status: 'logged' },
      { to_address: 'logged-old@portal.test', text_body: REDACTED_MAIL_BODY, status: 'logged' },
    ]);

    // the expired report's file is gone and the job lists as expired; the fresh one is untouched
    expect(fs.existsSync(expiredReport.file)).toBe(false);
    expect(fs.existsSync(freshReport.file)).toBe(true);
    const jobs = await db.selectFrom('report_jobs').select(['id', 'file_key']).execute();
    expect(jobs.find((j) => j.id === expiredReport.id)?.file_key).toBeNull();
    expect(jobs.find((j) => j.id === freshReport.id)?.file_key).toBeTruthy();

    // a second pass finds nothing more to do
    expect(await runCleanup({ db, storage: t.app.storage, now: () => now, ...modulePorts() })).toEqual({
      reportFiles: 0,
      refreshTokens: 0,
      challenges: 0,
      resetCodes: 0,
      sessions: 0,
      signInCounters: 0,
      emailCodes: 0,
      rateLimitWindows: 0,
      mailBodiesRedacted: 0,
      mailsDeleted: 0,
      idempotencyKeys: 0,
      liveEvents: 0,
      notifications: 0,
    });
  });

  it('is scheduled hourly on the job queue', async () => {
    const boss = t.app.boss!;
    await startCleanupJob({ boss, db: t.database.db, storage: t.app.storage, log: t.app.log, now: () => now, ...modulePorts() });
    const schedules = await boss.getSchedules();
    expect(schedules).toEqual([expect.objectContaining({ name: CLEANUP_QUEUE, cron: CLEANUP_CRON })]);
    expect(CLEANUP_CRON).toMatch(/^\d+ \* \* \* \*$/);
  });
});

describe.each(DATABASES)('the outbox on %s', (kind) => {
  let t: TestContext;
  let smtp: Sink;
  beforeAll(async () => {
    ({ t, smtp } = await setupOverSmtp(kind, { seed: false }));
  });
  afterAll(async () => {
    await t?.close();
  });

  const body = (to: string) => t.database.db.selectFrom('mail_outbox').select(['status', 'text_body']).where('to_address', '=', to).executeTakeFirstOrThrow();

  it("redacts a mail's body as soon as SMTP has taken it", async () => {
    const mailer = testMailer(t, smtp.url);
    await mailer.send({ to: 'jo@savanna.example', subject: 'Invitation', text: 'Temporary password: Sav-anna-2026!' });
    expect(smtp.received).toHaveLength(1);
    expect(mailText(smtp.received[0]!.raw)).toContain('Temporary password: Sav-anna-2026!');
    expect(await body('jo@savanna.example')).toEqual({ status: 'sent', text_body: REDACTED_MAIL_BODY });
  });

  it('keeps a logged mail readable without SMTP (until the cleanup redacts it)', async () => {
    const mailer = testMailer(t);
    await mailer.send({ to: 'dev@portal.test', subject: 'Reset', text: 'Your code is 654321' });
    expect(await body('dev@portal.test')).toEqual({ status: 'logged', text_body: 'Your code is 654321' });
  });
});
