import crypto from 'node:crypto';
import { SignJWT, base64url, decodeJwt } from 'jose';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '@portal/contract/auth';
import { sessionEndMessage, type SessionEndReason } from '@portal/contract/live';
import { DEMO_PARTNERS, DEMO_INVITATION_TOKEN, DEMO_PASSWORD, DEMO_USERS } from '../src/db/seed/demo.ts';
import { sha256, signAccessToken } from '../src/lib/tokens.ts';
import { TOTP_PERIOD, currentStep, totpCode } from '../src/lib/totp.ts';
import { decrypt, keyRing } from '../src/lib/keys.ts';
import { throttleKey } from '../src/modules/auth/sign-in.service.ts';
import { REFRESH_REUSE_SECONDS } from '../src/modules/auth/sessions.service.ts';
import { DATABASES, browser, holdDatabase, setup, signIn, testConfig, type TestContext } from './harness.ts';

const secretOf = (email: string) => DEMO_USERS.find((u) => u.email === email)!.totpSecret!;

describe.each(DATABASES)('sign-in and sessions on %s', (kind) => {
  let t: TestContext;
  /** POST users/forgot-password, then the code written and its mail sent (both come after the answer) */
  const forgot = async (body: { email: string }) => {
    const res = await browser(t.app).post('/api/v1/users/forgot-password', body);
    await t.app.services.auth.passwordReset.settled();
    await t.app.mailRelay.deliver();
    return res;
  };
  beforeAll(async () => {
    t = await setup(kind, { config: { LOGIN_RATE_LIMIT: '10000' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const code = (email: string, offsetSteps = 0) => totpCode(secretOf(email), currentStep(t.clock.now) + offsetSteps);
  const nextStep = () => (t.clock.now += TOTP_PERIOD * 1000);
  const auditActions = async (email: string) =>
    (await t.database.db.selectFrom('audit_events').select('action').where('actor', '=', email).execute()).map((r) => r.action);

  const profileWith = (token: string) => t.app.inject({ method: 'GET', url: '/api/v1/partner/profile', headers: { authorization: `Bearer ${token}` } });
  const sessionOf = (accessToken: string) => (JSON.parse(new TextDecoder().decode(base64url.decode(accessToken.split('.')[1]!))) as { sid: string }).sid;
  /** The 401 of an ended session: SessionEnded, the reason and its words. */
  const ended = (reason: SessionEndReason, partner?: string) => ({ code: 'SessionEnded', reason, message: sessionEndMessage(reason, partner) });
  const endedReason = async (sid: string) =>
    (await t.database.db.selectFrom('auth_sessions').select('ended_reason').where('id', '=', sid).executeTakeFirstOrThrow()).ended_reason;

  async function startChallenge(email: string, as = browser(t.app)) {
    nextStep();
    const res = await as.post('/api/v1/users/login', { email, password: DEMO_PASSWORD });
    expect(res.statusCode).toBe(200);
    return { as, session: res.json<{ session: string }>().session };
  }

  it('refuses a wrong password and an unknown e-mail with the same 401 InvalidLogin', async () => {
    const a = await browser(t.app).post('/api/v1/users/login', { email: 'viewer@acme.test', password: 'wrong-password-1' });
    const b = await browser(t.app).post('/api/v1/users/login', { email: 'nobody@nowhere.test', password: 'wrong-password-1' });
    for (const res of [a, b]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'InvalidLogin', message: AUTH_MESSAGES.invalidLogin });
    }
  });

  it('answers SOFTWARE_TOKEN_MFA for an enrolled user, without the secret', async () => {
    const res = await browser(t.app).post('/api/v1/users/login', { email: 'Admin@Acme.test', password: DEMO_PASSWORD });
    expect(res.statusCode).toBe(200);
    const body = res.json<Record<string, unknown>>();
    expect(body).toMatchObject({ challengeName: 'SOFTWARE_TOKEN_MFA', userName: 'admin@acme.test' });
    expect(body.session).toEqual(expect.any(String));
    expect(body.mfaSecret).toBeUndefined();
  });

  it('signs in with a code: the user, a 15-minute token and the refresh token in an httpOnly strict cookie', async () => {
    const { as, session } = await startChallenge('admin@acme.test');
    const res = await as.post('/api/v1/users/challenge-response', {
      session,
      challengeName: 'SOFTWARE_TOKEN_MFA',
      username: 'admin@acme.test',
      userCode: code('admin@acme.test'),
    });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ user: Record<string, unknown>; accessToken: string; expiresIn: number }>();
    expect(body.user).toMatchObject({ email: 'admin@acme.test', role: 'admin', partnerId: DEMO_PARTNERS.acme.id, status: 'active' });
    expect(body.expiresIn).toBe(900);
    const claims = JSON.parse(new TextDecoder().decode(base64url.decode(body.accessToken.split('.')[1]!))) as Record<string, unknown>;
    expect(claims).toMatchObject({ sub: body.user.id, pid: DEMO_PARTNERS.acme.id, role: 'admin' });
    expect((claims.exp as number) - (claims.iat as number)).toBe(900);
    const cookie = res.cookies.find((c) => c.name === 'portal_refresh')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/v1/users' });
    expect(await auditActions('admin@acme.test')).toContain('login.succeeded');
  });

  const wrongCode = (email: string) => String((Number(code(email)) + 1) % 1_000_000).padStart(6, '0');
  const respond = (as: ReturnType<typeof browser>, session: string, email: string, userCode: string) =>
    as.post('/api/v1/users/challenge-response', { session, challengeName: 'SOFTWARE_TOKEN_MFA', username: email, userCode });
  /** Lets any lock run out, so that a test starts clean whatever the one before it left. */
  const afterLock = () => (t.clock.now += 16 * 60_000);

  it('refuses a wrong code with the incorrect-code message, and the fifth wrong code locks the account', async () => {
    afterLock();
    const email = 'admin2@acme.test';
    const { as, session } = await startChallenge(email);
    for (let i = 1; i <= 4; i++) {
      const res = await respond(as, session, email, wrongCode(email));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'InvalidOtp', message: 'The code you entered is incorrect. Try again.' });
    }
    const fifth = await respond(as, session, email, wrongCode(email));
    expect(fifth.statusCode).toBe(423);
    expect(fifth.json()).toMatchObject({ code: 'AccountLocked', message: AUTH_MESSAGES.accountLocked });
    expect((await respond(as, session, email, code(email))).statusCode).not.toBe(200);
    afterLock();
  });

  it('ends a challenge after five codes even when the account is not locked by them', async () => {
    const email = 'admin2@acme.test';
    const { as, session } = await startChallenge(email);
    await t.database.db.updateTable('auth_challenges').set({ attempts: 5 }).execute();
    const res = await respond(as, session, email, code(email));
    expect(res.json()).toMatchObject({ code: 'ChallengeExpired', message: AUTH_MESSAGES.tooManyOtp });
  });

  it('counts parallel wrong codes on one challenge one by one: the right code after them is refused', async () => {
    afterLock();
    const email = 'admin2@acme.test';
    const { as, session } = await startChallenge(email);
    const burst = await Promise.all(Array.from({ length: 20 }, () => respond(as, session, email, wrongCode(email))));
    // five attempts pass the challenge's count and the user's; the one that is fifth on the user's count locks, and
    // the one that is fifth on the challenge's ends it (they may be different requests): three or four 'The code you entered is incorrect. Try again.'
    const invalid = burst.filter((r) => r.statusCode === 400).length;
    expect(invalid).toBeGreaterThanOrEqual(3);
    expect(invalid).toBeLessThanOrEqual(4);
    expect(burst.filter((r) => r.statusCode === 423).length).toBeGreaterThanOrEqual(1);
    expect(burst.every((r) => r.statusCode !== 200)).toBe(true);
    const failures = await t.database.db.selectFrom('sign_in_throttle').select('failures').where('key', '=', throttleKey(email)).executeTakeFirstOrThrow();
    expect(failures.failures).toBe(5);
    expect((await respond(as, session, email, code(email))).statusCode).not.toBe(200);
    afterLock();
  });

  it('counts wrong codes per user across challenges: four wrong codes on each of six challenges lock the account', async () => {
    afterLock();
    const email = 'admin2@acme.test';
    const answers: number[] = [];
    for (let c = 0; c < 6; c++) {
      const login = await browser(t.app).post('/api/v1/users/login', { email, password: DEMO_PASSWORD });
      if (login.statusCode !== 200) {
        answers.push(login.statusCode);
        continue;
      }
      const session = login.json<{ session: string }>().session;
      for (let i = 0; i < 4; i++) answers.push((await respond(browser(t.app), session, email, wrongCode(email))).statusCode);
    }
    expect(answers.filter((s) => s === 400)).toHaveLength(4);
    expect(answers).toContain(423);
    expect((await browser(t.app).post('/api/v1/users/login', { email, password: DEMO_PASSWORD })).statusCode).toBe(423);
    afterLock();
  });

  it('counts parallel wrong passwords one by one: eight at once, then the right password, is locked', async () => {
    afterLock();
    const email = 'admin@kora.test';
    const burst = await Promise.all(Array.from({ length: 8 }, (_, i) => browser(t.app).post('/api/v1/users/login', { email, password: `wrong-guess-${i}` })));
    expect(burst.filter((r) => r.statusCode === 401)).toHaveLength(4);
    expect(burst.filter((r) => r.statusCode === 423)).toHaveLength(4);
    const right = await browser(t.app).post('/api/v1/users/login', { email, password: DEMO_PASSWORD });
    expect(right.statusCode).toBe(423);
    // three more bursts during the lock never get a password checked
    for (let b = 0; b < 3; b++) {
      const more = await Promise.all(Array.from({ length: 7 }, () => browser(t.app).post('/api/v1/users/login', { email, password: DEMO_PASSWORD })));
      expect(more.every((r) => r.statusCode === 423)).toBe(true);
    }
    afterLock();
    expect((await browser(t.app).post('/api/v1/users/login', { email, password: DEMO_PASSWORD })).statusCode).toBe(200);
  });

  it('answers an unknown e-mail exactly as a known one, locked included', async () => {
    afterLock();
    const known = 'admin@lean.test';
    const unknown = 'nobody-here@lean.test';
    for (let i = 1; i <= 5; i++) {
      const [a, b] = await Promise.all([known, unknown].map((email) => browser(t.app).post('/api/v1/users/login', { email, password: `wrong-${i}` })));
      expect(a!.statusCode).toBe(b!.statusCode);
      expect(a!.json<{ code: string; message: string }>()).toMatchObject({
        code: b!.json<{ code: string }>().code,
        message: b!.json<{ message: string }>().message,
      });
    }
    const [a, b] = await Promise.all([known, unknown].map((email) => browser(t.app).post('/api/v1/users/login', { email, password: DEMO_PASSWORD })));
    expect(a!.statusCode).toBe(423);
    expect(b!.statusCode).toBe(423);
    expect(a!.json()).toMatchObject({ code: 'AccountLocked', message: b!.json<{ message: string }>().message });
    afterLock();
  });

  it('clears the count after a good sign-in: four wrong, a sign-in, four wrong again is not locked', async () => {
    afterLock();
    const email = 'admin@lean.test';
    const wrong = () => browser(t.app).post('/api/v1/users/login', { email, password: 'not-the-password' });
    for (let i = 0; i < 4; i++) expect((await wrong()).statusCode).toBe(401);
    await signIn(t, email);
    for (let i = 0; i < 4; i++) expect((await wrong()).statusCode).toBe(401);
    expect((await wrong()).statusCode).toBe(423);
    afterLock();
  });

  it('refuses a code that is not six digits with the spec message', async () => {
    const { as, session } = await startChallenge('admin2@acme.test');
    const res = await as.post('/api/v1/users/challenge-response', {
      session,
      challengeName: 'SOFTWARE_TOKEN_MFA',
      username: 'admin2@acme.test',
      userCode: '12ab',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toContain('The code you entered is incorrect. Try again.');
  });

  it('accepts a code once only: the same code in a second sign-in is refused', async () => {
    const first = await startChallenge('treasury@acme.test');
    const used = code('treasury@acme.test');
    const ok = await first.as.post('/api/v1/users/challenge-response', {
      session: first.session,
      challengeName: 'SOFTWARE_TOKEN_MFA',
      username: 'treasury@acme.test',
      userCode: used,
    });
    expect(ok.statusCode).toBe(200);
    const again = await browser(t.app).post('/api/v1/users/login', { email: 'treasury@acme.test', password: DEMO_PASSWORD });
    const replay = await browser(t.app).post('/api/v1/users/challenge-response', {
      session: again.json<{ session: string }>().session,
      challengeName: 'SOFTWARE_TOKEN_MFA',
      username: 'treasury@acme.test',
      userCode: used,
    });
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({ code: 'InvalidOtp' });
  });

  it('allows one step of clock drift either side, not two', async () => {
    for (const [offset, expected] of [
      [-1, 200],
      [1, 200],
      [-2, 400],
      [2, 400],
    ] as const) {
      nextStep();
      nextStep();
      nextStep();
      const { as, session } = await startChallenge('viewer@acme.test');
      const res = await as.post('/api/v1/users/challenge-response', {
        session,
        challengeName: 'SOFTWARE_TOKEN_MFA',
        username: 'viewer@acme.test',
        userCode: code('viewer@acme.test', offset),
      });
      expect(res.statusCode, `offset ${offset}`).toBe(expected);
    }
  });

  it('expires a challenge after 3 minutes', async () => {
    const { as, session } = await startChallenge('admin@lean.test');
    t.clock.now += 181_000;
    const res = await as.post('/api/v1/users/challenge-response', {
      session,
      challengeName: 'SOFTWARE_TOKEN_MFA',
      username: 'admin@lean.test',
      userCode: code('admin@lean.test'),
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'ChallengeExpired', message: AUTH_MESSAGES.challengeExpired });
  });

  it('does not let a challenge of one user serve another', async () => {
    const { as, session } = await startChallenge('admin@lean.test');
    const res = await as.post('/api/v1/users/challenge-response', {
      session,
      challengeName: 'SOFTWARE_TOKEN_MFA',
      username: 'admin@acme.test',
      userCode: code('admin@acme.test'),
    });
    expect(res.json()).toMatchObject({ code: 'ChallengeExpired' });
  });

  it('sends an inactive user to account-inactive with the catalogue text', async () => {
    const res = await browser(t.app).post('/api/v1/users/login', { email: 'inactive@acme.test', password: DEMO_PASSWORD });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'AccountInactive', message: AUTH_MESSAGES.accountInactive });
  });

  it('takes an invited user through a first password (the link’s token), authenticator setup and recovery codes', async () => {
    const email = 'invited@acme.test';
    // an invitation is no account: nothing signs in before its link is used
    const login = await browser(t.app).post('/api/v1/users/login', { email, password: DEMO_INVITATION_TOKEN });
    expect(login.json()).toMatchObject({ code: 'InvalidLogin' });

    const weak: [string, string][] = [
      ['Short-1a', 'Use at least 12 characters.'],
      ['invited-Secret-2026', 'The password must not contain your e-mail address.'],
      ['password1234', 'This password is too common. Choose one that is harder to guess.'],
      // on the common-password list once the digits and the symbol around it are taken off
      ['Password123!', 'This password is too common. Choose one that is harder to guess.'],
      ['Sunshine-2026!', 'This password is too common. Choose one that is harder to guess.'],
      ['alllowercaseletters', 'Mix at least three of: lower-case letters, capitals, digits and symbols.'],
    ];
    for (const [password, message] of weak) {
      const res = await browser(t.app).put('/api/v1/users/password', { email, password, tempPassword: DEMO_INVITATION_TOKEN });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'InvalidPassword', message });
    }
    const wrongTemp = await browser(t.app).put('/api/v1/users/password', { email, password: 'Baobab-Sunrise-2026', tempPassword: 'not-it' });
    expect(wrongTemp.json()).toMatchObject({ code: 'InvitationInvalid' });
    const set = await browser(t.app).put('/api/v1/users/password', { email, password: 'Baobab-Sunrise-2026', tempPassword: DEMO_INVITATION_TOKEN });
    expect(set.statusCode).toBe(200);
    // once only
    const twice = await browser(t.app).put('/api/v1/users/password', { email, password: 'Baobab-Sunrise-2027', tempPassword: DEMO_INVITATION_TOKEN });
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toMatchObject({ code: 'InvitationInvalid' });

    const again = await browser(t.app).post('/api/v1/users/login', { email, password: 'Baobab-Sunrise-2026' });
    const setup = again.json<{ challengeName: string; session: string; mfaSecret: string; otpauthUri: string }>();
    expect(setup.challengeName).toBe('MFA_SETUP');
    expect(setup.mfaSecret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.otpauthUri).toContain(`secret=${setup.mfaSecret}`);
    const badSetup = await browser(t.app).post('/api/v1/users/verify-token', {
      session: setup.session,
      username: email,
      userCode: '000000' === totpCode(setup.mfaSecret, currentStep(t.clock.now)) ? '111111' : '000000',
    });
    expect(badSetup.json()).toMatchObject({ code: 'InvalidOtp' });
    const verified = await browser(t.app).post('/api/v1/users/verify-token', {
      session: setup.session,
      username: email,
      userCode: totpCode(setup.mfaSecret, currentStep(t.clock.now)),
    });
    expect(verified.statusCode).toBe(200);
    const { recoveryCodes, user } = verified.json<{ recoveryCodes: string[]; user: { status: string } }>();
    expect(user.status).toBe('active');
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);

    // the secret is stored encrypted, and only the hashes of the recovery codes are kept
    const row = await t.database.db.selectFrom('users').select('totp_secret_enc').where('email', '=', email).executeTakeFirstOrThrow();
    expect(row.totp_secret_enc).not.toContain(setup.mfaSecret);
    expect(decrypt(t.keys.encryptionKey, row.totp_secret_enc!)).toBe(setup.mfaSecret);
    const hashes = await t.database.db.selectFrom('recovery_codes').select('code_hash').execute();
    expect(hashes.map((h) => h.code_hash)).not.toContain(recoveryCodes[0]);

    // a recovery code signs in instead of a code, once
    nextStep();
    const withCode = await browser(t.app).post('/api/v1/users/login', { email, password: 'Baobab-Sunrise-2026' });
    expect(withCode.json()).toMatchObject({ challengeName: 'SOFTWARE_TOKEN_MFA' });
    const useRecovery = (session: string) =>
      browser(t.app).post('/api/v1/users/challenge-response', {
        session,
        challengeName: 'SOFTWARE_TOKEN_MFA',
        username: email,
        userCode: recoveryCodes[0]!.toUpperCase(),
      });
    const recovered = await useRecovery(withCode.json<{ session: string }>().session);
    expect(recovered.statusCode).toBe(200);
    // the reply says how many recovery codes are left (ten were made, one is used)
    expect(recovered.json<{ recoveryCodesLeft: number }>().recoveryCodesLeft).toBe(recoveryCodes.length - 1);
    const second = await browser(t.app).post('/api/v1/users/login', { email, password: 'Baobab-Sunrise-2026' });
    const reuse = await useRecovery(second.json<{ session: string }>().session);
    expect(reuse.json()).toMatchObject({ code: 'InvalidOtp' });
    expect(await auditActions(email)).toEqual(expect.arrayContaining(['user.joined', 'mfa.enrolled', 'mfa.recovery_code_used', 'login.succeeded']));
  });

  it('locks the account for 15 minutes after 5 wrong passwords, and says so', async () => {
    const email = 'admin@baobab.test';
    for (let i = 1; i <= 4; i++) {
      const res = await browser(t.app).post('/api/v1/users/login', { email, password: `wrong-${i}` });
      expect(res.json()).toMatchObject({ code: 'InvalidLogin' });
    }
    const fifth = await browser(t.app).post('/api/v1/users/login', { email, password: 'wrong-5' });
    expect(fifth.statusCode).toBe(423);
    expect(fifth.json()).toMatchObject({ code: 'AccountLocked', message: AUTH_MESSAGES.accountLocked });
    const right = await browser(t.app).post('/api/v1/users/login', { email, password: DEMO_PASSWORD });
    expect(right.json()).toMatchObject({ code: 'AccountLocked' });
    t.clock.now += 14 * 60_000;
    expect((await browser(t.app).post('/api/v1/users/login', { email, password: DEMO_PASSWORD })).statusCode).toBe(423);
    t.clock.now += 61_000;
    const after = await browser(t.app).post('/api/v1/users/login', { email, password: DEMO_PASSWORD });
    expect(after.json()).toMatchObject({ challengeName: 'SOFTWARE_TOKEN_MFA' });
    expect(await auditActions(email)).toEqual(expect.arrayContaining(['login.failed', 'user.locked']));
  });

  it('rotates the refresh token on every use and ends the family when an old one comes back', async () => {
    const s = await signIn(t, 'admin@kora.test');
    const first = s.refreshToken;
    const r1 = await s.browser.post('/api/v1/users/refresh');
    expect(r1.statusCode).toBe(200);
    const r1body = r1.json<{ accessToken: string; refreshToken: string; expiresIn: number }>();
    expect(r1body.refreshToken).not.toBe(first);
    expect(s.browser.jar.get('portal_refresh')).toBe(r1body.refreshToken);
    const profile = await s.browser.get('/api/v1/partner/profile', { token: r1body.accessToken });
    expect(profile.statusCode).toBe(200);

    // the body form, for non-browser clients: the stolen first token comes back after the reuse window
    t.clock.now += REFRESH_REUSE_SECONDS * 1000 + 1000;
    const stolen = await browser(t.app).post('/api/v1/users/refresh', { refreshToken: first });
    expect(stolen.statusCode).toBe(401);
    expect(stolen.json()).toMatchObject(ended('refresh-reuse'));
    const legit = await s.browser.post('/api/v1/users/refresh');
    expect(legit.statusCode).toBe(401);
    expect(legit.json()).toMatchObject(ended('refresh-reuse'));
    expect((await profileWith(r1body.accessToken)).json()).toMatchObject(ended('refresh-reuse'));
    expect(await endedReason(sessionOf(s.accessToken))).toBe('refresh-reuse');
    expect(await t.database.db.selectFrom('audit_events').select('action').where('action', '=', 'session.refresh_token_reused').execute()).toHaveLength(1);
  });

  it('ends the session at logout', async () => {
    const s = await signIn(t, 'admin@kora.test');
    const out = await s.browser.post('/api/v1/users/logout');
    expect(out.statusCode).toBe(200);
    const after = await browser(t.app).post('/api/v1/users/refresh', { refreshToken: s.refreshToken });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject(ended('logout'));
    expect(await endedReason(sessionOf(s.accessToken))).toBe('logout');
  });

  it('gives two refreshes a few milliseconds apart the same new token (two tabs), and both keep working', async () => {
    const s = await signIn(t, 'admin@kora.test');
    const [a, b] = await Promise.all([
      browser(t.app).post('/api/v1/users/refresh', { refreshToken: s.refreshToken }),
      browser(t.app).post('/api/v1/users/refresh', { refreshToken: s.refreshToken }),
    ]);
    expect(a.statusCode).toBe(200);
    expect(b.statusCode).toBe(200);
    const next = a.json<{ refreshToken: string }>().refreshToken;
    expect(b.json<{ refreshToken: string }>().refreshToken).toBe(next);
    const again = await browser(t.app).post('/api/v1/users/refresh', { refreshToken: next });
    expect(again.statusCode).toBe(200);
    expect(await t.database.db.selectFrom('refresh_tokens').select('id').where('family_id', '=', sessionOf(s.accessToken)).execute()).toHaveLength(3);
  });

  it('keeps the refresh cookie through a database outage: the refresh answers 503 with Retry-After, and the same cookie renews once the database is back', async () => {
    const s = await signIn(t, 'admin@kora.test');
    // the rotation's write fails as a cut connection does (SQLSTATE class 08), as a restarted pooler or a failover makes it
    await sql`create function refresh_cut() returns trigger language plpgsql as $$ begin raise exception 'connection lost' using errcode = '08006'; end $$`.execute(
      t.database.db,
    );
    await sql`create trigger refresh_cut before update on refresh_tokens for each row execute function refresh_cut()`.execute(t.database.db);
    try {
      const cut = await s.browser.post('/api/v1/users/refresh');
      expect(cut.statusCode).toBe(503);
      expect(cut.headers['retry-after']).toBeDefined();
      expect(s.browser.jar.get('portal_refresh')).toBe(s.refreshToken);
    } finally {
      await sql`drop trigger refresh_cut on refresh_tokens`.execute(t.database.db);
      await sql`drop function refresh_cut()`.execute(t.database.db);
    }
    const back = await s.browser.post('/api/v1/users/refresh');
    expect(back.statusCode).toBe(200);
    expect(s.browser.jar.get('portal_refresh')).toBe(back.json<{ refreshToken: string }>().refreshToken);
  });

  it('answers the same new token when a rotation committed but its answer was lost, and the portal sends the token again after an outage', async () => {
    const s = await signIn(t, 'admin@kora.test');
    const lost = await browser(t.app).post('/api/v1/users/refresh', { refreshToken: s.refreshToken });
    expect(lost.statusCode).toBe(200);
    // the portal tries again once the server answers again: after Retry-After, a failover, its probe's next step
    t.clock.now += 45_000;
    const again = await browser(t.app).post('/api/v1/users/refresh', { refreshToken: s.refreshToken });
    expect(again.statusCode).toBe(200);
    expect(again.json<{ refreshToken: string }>().refreshToken).toBe(lost.json<{ refreshToken: string }>().refreshToken);
    expect((await profileWith(again.json<{ accessToken: string }>().accessToken)).statusCode).toBe(200);
  });

  it('ends the session when a rotated token comes back after the reuse window', async () => {
    const s = await signIn(t, 'admin@kora.test');
    expect((await browser(t.app).post('/api/v1/users/refresh', { refreshToken: s.refreshToken })).statusCode).toBe(200);
    t.clock.now += REFRESH_REUSE_SECONDS * 1000;
    expect((await browser(t.app).post('/api/v1/users/refresh', { refreshToken: s.refreshToken })).statusCode).toBe(200);
    t.clock.now += 1_500;
    const late = await browser(t.app).post('/api/v1/users/refresh', { refreshToken: s.refreshToken });
    expect(late.json()).toMatchObject(ended('refresh-reuse'));
    expect((await profileWith(s.accessToken)).json()).toMatchObject(ended('refresh-reuse'));
  });

  it('refuses a refresh token after its 12 hours, and the refresh of a user made inactive, saying why', async () => {
    const s = await signIn(t, 'admin@kora.test');
    t.clock.now += 12 * 3600_000 + 1000;
    expect((await browser(t.app).post('/api/v1/users/refresh', { refreshToken: s.refreshToken })).json()).toMatchObject(ended('expired'));
    const v = await signIn(t, 'viewer@acme.test');
    await t.database.db.updateTable('users').set({ status: 'inactive' }).where('email', '=', 'viewer@acme.test').execute();
    // the embedded database's cached row of the user goes as a deactivation would drop it
    await t.app.cacheBus.invalidate('user', `${v.user.partnerId}:${v.user.id}`);
    const refused = await browser(t.app).post('/api/v1/users/refresh', { refreshToken: v.refreshToken });
    const call = await profileWith(v.accessToken);
    await t.database.db.updateTable('users').set({ status: 'active' }).where('email', '=', 'viewer@acme.test').execute();
    await t.app.cacheBus.invalidate('user', `${v.user.partnerId}:${v.user.id}`);
    expect(refused.json()).toMatchObject(ended('deactivated'));
    expect(call.statusCode).toBe(401);
    expect(call.json()).toMatchObject(ended('deactivated'));
  });

  it('keeps InvalidRefreshToken for a token that is not one of ours', async () => {
    const s = await signIn(t, 'admin@kora.test');
    const [id] = s.refreshToken.split('.');
    for (const refreshToken of ['not-a-token', `${id}.${'A'.repeat(43)}`, `${crypto.randomUUID()}.${'A'.repeat(43)}`]) {
      const res = await browser(t.app).post('/api/v1/users/refresh', { refreshToken });
      expect(res.statusCode, refreshToken).toBe(401);
      expect(res.json(), refreshToken).toMatchObject({ code: 'InvalidRefreshToken', message: AUTH_MESSAGES.invalidRefresh });
    }
  });

  it('answers a refresh with the user as it is now: a role changed since the sign-in shows', async () => {
    const s = await signIn(t, 'treasury@acme.test');
    const first = await s.browser.post('/api/v1/users/refresh');
    expect(first.statusCode).toBe(200);
    expect(first.json<{ user: unknown }>().user).toEqual({
      id: s.user.id,
      name: 'Thandi Nkosi',
      email: 'treasury@acme.test',
      role: 'treasury',
      partnerId: DEMO_PARTNERS.acme.id,
      status: 'active',
    });
    await t.database.db.updateTable('users').set({ role: 'view' }).where('id', '=', s.user.id).execute();
    const second = await s.browser.post('/api/v1/users/refresh');
    await t.database.db.updateTable('users').set({ role: 'treasury' }).where('id', '=', s.user.id).execute();
    expect(second.statusCode).toBe(200);
    const body = second.json<{ user: { role: string }; accessToken: string }>();
    expect(body.user.role).toBe('view');
    expect(JSON.parse(new TextDecoder().decode(base64url.decode(body.accessToken.split('.')[1]!)))).toMatchObject({ role: 'view' });
  });

  it('ends the access token at logout, at once', async () => {
    const s = await signIn(t, 'admin@kora.test');
    expect((await profileWith(s.accessToken)).statusCode).toBe(200);
    expect((await s.browser.post('/api/v1/users/logout')).statusCode).toBe(200);
    const after = await profileWith(s.accessToken);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({
      code: 'SessionEnded',
      reason: 'logout',
      message: 'You signed out in another tab or window.',
      // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- vitest types its asymmetric matchers (expect.any, objectContaining) any
      requestId: expect.any(String),
    });
  });

  it('ends every access token of a user whose password was reset', async () => {
    const email = 'admin@baobab.test';
    const s = await signIn(t, email);
    expect((await profileWith(s.accessToken)).statusCode).toBe(200);
    await forgot({ email });
    const resetCode = /code to reset your password is (\d{6})/.exec(t.mailer.sent.at(-1)!.text)![1]!;
    const ok = await browser(t.app).post('/api/v1/users/confirm-password-reset', { email, password: 'Okavango-Delta-2031', confirmationCode: resetCode });
    expect(ok.statusCode).toBe(200);
    expect((await profileWith(s.accessToken)).json()).toMatchObject(ended('password-changed'));
    expect((await browser(t.app).post('/api/v1/users/refresh', { refreshToken: s.refreshToken })).json()).toMatchObject(ended('password-changed'));
    expect(await endedReason(sessionOf(s.accessToken))).toBe('password-changed');
  });

  it('spends reset-code tries before comparing: parallel guesses get five comparisons in all', async () => {
    const email = 'admin@lean.test';
    await forgot({ email });
    const right = /code to reset your password is (\d{6})/.exec(t.mailer.sent.at(-1)!.text)![1]!;
    const wrong = Array.from({ length: 12 }, (_, i) => String((Number(right) + 1 + i) % 1_000_000).padStart(6, '0'));
    const burst = await Promise.all(
      wrong.map((confirmationCode) => browser(t.app).post('/api/v1/users/confirm-password-reset', { email, password: 'Zambezi-Falls-2031', confirmationCode })),
    );
    expect(burst.every((r) => r.statusCode === 400)).toBe(true);
    const late = await browser(t.app).post('/api/v1/users/confirm-password-reset', { email, password: 'Zambezi-Falls-2031', confirmationCode: right });
    expect(late.json()).toMatchObject({ code: 'InvalidResetCode', message: AUTH_MESSAGES.tooManyResetTries });
  });

  it('refuses a token without an expiry or without a session', async () => {
    const s = await signIn(t, 'admin@kora.test');
    const claims = JSON.parse(new TextDecoder().decode(base64url.decode(s.accessToken.split('.')[1]!))) as Record<string, unknown>;
    const noExp = await new SignJWT({ pid: claims.pid, role: claims.role, email: claims.email, name: claims.name, sid: claims.sid })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.sub as string)
      .setIssuer('partner-dashboard')
      .setIssuedAt()
      .sign(t.keys.jwtSecret.key);
    expect((await profileWith(noExp)).json()).toMatchObject({ code: 'InvalidToken' });
    const noSid = await new SignJWT({ pid: claims.pid, role: claims.role, email: claims.email, name: claims.name })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.sub as string)
      .setIssuer('partner-dashboard')
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(t.keys.jwtSecret.key);
    expect((await profileWith(noSid)).json()).toMatchObject({ code: 'InvalidToken' });
  });

  it('checks the request-forgery token on every state-changing route, whatever the spelling of its path', async () => {
    const s = await signIn(t, 'admin@acme.test');
    // each of these spellings reaches the route (the first three were let through before the check moved onto the route)
    for (const url of [
      '/api/v1/partner/low-balance-limit',
      '/%61pi/v1/partner/low-balance-limit',
      '/api/v1/partner/%6cow-balance-limit',
      '/%61%70%69/v1/partner/low-balance-limit',
    ]) {
      const res = await t.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${s.accessToken}` }, payload: { lowBalanceLimit: 1 } });
      expect(res.statusCode, url).toBe(403);
      expect(res.json(), url).toMatchObject({ code: 'CsrfTokenInvalid' });
    }
  });

  it('accepts only a token the server issued: the same made-up value in cookie and header is refused', async () => {
    const made = 'a'.repeat(43);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/login',
      headers: { cookie: `portal_csrf=${made}`, 'x-csrf-token': made },
      payload: { email: 'admin@acme.test', password: DEMO_PASSWORD },
    });
    expect(res.json()).toMatchObject({ code: 'CsrfTokenInvalid' });
    // a token from one browser does not serve another browser's cookie
    const one = await t.app.inject({ method: 'POST', url: '/api/v1/security/csrf' });
    const two = await t.app.inject({ method: 'POST', url: '/api/v1/security/csrf' });
    const crossed = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/login',
      headers: { cookie: `portal_csrf=${two.cookies.find((c) => c.name === 'portal_csrf')!.value}`, 'x-csrf-token': one.json<{ csrf: string }>().csrf },
      payload: { email: 'admin@acme.test', password: DEMO_PASSWORD },
    });
    expect(crossed.json()).toMatchObject({ code: 'CsrfTokenInvalid' });
  });

  it("binds a request-forgery token to the session it was issued for: another browser's pair, or one from before sign-in, is refused", async () => {
    const a = await signIn(t, 'admin@kora.test');
    const b = await signIn(t, 'treasury@acme.test');
    const pair = async (token?: string) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/security/csrf', headers: token ? { authorization: `Bearer ${token}` } : {} });
      return { cookie: `portal_csrf=${res.cookies.find((c) => c.name === 'portal_csrf')!.value}`, csrf: res.json<{ csrf: string }>().csrf };
    };
    const change = (token: string, p: { cookie: string; csrf: string }) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/v1/user/preferences',
        headers: { authorization: `Bearer ${token}`, cookie: p.cookie, 'x-csrf-token': p.csrf },
        payload: { timeZone: null },
      });
    for (const other of [await pair(), await pair(b.accessToken)]) {
      const res = await change(a.accessToken, other);
      expect([res.statusCode, res.json<{ code: string }>().code]).toEqual([403, 'CsrfTokenInvalid']);
    }
    const own = await pair(a.accessToken);
    expect((await change(a.accessToken, own)).statusCode).toBe(200);
    // the pair is the session's, not the access token's: a refreshed access token of the same session keeps it
    const refreshed = await a.browser.post('/api/v1/users/refresh', {}, { token: a.accessToken });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    expect((await change(refreshed.json<{ accessToken: string }>().accessToken, own)).statusCode).toBe(200);
    // and B's own pair works for B only
    expect((await change(b.accessToken, await pair(b.accessToken))).statusCode).toBe(200);
  });

  it("lets the session's own calls (refresh, logout) through with the pair of the session their expired access token names", async () => {
    const s = await signIn(t, 'admin@kora.test');
    const { sub, pid, role, email, name, sid } = decodeJwt(s.accessToken);
    // the same session's access token, past its end (a tab whose renewal came late)
    const expired = await new SignJWT({ pid, role, email, name, sid })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(sub!)
      .setIssuer('partner-dashboard')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 1000)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 100)
      .sign(t.keys.jwtSecret.key);
    const gone = await t.app.inject({ method: 'GET', url: '/api/v1/partner/profile', headers: { authorization: `Bearer ${expired}` } });
    expect(gone.json()).toMatchObject({ code: 'TokenExpired' });
    const cookie = () => [...s.browser.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const issued = await t.app.inject({ method: 'POST', url: '/api/v1/security/csrf', headers: { cookie: cookie(), authorization: `Bearer ${expired}` } });
    const { csrf } = issued.json<{ csrf: string }>();
    const session = (path: string, bearer?: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/users/${path}`,
        headers: { cookie: cookie(), 'x-csrf-token': csrf, ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
        payload: {},
      });
    // the binding holds: the session's pair does not serve a call that names no session
    const anonymous = await session('refresh');
    expect([anonymous.statusCode, anonymous.json<{ code: string }>().code]).toEqual([403, 'CsrfTokenInvalid']);
    const refreshed = await session('refresh', expired);
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    s.browser.jar.set('portal_refresh', refreshed.json<{ refreshToken: string }>().refreshToken);
    const loggedOut = await session('logout', expired);
    expect(loggedOut.statusCode, loggedOut.body).toBe(200);
    expect((await session('refresh', expired)).json()).toMatchObject(ended('logout'));
  });

  it('refuses a mutating call without a matching request-forgery token', async () => {
    const none = await t.app.inject({ method: 'POST', url: '/api/v1/users/login', payload: { email: 'admin@acme.test', password: DEMO_PASSWORD } });
    expect(none.statusCode).toBe(403);
    expect(none.json()).toMatchObject({ code: 'CsrfTokenInvalid', message: AUTH_MESSAGES.csrf });
    const issued = await t.app.inject({ method: 'POST', url: '/api/v1/security/csrf', headers: { 'x-device-id': 'd1' } });
    const { csrf } = issued.json<{ csrf: string }>();
    const cookie = issued.cookies.find((c) => c.name === 'portal_csrf')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    const mismatched = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/login',
      headers: { cookie: `portal_csrf=${cookie.value}`, 'x-csrf-token': `${csrf.slice(0, -1)}x` },
      payload: { email: 'admin@acme.test', password: DEMO_PASSWORD },
    });
    expect(mismatched.json()).toMatchObject({ code: 'CsrfTokenInvalid' });
    const headerOnly = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/login',
      headers: { 'x-csrf-token': csrf },
      payload: { email: 'a@b.c', password: 'x' },
    });
    expect(headerOnly.json()).toMatchObject({ code: 'CsrfTokenInvalid' });
    const matching = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/login',
      headers: { cookie: `portal_csrf=${cookie.value}`, 'x-csrf-token': csrf },
      payload: { email: 'admin@acme.test', password: DEMO_PASSWORD },
    });
    expect(matching.statusCode).toBe(200);
  });

  describe('access tokens', () => {
    const acmeViewer = DEMO_USERS.find((u) => u.email === 'viewer@acme.test')!;
    const claims = { sub: acmeViewer.id, pid: DEMO_PARTNERS.acme.id, role: 'view' as const, email: acmeViewer.email, name: acmeViewer.name };
    const profile = (token: string) => t.app.inject({ method: 'GET', url: '/api/v1/partner/profile', headers: { authorization: `Bearer ${token}` } });
    /** A token of an open session of the user (a session row, as a sign-in makes), signed with `secret`. */
    async function tokenOf(c: typeof claims, secret = t.keys.jwtSecret) {
      const sid = crypto.randomUUID();
      await t.database.db
        .insertInto('auth_sessions')
        .values({ partner_id: c.pid, id: sid, user_id: c.sub, expires_at: new Date(Date.now() + 3600_000) })
        .execute();
      return signAccessToken(secret, { ...c, sid });
    }

    it('accepts a valid token and reads the partner from it', async () => {
      const res = await profile(await tokenOf(claims));
      expect(res.statusCode).toBe(200);
      expect(res.json<{ partner: { id: string } }>().partner.id).toBe(DEMO_PARTNERS.acme.id);
    });

    it('refuses no token, a wrong signature, alg none and an expired token with 401', async () => {
      expect((await t.app.inject({ method: 'GET', url: '/api/v1/partner/profile' })).statusCode).toBe(401);
      const forged = await tokenOf(claims, keyRing(Buffer.alloc(32, 7)));
      expect((await profile(forged)).json()).toMatchObject({ code: 'InvalidToken' });
      const enc = (o: object) => base64url.encode(JSON.stringify(o));
      const none = `${enc({ alg: 'none', typ: 'JWT' })}.${enc({ ...claims, iss: 'partner-dashboard', exp: Math.floor(Date.now() / 1000) + 600 })}.`;
      expect((await profile(none)).json()).toMatchObject({ code: 'InvalidToken' });
      const expired = await new SignJWT({ pid: claims.pid, role: claims.role, email: claims.email, name: claims.name })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(claims.sub)
        .setIssuer('partner-dashboard')
        .setIssuedAt(Math.floor(Date.now() / 1000) - 1000)
        .setExpirationTime(Math.floor(Date.now() / 1000) - 100)
        .sign(t.keys.jwtSecret.key);
      const res = await profile(expired);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'TokenExpired' });
    });

    it('refuses the token of a user made inactive or deleted', async () => {
      const inactive = DEMO_USERS.find((u) => u.email === 'inactive@acme.test')!;
      const token = await tokenOf({ ...claims, sub: inactive.id, email: inactive.email });
      expect((await profile(token)).json()).toMatchObject(ended('deactivated'));
      const ghost = await signAccessToken(t.keys.jwtSecret, { ...claims, sub: crypto.randomUUID(), sid: crypto.randomUUID() });
      expect((await profile(ghost)).statusCode).toBe(401);
    });

    it('takes the partner from the token, not from the request', async () => {
      const token = await tokenOf(claims);
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/v1/partner/profile?partnerId=${DEMO_PARTNERS.kora.id}`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.json<{ partner: { id: string } }>().partner.id).toBe(DEMO_PARTNERS.acme.id);
      const lean = await signIn(t, 'admin@lean.test');
      const other = await t.app.inject({ method: 'GET', url: '/api/v1/partner/accounts', headers: { authorization: `Bearer ${lean.accessToken}` } });
      expect(other.json<{ partner: { id: string } }>().partner.id).toBe(DEMO_PARTNERS.lean.id);
      expect(JSON.stringify(other.json())).not.toContain('25000');
    });
  });

  describe('password reset', () => {
    const email = 'admin2@acme.test';
    const lastCode = () => /code to reset your password is (\d{6})/.exec(t.mailer.sent.at(-1)!.text)![1]!;
    /** The code of the last reset mail to this address (an admin's reset or a forgotten password). */
    const lastCodeFor = (to: string) => /password is (\d{6})\./.exec(t.mailer.sent.filter((m) => m.to === to).at(-1)!.text)![1]!;

    it('answers the same for any e-mail and mails a code only to a user', async () => {
      const before = t.mailer.sent.length;
      const unknown = await forgot({ email: 'ghost@acme.test' });
      const known = await forgot({ email });
      expect(unknown.json()).toEqual(known.json());
      expect(known.json()).toEqual({ message: AUTH_MESSAGES.forgotPasswordSent });
      expect(t.mailer.sent.length).toBe(before + 1);
      expect(t.mailer.sent.at(-1)!.to).toBe(email);
    });

    it('answers before it looks the address up: a stalled mail server, or a locked table, holds back only the code', async () => {
      // the mail server stalls (and, on a PostgreSQL server, the reset codes' table is locked by another transaction);
      // the answer for an existing account used to wait on both, so its time told that the account exists
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const mailer = t.mailer;
      const { send, transmit } = { send: mailer.send.bind(mailer), transmit: mailer.transmit.bind(mailer) };
      mailer.send = async (mail) => gate.then(() => send(mail));
      mailer.transmit = async (mail) => gate.then(() => transmit(mail));
      // (the embedded database has one session: holding it would hold the sign-in limit's counter too)
      const unlock = kind === 'postgres' ? await holdDatabase(t.database, ['password_reset_codes']) : async () => undefined;
      try {
        const before = t.mailer.sent.length;
        const asked = Promise.all([
          browser(t.app).post('/api/v1/users/forgot-password', { email: 'ghost@acme.test' }),
          browser(t.app).post('/api/v1/users/forgot-password', { email }),
        ]);
        const answers = await Promise.race([asked, new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 5000))]);
        expect(answers, 'the answers waited on the account').not.toBe('waited');
        if (answers === 'waited') return;
        expect(answers.map((r) => [r.statusCode, r.json<unknown>()])).toEqual([
          [200, { message: AUTH_MESSAGES.forgotPasswordSent }],
          [200, { message: AUTH_MESSAGES.forgotPasswordSent }],
        ]);
        expect(t.mailer.sent.length).toBe(before);
        release();
        await unlock();
        await t.app.services.auth.passwordReset.settled();
        await t.app.mailRelay.deliver();
        expect(t.mailer.sent.slice(before).map((m) => m.to)).toEqual([email]);
      } finally {
        release();
        await unlock();
        Object.assign(mailer, { send, transmit });
      }
    });

    it('takes parallel requests for one account: each is answered, each code is written and mailed, one is in force', async () => {
      const before = t.mailer.sent.length;
      const answers = await Promise.all(Array.from({ length: 8 }, () => browser(t.app).post('/api/v1/users/forgot-password', { email })));
      expect(answers.map((r) => r.statusCode)).toEqual(Array<number>(8).fill(200));
      await t.app.services.auth.passwordReset.settled();
      await t.app.mailRelay.deliver();
      const mailed = t.mailer.sent.slice(before).map((m) => /code to reset your password is (\d{6})/.exec(m.text)![1]!);
      expect(mailed).toHaveLength(8);
      const user = DEMO_USERS.find((u) => u.email === email)!;
      const rows = await t.database.db.selectFrom('password_reset_codes').select('code_hash').where('user_id', '=', user.id).execute();
      expect(rows).toHaveLength(1);
      expect(mailed.some((c) => sha256(c) === rows[0]!.code_hash)).toBe(true);
    });

    it('refuses a wrong code, and every code after five tries', async () => {
      await forgot({ email });
      const code = lastCode();
      const wrong = code === '000000' ? '000001' : '000000';
      for (let i = 1; i <= 4; i++) {
        const res = await browser(t.app).post('/api/v1/users/confirm-password-reset', { email, password: 'Kilimanjaro-Peak-77', confirmationCode: wrong });
        expect(res.json()).toMatchObject({ code: 'InvalidResetCode', message: AUTH_MESSAGES.invalidResetCode });
      }
      const fifth = await browser(t.app).post('/api/v1/users/confirm-password-reset', { email, password: 'Kilimanjaro-Peak-77', confirmationCode: wrong });
      expect(fifth.json()).toMatchObject({ message: AUTH_MESSAGES.tooManyResetTries });
      const right = await browser(t.app).post('/api/v1/users/confirm-password-reset', { email, password: 'Kilimanjaro-Peak-77', confirmationCode: code });
      expect(right.json()).toMatchObject({ code: 'InvalidResetCode' });
    });

    it('refuses a code after 15 minutes', async () => {
      await forgot({ email });
      const code = lastCode();
      t.clock.now += 15 * 60_000 + 1000;
      const res = await browser(t.app).post('/api/v1/users/confirm-password-reset', { email, password: 'Kilimanjaro-Peak-77', confirmationCode: code });
      expect(res.json()).toMatchObject({ code: 'InvalidResetCode' });
    });

    it('changes the password once with a right code and ends existing sessions', async () => {
      const s = await signIn(t, email);
      await forgot({ email });
      const code = lastCode();
      const weak = await browser(t.app).post('/api/v1/users/confirm-password-reset', { email, password: 'short', confirmationCode: code });
      expect(weak.json()).toMatchObject({ code: 'InvalidPassword', message: 'Use at least 12 characters.' });
      const common = await browser(t.app).post('/api/v1/users/confirm-password-reset', { email, password: 'Password123!', confirmationCode: code });
      expect(common.json()).toMatchObject({ code: 'InvalidPassword', message: 'This password is too common. Choose one that is harder to guess.' });
      const ok = await browser(t.app).post('/api/v1/users/confirm-password-reset', { email, password: 'Kilimanjaro-Peak-77', confirmationCode: code });
      expect(ok.statusCode).toBe(200);
      const reuse = await browser(t.app).post('/api/v1/users/confirm-password-reset', { email, password: 'Serengeti-Plains-88', confirmationCode: code });
      expect(reuse.json()).toMatchObject({ code: 'InvalidResetCode' });
      expect((await browser(t.app).post('/api/v1/users/refresh', { refreshToken: s.refreshToken })).statusCode).toBe(401);
      expect((await browser(t.app).post('/api/v1/users/login', { email, password: DEMO_PASSWORD })).json()).toMatchObject({ code: 'InvalidLogin' });
      expect((await browser(t.app).post('/api/v1/users/login', { email, password: 'Kilimanjaro-Peak-77' })).json()).toMatchObject({
        challengeName: 'SOFTWARE_TOKEN_MFA',
      });
      expect(await auditActions(email)).toEqual(expect.arrayContaining(['password.reset_requested', 'password.changed']));
    });

    it('after an admin reset, refuses the same password and the last ones, keeping the code for a new one', async () => {
      const member = 'viewer@acme.test';
      const viewer = DEMO_USERS.find((u) => u.email === member)!;
      const admin = await signIn(t, 'admin@acme.test');
      const reset = await admin.browser.post('/api/v1/user/reset-password', { userId: viewer.id }, { token: admin.accessToken });
      expect(reset.statusCode, reset.body).toBe(200);
      const code = lastCodeFor(member);
      const confirm = (password: string, confirmationCode: string) =>
        browser(t.app).post('/api/v1/users/confirm-password-reset', { email: member, password, confirmationCode });
      const same = await confirm(DEMO_PASSWORD, code);
      expect([same.statusCode, same.json<{ code: string; message: string }>()]).toEqual([
        400,
        expect.objectContaining({ code: 'PasswordReused', message: AUTH_MESSAGES.passwordReused }),
      ]);
      // the refusal did not spend the code
      expect((await confirm('Limpopo-River-2031', code)).statusCode).toBe(200);
      // four more changes: each of the last five passwords is refused, the sixth back is allowed again
      const passwords = [DEMO_PASSWORD, 'Limpopo-River-2031', 'Kalahari-Sands-2032', 'Drakensberg-Ridge-33', 'Lake-Malawi-Shore-34', 'Atlas-Mountains-35'];
      for (const next of passwords.slice(2)) {
        await forgot({ email: member });
        expect((await confirm(next, lastCodeFor(member))).statusCode).toBe(200);
      }
      // (each try spends one of the code's five: a fresh code for the last ones)
      await forgot({ email: member });
      for (const old of passwords.slice(1, 4)) expect((await confirm(old, lastCodeFor(member))).json()).toMatchObject({ code: 'PasswordReused' });
      await forgot({ email: member });
      for (const old of passwords.slice(4)) expect((await confirm(old, lastCodeFor(member))).json()).toMatchObject({ code: 'PasswordReused' });
      expect((await confirm(DEMO_PASSWORD, lastCodeFor(member))).statusCode).toBe(200);
      // the earlier passwords are kept as hashes only, at most four besides the current one
      const kept = await t.database.db.selectFrom('password_history').select('password_hash').where('user_id', '=', viewer.id).execute();
      expect(kept).toHaveLength(4);
      expect(kept.every((k) => k.password_hash.startsWith('$argon2id$'))).toBe(true);
    });

    it('answers PASSWORD_RESET_REQUESTED when an admin reset the password', async () => {
      await t.database.db.updateTable('users').set({ password_reset_requested: true }).where('email', '=', 'treasury@acme.test').execute();
      const res = await browser(t.app).post('/api/v1/users/login', { email: 'treasury@acme.test', password: DEMO_PASSWORD });
      expect(res.json()).toEqual({ challengeName: 'PASSWORD_RESET_REQUESTED', userName: 'treasury@acme.test' });
    });
  });
});

describe.each(DATABASES)('sign-in rate limit on %s', (kind) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await setup(kind, { config: { LOGIN_RATE_LIMIT: '3', REFRESH_RATE_LIMIT: '5' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('limits sign-in attempts per IP', async () => {
    const attempt = (ip: string) => browser(t.app).post('/api/v1/users/login', { email: 'nobody@x.test', password: 'whatever-123' }, { ip });
    for (let i = 0; i < 3; i++) expect((await attempt('127.0.0.2')).statusCode).toBe(401);
    const limited = await attempt('127.0.0.2');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'TooManyRequests', message: AUTH_MESSAGES.tooManyLogins });
    expect((await attempt('127.0.0.3')).statusCode).toBe(401);
  });

  it('limits refreshes per IP with their own limit (REFRESH_RATE_LIMIT), not the sign-in one', async () => {
    const refresh = () => browser(t.app).post('/api/v1/users/refresh', { refreshToken: 'not-a-token' }, { ip: '127.0.0.4' });
    for (let i = 0; i < 5; i++) expect((await refresh()).statusCode).toBe(401);
    const limited = await refresh();
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'TooManyRequests' });
    // the sign-in calls of that address still have their own count
    expect((await browser(t.app).post('/api/v1/users/login', { email: 'somebody@x.test', password: 'whatever-123' }, { ip: '127.0.0.4' })).statusCode).toBe(
      401,
    );
  });

  it('defaults to 120 refreshes a minute per IP', () => {
    expect(testConfig().REFRESH_RATE_LIMIT).toBe(120);
    expect(testConfig().LOGIN_RATE_LIMIT).toBe(10);
  });
});
