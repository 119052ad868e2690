import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMAIL_OTP_MINUTES, OTP_MESSAGES } from '@portal/contract/otp';
import { createOtpRepository } from '../src/modules/otp/otp.repository.ts';
import { createOtpService } from '../src/modules/otp/otp.service.ts';
import { createRateLimitRepository } from '../src/db/rate-limit.repository.ts';
import { MAIL_UNAVAILABLE } from '../src/lib/mailer.ts';
import { DATABASES, setup, setupSignedInOverSmtp, signIn, type Session, type TestContext } from './harness.ts';
import { mailText, type Sink } from './smtp-sink.ts';

const ANY = { action: 'ip.add' as const, target: { ipAddress: '203.0.113.7' } };

describe.each(DATABASES)('e-mailed one-time codes on %s', (kind) => {
  let t: TestContext;
  let smtp: Sink;
  let s: Record<string, Session>;
  beforeAll(async () => {
    ({ t, s, smtp } = await setupSignedInOverSmtp(kind, ['admin@acme.test', 'treasury@acme.test', 'viewer@acme.test', 'admin@kora.test']));
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Asks for a code as `email` and reads it from the mail the SMTP server received. */
  async function codeFor(email: string) {
    const before = smtp.received.length;
    const res = await s[email]!.browser.put('/api/v1/user/otp', {}, { token: s[email]!.accessToken });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ sentTo: email, expiresInSeconds: EMAIL_OTP_MINUTES * 60 });
    await expect.poll(() => smtp.received.length).toBe(before + 1);
    const mail = smtp.received.at(-1)!;
    expect(mail.to).toEqual([email]);
    return /verification code is (\d{6})/.exec(mailText(mail.raw))![1]!;
  }
  /** A code sent by the service for ANY's change, read from the mail (the service here mails to the test's memory). */
  async function boundCodeFor(email: string) {
    t.clock.now += 11 * 60_000;
    await service().send(authOf(email), ANY);
    const text = t.mailer.sent.at(-1)!.text;
    expect(text).toContain('to allow the IP address in this test');
    return /verification code is (\d{6})/.exec(text)![1]!;
  }
  const verify = (email: string, otp: string) => s[email]!.browser.get(`/api/v1/user/otp/${otp}`, { token: s[email]!.accessToken });
  const other = (code: string, by = 1) => String((Number(code) + by) % 1_000_000).padStart(6, '0');
  const service = () =>
    createOtpService({
      repo: createOtpRepository(t.database.db),
      rateLimits: createRateLimitRepository(t.database.db),
      mailer: t.mailer,
      now: () => t.clock.now,
      checks: () => ({ 'ip.add': async (_auth, target) => ({ target, words: () => 'to allow the IP address in this test' }) }),
    });
  const authOf = (email: string) => ({
    userId: s[email]!.user.id,
    partnerId: s[email]!.user.partnerId,
    role: 'admin' as const,
    email,
    name: email,
    sessionId: '',
  });

  it('e-mails a six-digit code over SMTP to the signed-in user (every role), and says where it went', async () => {
    for (const email of ['admin@acme.test', 'treasury@acme.test', 'viewer@acme.test']) {
      const code = await codeFor(email);
      expect(code).toMatch(/^\d{6}$/);
      expect((await verify(email, code)).json()).toEqual({ valid: true });
    }
  });

  it('refuses a wrong code, a malformed one, and without sign-in', async () => {
    const code = await codeFor('admin@acme.test');
    const wrong = await verify('admin@acme.test', other(code));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'InvalidOtp', message: OTP_MESSAGES.invalid });
    expect((await verify('admin@acme.test', '12ab56')).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/user/otp/${code}` })).statusCode).toBe(401);
  });

  it('binds a code to its user: another user, of this partner or another, cannot use it', async () => {
    const code = await codeFor('admin@acme.test');
    for (const email of ['treasury@acme.test', 'admin@kora.test']) expect((await verify(email, code)).json()).toMatchObject({ code: 'InvalidOtp' });
    expect((await verify('admin@acme.test', code)).statusCode).toBe(200);
  });

  it('lets a code live ten minutes', async () => {
    const code = await codeFor('treasury@acme.test');
    t.clock.now += EMAIL_OTP_MINUTES * 60_000 + 1000;
    expect((await verify('treasury@acme.test', code)).json()).toMatchObject({ code: 'InvalidOtp' });
  });

  it('kills a code after five tries, parallel guesses included', async () => {
    const code = await codeFor('viewer@acme.test');
    const burst = await Promise.all(Array.from({ length: 12 }, (_, i) => verify('viewer@acme.test', other(code, i + 1))));
    expect(burst.every((r) => r.statusCode === 400)).toBe(true);
    expect((await verify('viewer@acme.test', code)).json()).toMatchObject({ code: 'InvalidOtp' });
  });

  it('confirms only the change it was sent for; a code asked for without a change confirms none', async () => {
    const unbound = await codeFor('admin@acme.test');
    await expect(service().authorise(authOf('admin@acme.test'), unbound, ANY, async () => 'done')).rejects.toMatchObject({ code: 'OtpForAnotherChange' });
    const code = await boundCodeFor('admin@acme.test');
    const other = { action: 'ip.add' as const, target: { ipAddress: '203.0.113.8' } };
    await expect(service().authorise(authOf('admin@acme.test'), code, other, async () => 'done')).rejects.toMatchObject({ code: 'OtpForAnotherChange' });
    await expect(service().authorise(authOf('admin@acme.test'), code, { action: 'ip.delete', target: ANY.target }, async () => 'done')).rejects.toMatchObject({
      code: 'OtpForAnotherChange',
    });
    expect(await service().authorise(authOf('admin@acme.test'), code, ANY, async () => 'done')).toBe('done');
  });

  it('is used up by the change it authorises, once, even when two changes race for it', async () => {
    const code = await boundCodeFor('admin@acme.test');
    const changes: string[] = [];
    const results = await Promise.allSettled(
      [1, 2].map((n) => service().authorise(authOf('admin@acme.test'), code, ANY, async () => void changes.push(`change ${n}`))),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(changes).toHaveLength(1);
    await expect(service().authorise(authOf('admin@acme.test'), code, ANY, async () => undefined)).rejects.toMatchObject({ code: 'InvalidOtp' });
  });

  it('rolls the code back with a change that fails', async () => {
    const code = await boundCodeFor('admin@kora.test');
    await expect(service().authorise(authOf('admin@kora.test'), code, ANY, async () => Promise.reject(new Error('the change failed')))).rejects.toThrow(
      'the change failed',
    );
    expect(await service().authorise(authOf('admin@kora.test'), code, ANY, async () => 'done')).toBe('done');
  });

  it('limits how many codes a user may ask for', async () => {
    const email = 'treasury@acme.test';
    t.clock.now += 11 * 60_000;
    const asks = [];
    for (let i = 0; i < 7; i++) asks.push((await s[email]!.browser.put('/api/v1/user/otp', {}, { token: s[email]!.accessToken })).statusCode);
    expect(asks).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const limited = await s[email]!.browser.put('/api/v1/user/otp', {}, { token: s[email]!.accessToken });
    expect(limited.json()).toMatchObject({ code: 'OtpRateLimited', message: OTP_MESSAGES.tooManySends });
  });
});

describe.each(DATABASES)('e-mailed codes when the mail server is down, on %s', (kind) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await setup(kind, { config: { LOGIN_RATE_LIMIT: '10000' }, smtpUrl: 'smtp://127.0.0.1:1' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 503 MailUnavailable, not 500, and keeps the mail in the outbox as failed', async () => {
    const s = await signIn(t, 'admin@acme.test');
    const res = await s.browser.put('/api/v1/user/otp', {}, { token: s.accessToken });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'MailUnavailable', message: MAIL_UNAVAILABLE });
    const row = await t.database.db.selectFrom('mail_outbox').select('status').where('to_address', '=', 'admin@acme.test').executeTakeFirstOrThrow();
    expect(row.status).toBe('failed');
  });

  it('keeps an invited member when the invitation cannot be mailed, says so, and the resend answers 503 until it can', async () => {
    const s = await signIn(t, 'admin@acme.test');
    const res = await s.browser.post('/api/v1/users/add', { name: 'Amani Odhiambo', email: 'amani@acme.test', role: 'view' }, { token: s.accessToken });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ user: { email: 'amani@acme.test', status: 'invited' }, mailSent: false });
    const team = (await s.browser.get('/api/v1/partner/users', { token: s.accessToken })).json<{ users: { email: string; status: string }[] }>().users;
    expect(team).toContainEqual(expect.objectContaining({ email: 'amani@acme.test', status: 'invited' }));
    const mail = await t.database.db.selectFrom('mail_outbox').select('status').where('to_address', '=', 'amani@acme.test').executeTakeFirstOrThrow();
    expect(mail.status).toBe('failed');
    const id = res.json<{ user: { id: string } }>().user.id;
    const resend = await s.browser.post('/api/v1/users/resend-invite', { userId: id }, { token: s.accessToken });
    expect(resend.statusCode).toBe(503);
    expect(resend.json()).toMatchObject({ code: 'MailUnavailable', message: MAIL_UNAVAILABLE });
  });
});
