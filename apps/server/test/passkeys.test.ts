import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSKEY_MESSAGES, PASSKEYS_PER_USER, type Passkey, type PasskeyOptionsResponse } from '@portal/contract/passkeys';
import { OTP_PURPOSE_MESSAGES } from '@portal/contract/otp';
import type { SecurityEvent } from '@portal/contract/security';
import { DEMO_PARTNERS, DEMO_USERS } from '../src/db/seed/demo.ts';
import { sha256 } from '../src/lib/tokens.ts';
import { currentStep, totpCode, TOTP_PERIOD } from '../src/lib/totp.ts';
import { DATABASES, browser, setup, signIn, type Browser, type TestContext } from './harness.ts';
import { softAuthenticator, type SoftAuthenticator } from './passkey-authenticator.ts';

const ORIGIN = 'http://localhost:8080';
const RP_ID = 'localhost';
const ACME = DEMO_PARTNERS.acme.id;
const user = (email: string) => DEMO_USERS.find((u) => u.email === email)!;
const CHROME = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

type Creation = { challenge: string; rp: { id: string; name: string }; user: { id: string; name: string }; excludeCredentials: { id: string }[] };

describe.each(DATABASES)('passkeys on %s', (kind) => {
  let t: TestContext;
  const s: Record<string, Awaited<ReturnType<typeof signIn>>> = {};
  const as = (email: string) => s[email]!.browser;
  const opts = (email: string) => ({ token: s[email]!.accessToken, headers: { 'user-agent': CHROME } });

  beforeAll(async () => {
    t = await setup(kind, { config: { LOGIN_RATE_LIMIT: '10000', PUBLIC_URL: ORIGIN } });
    for (const email of ['admin@acme.test', 'treasury@acme.test', 'viewer@acme.test', 'admin2@acme.test', 'admin@kora.test']) s[email] = await signIn(t, email);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Asks for the e-mailed code of `purpose` and reads it from the mail. */
  async function codeFor(email: string, purpose: unknown) {
    // past the send limit's window, so that a test may ask for as many codes as it needs
    t.clock.now += 11 * 60_000;
    const before = t.mailer.sent.length;
    const res = await as(email).put('/api/v1/user/otp', purpose, opts(email));
    expect(res.statusCode, res.body).toBe(200);
    const mail = t.mailer.sent.slice(before).find((m) => /verification code is \d{6}/.test(m.text));
    return /verification code is (\d{6})/.exec(mail!.text)![1]!;
  }

  async function addOptions(email: string) {
    const res = await as(email).post('/api/v1/me/passkeys/options', {}, opts(email));
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<PasskeyOptionsResponse>();
    return { ceremony: body.ceremony, options: body.options as unknown as Creation };
  }

  /** Adds a passkey made by `key` (a new software authenticator by default) for this user, named `name`. */
  async function add(email: string, name: string, key: SoftAuthenticator = softAuthenticator({ origin: ORIGIN, rpId: RP_ID })) {
    // the code first: asking for it moves the test's clock past the send limit's window (and a ceremony lasts minutes)
    const otp = await codeFor(email, { action: 'passkey.add', target: { name } });
    const { ceremony, options } = await addOptions(email);
    const res = await as(email).post('/api/v1/me/passkeys', { ceremony, name, otp, credential: key.create(options) }, opts(email));
    return { res, key };
  }

  async function signInWith(key: SoftAuthenticator, who: Browser = browser(t.app), change?: (answer: ReturnType<SoftAuthenticator['get']>) => void) {
    const optionsRes = await who.post('/api/v1/users/passkey-options', {});
    expect(optionsRes.statusCode, optionsRes.body).toBe(200);
    const { ceremony, options } = optionsRes.json<PasskeyOptionsResponse>();
    const credential = key.get(options as unknown as { challenge: string });
    change?.(credential);
    return { res: await who.post('/api/v1/users/passkey-sign-in', { ceremony, credential }, { headers: { 'user-agent': CHROME } }), ceremony, credential, who };
  }

  const list = async (email: string) => {
    const res = await as(email).get('/api/v1/me/passkeys', opts(email));
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ passkeys: Passkey[] }>().passkeys;
  };
  const history = async (email: string, query: string) =>
    (await as(email).get(`/api/v1/security-history?${query}`, opts(email))).json<{ items: SecurityEvent[] }>().items;

  it('adds a passkey with the e-mailed code: options for this portal and user, then listed with its name and browser', async () => {
    const { ceremony, options } = await addOptions('treasury@acme.test');
    expect(options.rp).toEqual({ id: RP_ID, name: 'Partner Dashboard' });
    expect(options.user.name).toBe('treasury@acme.test');
    expect(ceremony).toMatch(/^[0-9a-f-]{36}$/);

    const { res } = await add('treasury@acme.test', 'MacBook');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Passkey>()).toMatchObject({ name: 'MacBook', lastUsedAt: null, browser: 'Chrome 131 on macOS', disabled: false });
    const listed = await list('treasury@acme.test');
    expect(listed.map((p) => p.name)).toEqual(['MacBook']);
    // the mail said what the code is for, and the history has it
    expect(t.mailer.sent.at(-1)!.text).toContain('to add the passkey “MacBook” to your account');
    const [event] = await history('treasury@acme.test', 'kind=two-step&limit=1');
    expect(event).toMatchObject({ action: 'passkey.added', target: 'MacBook', kind: 'two-step' });
  });

  it('refuses an answer for another origin, another domain, without user verification, to a used ceremony, or with a code for another name', async () => {
    const email = 'viewer@acme.test';
    for (const [label, key] of [
      ['origin', softAuthenticator({ origin: 'https://evil.test', rpId: RP_ID })],
      ['rp id', softAuthenticator({ origin: ORIGIN, rpId: 'evil.test' })],
    ] as const) {
      const { res } = await add(email, `wrong ${label}`, key);
      expect(res.statusCode, label).toBe(400);
      expect(res.json(), label).toMatchObject({ code: 'PasskeyRefused', message: PASSKEY_MESSAGES.notAccepted });
    }
    const unverified = softAuthenticator({ origin: ORIGIN, rpId: RP_ID });
    unverified.state.userVerified = false;
    expect((await add(email, 'no verification', unverified)).res.statusCode).toBe(400);

    // one ceremony, one answer: a code sent for another name is refused, and the ceremony is gone with it
    const otherName = await codeFor(email, { action: 'passkey.add', target: { name: 'Other' } });
    const { ceremony, options } = await addOptions(email);
    const key = softAuthenticator({ origin: ORIGIN, rpId: RP_ID });
    const answer = key.create(options);
    const wrongCode = await as(email).post('/api/v1/me/passkeys', { ceremony, name: 'Phone', otp: otherName, credential: answer }, opts(email));
    expect(wrongCode.json()).toMatchObject({ code: 'OtpForAnotherChange', message: OTP_PURPOSE_MESSAGES.otherChange });
    const otp = await codeFor(email, { action: 'passkey.add', target: { name: 'Phone' } });
    const again = await as(email).post('/api/v1/me/passkeys', { ceremony, name: 'Phone', otp, credential: answer }, opts(email));
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ code: 'PasskeyExpired', message: PASSKEY_MESSAGES.expired });
    expect(await list(email)).toEqual([]);
  });

  it('signs in with a passkey alone, both factors at once: a session, the use recorded, the history says how', async () => {
    const { key } = await add('admin2@acme.test', 'YubiKey');
    const { res, who } = await signInWith(key);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ accessToken: string; user: { email: string; partnerId: string } }>();
    expect(body.user).toMatchObject({ email: 'admin2@acme.test', partnerId: ACME });
    // the session works (and the refresh cookie came with it)
    expect((await who.get('/api/v1/me/passkeys', { token: body.accessToken })).statusCode).toBe(200);
    expect([...who.jar.keys()]).toContain('portal_refresh');
    const [passkey] = await list('admin2@acme.test');
    expect(passkey!.lastUsedAt).not.toBeNull();
    const [event] = await history('admin2@acme.test', `person=${user('admin2@acme.test').id}&kind=sign-in&limit=1`);
    expect(event).toMatchObject({ action: 'login.succeeded', details: { method: 'passkey' }, browser: 'Chrome 131 on macOS' });
  });

  it('refuses a replayed answer, an unknown passkey, another user’s handle, and a forged signature (which disables nothing)', async () => {
    const { key } = await add('admin@acme.test', 'Laptop');
    const first = await signInWith(key);
    expect(first.res.statusCode).toBe(200);
    // the same answer again: its ceremony is used up
    const replay = await browser(t.app).post('/api/v1/users/passkey-sign-in', { ceremony: first.ceremony, credential: first.credential });
    expect(replay.json()).toMatchObject({ code: 'PasskeyExpired' });

    const stranger = softAuthenticator({ origin: ORIGIN, rpId: RP_ID });
    const unknown = await signInWith(stranger);
    expect(unknown.res.statusCode).toBe(401);
    expect(unknown.res.json()).toMatchObject({ code: 'PasskeyUnknown', message: PASSKEY_MESSAGES.unknown });

    const otherHandle = await signInWith(key, undefined, (a) => {
      a.response.userHandle = Buffer.from(user('admin@kora.test').id.replace(/-/g, ''), 'hex').toString('base64url');
    });
    expect(otherHandle.res.json()).toMatchObject({ code: 'PasskeyRefused' });

    // an unsigned answer that says an old counter: refused, and the passkey stays enabled
    key.state.counter = 0;
    const forged = await signInWith(key, undefined, (a) => {
      a.response.signature = Buffer.alloc(70, 1).toString('base64url');
    });
    expect(forged.res.json()).toMatchObject({ code: 'PasskeyRefused' });
    expect((await list('admin@acme.test')).find((p) => p.name === 'Laptop')!.disabled).toBe(false);
  });

  it('disables a passkey whose counter goes back (a copied key), and says so in the owner’s history', async () => {
    const email = 'admin@kora.test';
    const { key } = await add(email, 'Security key');
    key.state.counter = 10;
    expect((await signInWith(key)).res.statusCode).toBe(200);
    key.state.counter = 4;
    const copied = await signInWith(key);
    expect(copied.res.statusCode).toBe(401);
    expect(copied.res.json()).toMatchObject({ code: 'PasskeyCloned', message: PASSKEY_MESSAGES.cloned });
    // disabled for good: even an answer ahead of the counter is refused now
    key.state.counter = 100;
    expect((await signInWith(key)).res.json()).toMatchObject({ code: 'PasskeyCloned' });
    expect((await list(email))[0]).toMatchObject({ name: 'Security key', disabled: true });
    const [event] = await history(email, `person=${user(email).id}&kind=two-step&limit=1`);
    expect(event).toMatchObject({ action: 'passkey.disabled', target: 'Security key' });
  });

  it('of two answers with the same counter sent at once, one signs in', async () => {
    const email = 'treasury@acme.test';
    const key = (await add(email, 'Race')).key;
    const a = await browser(t.app).post('/api/v1/users/passkey-options', {});
    const b = await browser(t.app).post('/api/v1/users/passkey-options', {});
    const answers = [a, b].map((r) => {
      const { ceremony, options } = r.json<PasskeyOptionsResponse>();
      key.state.counter = 41; // both answers say 42
      return { ceremony, credential: key.get(options as unknown as { challenge: string }) };
    });
    const results = await Promise.all(answers.map((answer) => browser(t.app).post('/api/v1/users/passkey-sign-in', answer)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 401]);
  });

  it('renames and removes only one’s own passkeys; removing asks for the authenticator’s code or a recovery code', async () => {
    const email = 'admin@acme.test';
    const { res } = await add(email, 'Old name');
    const { id } = res.json<Passkey>();
    // another member of the partner, and another partner's admin, find none of it
    for (const other of ['admin2@acme.test', 'admin@kora.test']) {
      expect((await as(other).put(`/api/v1/me/passkeys/${id}`, { name: 'Mine now' }, opts(other))).statusCode, other).toBe(404);
      const code = totpCode(user(other).totpSecret!, currentStep(t.clock.now));
      expect((await as(other).delete(`/api/v1/me/passkeys/${id}`, { ...opts(other), payload: { code } })).statusCode, other).toBe(404);
      expect(
        (await list(other)).some((p) => p.id === id),
        other,
      ).toBe(false);
    }
    // a name PostgreSQL cannot store is refused as any bad name is, for this passkey and for one that does not exist
    for (const target of [id, crypto.randomUUID()]) {
      for (const name of ['Work\u0000laptop', 'Work\u0007', 'Key \ud800']) {
        const bad = await as(email).put(`/api/v1/me/passkeys/${target}`, { name }, opts(email));
        expect(bad.statusCode, bad.body).toBe(400);
        expect(bad.json<{ code: string }>().code).toBe('ValidationFailed');
      }
    }
    const renamed = await as(email).put(`/api/v1/me/passkeys/${id}`, { name: '  Work laptop ' }, opts(email));
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await list(email)).find((p) => p.id === id)!.name).toBe('Work laptop');

    const wrong = await as(email).delete(`/api/v1/me/passkeys/${id}`, { ...opts(email), payload: { code: '000000' } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'InvalidOtp' });
    t.clock.now += TOTP_PERIOD * 1000;
    const code = totpCode(user(email).totpSecret!, currentStep(t.clock.now));
    const removed = await as(email).delete(`/api/v1/me/passkeys/${id}`, { ...opts(email), payload: { code } });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await list(email)).some((p) => p.id === id)).toBe(false);
    // the same code a second time is refused (an authenticator code is used once)
    const second = (await add(email, 'Second')).res.json<Passkey>();
    expect((await as(email).delete(`/api/v1/me/passkeys/${second.id}`, { ...opts(email), payload: { code } })).statusCode).toBe(400);
    // a recovery code does it, once
    await t.database.db
      .insertInto('recovery_codes')
      .values({ partner_id: ACME, user_id: user(email).id, code_hash: sha256('abcde-23456') })
      .execute();
    const recovered = await as(email).delete(`/api/v1/me/passkeys/${second.id}`, { ...opts(email), payload: { code: 'ABCDE-23456' } });
    expect(recovered.statusCode, recovered.body).toBe(200);
    const actions = (await history(email, `person=${user(email).id}&kind=two-step&limit=4`)).map((e) => e.action);
    expect(actions).toEqual(['passkey.removed', 'mfa.recovery_code_used', 'passkey.added', 'passkey.removed']);
  });

  it('keeps at most the limit of passkeys per person: no options, no code, no add past it', async () => {
    const email = 'viewer@acme.test';
    for (let i = (await list(email)).length; i < PASSKEYS_PER_USER; i++) expect((await add(email, `Key ${i}`)).res.statusCode).toBe(200);
    const options = await as(email).post('/api/v1/me/passkeys/options', {}, opts(email));
    expect(options.statusCode).toBe(409);
    expect(options.json()).toMatchObject({ code: 'TooManyPasskeys', message: PASSKEY_MESSAGES.tooMany });
    t.clock.now += 11 * 60_000;
    const before = t.mailer.sent.length;
    const code = await as(email).put('/api/v1/user/otp', { action: 'passkey.add', target: { name: 'One more' } }, opts(email));
    expect(code.json()).toMatchObject({ code: 'TooManyPasskeys' });
    expect(t.mailer.sent.length).toBe(before);
  });
});
