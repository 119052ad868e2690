import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '@portal/contract/auth';
import { sessionEndMessage } from '@portal/contract/live';
import type { PartnerProfile } from '@portal/contract/partner';
import { TEAM_MESSAGES, type TeamMember } from '@portal/contract/team';
import { DEMO_PARTNERS, DEMO_USERS } from '../src/db/seed/demo.ts';
import { currentStep, totpCode, TOTP_PERIOD } from '../src/lib/totp.ts';
import { DATABASES, browser, setup, signIn, twoInstances, type TestContext } from './harness.ts';
import { mailText, smtpSink } from './smtp-sink.ts';

type Session = Awaited<ReturnType<typeof signIn>>;
const ACME = DEMO_PARTNERS.acme.id;
const idOf = (email: string) => DEMO_USERS.find((u) => u.email === email)!.id;
const NEW_PASSWORD = 'Kilimanjaro-Sunrise-42';

describe.each(DATABASES)('the team on %s', (kind) => {
  let t: TestContext;
  let smtp: Awaited<ReturnType<typeof smtpSink>>;
  const s: Record<string, Session> = {};
  beforeAll(async () => {
    smtp = await smtpSink();
    t = await setup(kind, { config: { LOGIN_RATE_LIMIT: '10000' }, smtpUrl: smtp.url });
    for (const email of ['admin@acme.test', 'admin2@acme.test', 'treasury@acme.test', 'viewer@acme.test', 'admin@kora.test', 'admin@lean.test'])
      s[email] = await signIn(t, email);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const token = (email: string) => ({ token: s[email]!.accessToken });
  const as = (email: string) => ({
    list: () => s[email]!.browser.get('/api/v1/partner/users', token(email)),
    invite: (body: unknown) => s[email]!.browser.post('/api/v1/users/add', body, token(email)),
    update: (body: unknown) => s[email]!.browser.post('/api/v1/users/update', body, token(email)),
    resendInvite: (userId: string) => s[email]!.browser.post('/api/v1/users/resend-invite', { userId }, token(email)),
    resendCode: (userId: string) => s[email]!.browser.put(`/api/v1/users/resend-code/${userId}`, {}, token(email)),
    remove: (userId: string) => s[email]!.browser.put(`/api/v1/users/delete/${userId}`, {}, token(email)),
    reset: (userId: string) => s[email]!.browser.post('/api/v1/user/reset-password', { userId }, token(email)),
  });
  const team = async (email = 'admin@acme.test') => {
    const res = await as(email).list();
    expect(res.statusCode).toBe(200);
    return res.json<{ users: TeamMember[] }>().users;
  };
  const row = (email: string) => t.database.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
  const actions = async () => (await t.database.db.selectFrom('audit_events').select('action').where('partner_id', '=', ACME).execute()).map((r) => r.action);

  /** The last mail the SMTP server received for this address. */
  async function mailTo(email: string, count: number) {
    await expect.poll(() => smtp.received.filter((m) => m.to.includes(email)).length).toBe(count);
    return mailText(smtp.received.filter((m) => m.to.includes(email)).at(-1)!.raw);
  }
  const tempPasswordIn = (text: string) => /Temporary password: (\S+)/.exec(text)![1]!;
  const resetCodeIn = (text: string) => /new password is (\d{6})/.exec(text)![1]!;
  const login = (email: string, password: string) => browser(t.app).post('/api/v1/users/login', { email, password });

  it('lists the partner’s users for every role: name, e-mail, role, status, last sign-in; never another partner’s', async () => {
    const acme = await team('viewer@acme.test');
    expect(acme.map((u) => u.email).sort()).toEqual(
      DEMO_USERS.filter((u) => u.partner === 'acme')
        .map((u) => u.email)
        .sort(),
    );
    for (const email of ['treasury@acme.test', 'admin@acme.test']) expect(await team(email)).toEqual(acme);
    expect(acme.find((u) => u.email === 'admin@acme.test')).toMatchObject({
      name: 'Ada Mensah',
      role: 'admin',
      status: 'active',
      passwordResetRequested: false,
    });
    expect(acme.find((u) => u.email === 'invited@acme.test')).toMatchObject({ status: 'invited', lastSignInAt: null });
    expect(acme.find((u) => u.email === 'inactive@acme.test')).toMatchObject({ status: 'inactive' });
    // the sign-ins of beforeAll are the last sign-ins
    expect(Date.parse(acme.find((u) => u.email === 'viewer@acme.test')!.lastSignInAt!)).toBeGreaterThan(Date.now() - 600_000);
    expect((await team('admin@kora.test')).map((u) => u.email)).toEqual(['admin@kora.test']);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/partner/users' })).statusCode).toBe(401);
  });

  it('refuses every change to treasury and view users, and changes nothing', async () => {
    const target = idOf('invited@acme.test');
    const before = await row('invited@acme.test');
    const mails = smtp.received.length;
    for (const email of ['treasury@acme.test', 'viewer@acme.test']) {
      const calls = [
        as(email).invite({ name: 'Nope', email: 'nope@acme.test', role: 'admin' }),
        as(email).update({ userId: target, role: 'admin' }),
        as(email).resendInvite(target),
        as(email).resendCode(target),
        as(email).remove(target),
        as(email).reset(idOf('viewer@acme.test')),
      ];
      for (const [i, res] of (await Promise.all(calls)).entries()) {
        expect(res.statusCode, `${email} call ${i}`).toBe(403);
        expect(res.json()).toMatchObject({ code: 'Forbidden', message: 'Only an admin can do this.' });
      }
    }
    expect(await row('invited@acme.test')).toEqual(before);
    expect((await row('viewer@acme.test')).password_reset_requested).toBe(false);
    expect(smtp.received.length).toBe(mails);
    expect(await t.database.db.selectFrom('users').select('id').where('email', '=', 'nope@acme.test').execute()).toEqual([]);
  });

  it('never reaches another partner’s users: every call answers 404 and changes nothing', async () => {
    const before = await row('invited@acme.test');
    const viewer = await row('viewer@acme.test');
    const calls: [string, Awaited<ReturnType<ReturnType<typeof as>['list']>>][] = [
      [idOf('invited@acme.test'), await as('admin@kora.test').update({ userId: idOf('invited@acme.test'), role: 'admin' })],
      [idOf('invited@acme.test'), await as('admin@kora.test').resendInvite(idOf('invited@acme.test'))],
      [idOf('viewer@acme.test'), await as('admin@kora.test').resendCode(idOf('viewer@acme.test'))],
      [idOf('invited@acme.test'), await as('admin@kora.test').remove(idOf('invited@acme.test'))],
      [idOf('viewer@acme.test'), await as('admin@kora.test').reset(idOf('viewer@acme.test'))],
    ];
    for (const [i, [userId, res]] of calls.entries()) {
      expect(res.statusCode, `call ${i} ${userId}`).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NotFound', message: TEAM_MESSAGES.notFound });
    }
    expect(await row('invited@acme.test')).toEqual(before);
    expect(await row('viewer@acme.test')).toEqual(viewer);
    // and an invitation always lands in the inviter's own partner, whatever the body says
    const res = await as('admin@kora.test').invite({ name: 'Kora Ops', email: 'ops@kora.test', role: 'view', partnerId: ACME });
    expect(res.statusCode).toBe(201);
    expect((await row('ops@kora.test')).partner_id).toBe(DEMO_PARTNERS.kora.id);
  });

  it('refuses bad input with a 400 naming the field', async () => {
    const cases: [() => ReturnType<ReturnType<typeof as>['invite']>, string][] = [
      [() => as('admin@acme.test').invite({ name: 'Jo', email: 'not-an-email', role: 'view' }), 'E-mail: Enter a valid e-mail address'],
      [() => as('admin@acme.test').invite({ name: '   ', email: 'jo@acme.test', role: 'view' }), 'Name: Enter a name'],
      [() => as('admin@acme.test').invite({ name: 'Jo', email: 'jo@acme.test', role: 'owner' }), 'Role must be one of: admin, treasury, view'],
      [() => as('admin@acme.test').update({ userId: 'nope', role: 'view' }), 'User: Unknown user'],
      [() => as('admin@acme.test').update({ userId: idOf('viewer@acme.test'), role: 'root' }), 'Role must be one of: admin, treasury, view'],
      [() => as('admin@acme.test').resendInvite('12'), 'User: Unknown user'],
      [() => as('admin@acme.test').remove('not-a-uuid'), 'User: Unknown user'],
      [() => as('admin@acme.test').reset(''), 'User: Unknown user'],
    ];
    for (const [call, field] of cases) {
      const res = await call();
      expect(res.statusCode, field).toBe(400);
      expect(res.json()).toMatchObject({ code: 'ValidationFailed' });
      expect(res.json<{ message: string }>().message).toContain(field);
    }
  });

  it('invites by e-mail over SMTP; the invitee sets a password, then an authenticator, and is signed in', async () => {
    const res = await as('admin@acme.test').invite({ name: '  Naledi Dlamini ', email: 'Naledi@Acme.test', role: 'treasury' });
    expect(res.statusCode).toBe(201);
    const invited = res.json<{ user: TeamMember }>().user;
    expect(invited).toMatchObject({ name: 'Naledi Dlamini', email: 'naledi@acme.test', role: 'treasury', status: 'invited', lastSignInAt: null });
    expect((await team()).map((u) => u.email)).toContain('naledi@acme.test');
    const mail = await mailTo('naledi@acme.test', 1);
    expect(mail).toContain('You have been invited to the Partner Dashboard of Acme Remit as treasury.');
    const temp = tempPasswordIn(mail);
    // only the hash of the temporary password is kept
    expect(JSON.stringify(await row('naledi@acme.test'))).not.toContain(temp);

    expect((await login('naledi@acme.test', temp)).json()).toMatchObject({ challengeName: 'NEW_PASSWORD_REQUIRED' });
    const set = await browser(t.app).put('/api/v1/users/password', { email: 'naledi@acme.test', password: NEW_PASSWORD, tempPassword: temp });
    expect(set.statusCode).toBe(200);
    const mfa = (await login('naledi@acme.test', NEW_PASSWORD)).json<{ challengeName: string; session: string; mfaSecret: string }>();
    expect(mfa.challengeName).toBe('MFA_SETUP');
    t.clock.now += TOTP_PERIOD * 1000;
    const done = await browser(t.app).post('/api/v1/users/verify-token', {
      session: mfa.session,
      username: 'naledi@acme.test',
      userCode: totpCode(mfa.mfaSecret, currentStep(t.clock.now)),
    });
    expect(done.statusCode).toBe(200);
    const me = await browser(t.app).get('/api/v1/partner/users', { token: done.json<{ accessToken: string }>().accessToken });
    expect(me.statusCode).toBe(200);
    expect(me.json<{ users: TeamMember[] }>().users.find((u) => u.email === 'naledi@acme.test')).toMatchObject({
      status: 'active',
      role: 'treasury',
      // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- vitest types its asymmetric matchers (expect.any, objectContaining) any
      lastSignInAt: expect.any(String),
    });
    expect(await actions()).toContain('user.invited');
  });

  it('keeps one user per e-mail address across all partners, also when invitations race', async () => {
    for (const email of ['viewer@acme.test', 'ADMIN@kora.test', 'invited@acme.test']) {
      const res = await as('admin@acme.test').invite({ name: 'Again', email, role: 'view' });
      expect(res.statusCode, email).toBe(409);
      expect(res.json()).toMatchObject({ code: 'EmailInUse', message: TEAM_MESSAGES.emailInUse });
    }
    const race = await Promise.all([
      ...Array.from({ length: 3 }, () => as('admin@acme.test').invite({ name: 'Race Acme', email: 'race@example.test', role: 'view' })),
      ...Array.from({ length: 3 }, () => as('admin@kora.test').invite({ name: 'Race Kora', email: 'race@example.test', role: 'view' })),
    ]);
    expect(race.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect(await t.database.db.selectFrom('users').select('id').where('email', '=', 'race@example.test').execute()).toHaveLength(1);
    await mailTo('race@example.test', 1);
  });

  it('resends an invitation with a new temporary password; the old one stops working', async () => {
    const id = idOf('invited@acme.test');
    const res = await as('admin@acme.test').resendInvite(id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: TEAM_MESSAGES.inviteResent('invited@acme.test') });
    const first = tempPasswordIn(await mailTo('invited@acme.test', 1));
    expect((await as('admin@acme.test').resendInvite(id)).statusCode).toBe(200);
    const second = tempPasswordIn(await mailTo('invited@acme.test', 2));
    expect(second).not.toBe(first);
    expect((await login('invited@acme.test', 'Temp-pass-2026!')).json()).toMatchObject({ code: 'InvalidLogin' });
    expect((await login('invited@acme.test', first)).json()).toMatchObject({ code: 'InvalidLogin' });
    expect((await login('invited@acme.test', second)).json()).toMatchObject({ challengeName: 'NEW_PASSWORD_REQUIRED' });
    // a user who has accepted has nothing to resend
    const active = await as('admin@acme.test').resendInvite(idOf('viewer@acme.test'));
    expect(active.statusCode).toBe(409);
    expect(active.json()).toMatchObject({ message: TEAM_MESSAGES.notInvited });
    expect(await actions()).toContain('user.invite_resent');
  });

  it('changes a role; a demoted user loses the old rights on its very next call', async () => {
    const put = () => s['treasury@acme.test']!.browser.put('/api/v1/partner/fiat-wallet', { id: 1, paymentEnabled: true }, token('treasury@acme.test'));
    const profileUser = async () =>
      (await s['treasury@acme.test']!.browser.get('/api/v1/partner/profile', token('treasury@acme.test'))).json<PartnerProfile>().user;
    // treasury may switch fiat wallets (the default one answers 400: a treasury call that passed the role check)
    expect((await put()).statusCode).toBe(400);
    expect(await profileUser()).toEqual({
      id: idOf('treasury@acme.test'),
      name: 'Thandi Nkosi',
      email: 'treasury@acme.test',
      role: 'treasury',
      partnerId: ACME,
      status: 'active',
    });
    const res = await as('admin@acme.test').update({ userId: idOf('treasury@acme.test'), role: 'view' });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ user: TeamMember }>().user).toMatchObject({ email: 'treasury@acme.test', role: 'view' });
    // the member's next read of the profile (the portal's, after `event: access`) has the new role
    expect(await profileUser()).toMatchObject({ role: 'view' });
    const refused = await put();
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'Forbidden' });
    expect((await as('admin@acme.test').update({ userId: idOf('treasury@acme.test'), role: 'treasury' })).statusCode).toBe(200);
    expect(await profileUser()).toMatchObject({ role: 'treasury' });
    expect((await put()).statusCode).toBe(400);
    const events = await t.database.db
      .selectFrom('audit_events')
      .select(['actor', 'details'])
      .where('action', '=', 'user.role_changed')
      .orderBy('created_at')
      .execute();
    expect(events.map((e) => [e.actor, e.details])).toEqual([
      ['admin@acme.test', { email: 'treasury@acme.test', from: 'treasury', to: 'view' }],
      ['admin@acme.test', { email: 'treasury@acme.test', from: 'view', to: 'treasury' }],
    ]);
  });

  describe('an admin resets a member’s password', () => {
    let code: string;
    it('ends every session of the member at once and e-mails a code', async () => {
      const viewer = s['viewer@acme.test']!;
      const second = await signIn(t, 'viewer@acme.test');
      expect((await as('viewer@acme.test').list()).statusCode).toBe(200); // its session and user are cached now
      const res = await as('admin@acme.test').reset(idOf('viewer@acme.test'));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: TEAM_MESSAGES.passwordReset('viewer@acme.test') });
      const ended = { code: 'SessionEnded', reason: 'password-reset', message: sessionEndMessage('password-reset') };
      for (const session of [viewer, second]) {
        const refused = await session.browser.get('/api/v1/partner/users', { token: session.accessToken });
        expect(refused.statusCode).toBe(401);
        expect(refused.json()).toMatchObject(ended);
        const refresh = await session.browser.post('/api/v1/users/refresh', {});
        expect(refresh.statusCode).toBe(401);
        expect(refresh.json()).toMatchObject(ended);
      }
      const mail = await mailTo('viewer@acme.test', 1);
      expect(mail).toContain('admin@acme.test, an admin of your team, reset your Partner Dashboard password');
      code = resetCodeIn(mail);
      expect((await team()).find((u) => u.email === 'viewer@acme.test')).toMatchObject({ passwordResetRequested: true, status: 'active' });
    });

    it('the next sign-in answers PASSWORD_RESET_REQUESTED (with the old password too)', async () => {
      expect((await login('viewer@acme.test', 'Portal-demo-2026!')).json()).toEqual({
        challengeName: 'PASSWORD_RESET_REQUESTED',
        userName: 'viewer@acme.test',
      });
    });

    it('resends the code: the earlier one stops working, the new one sets the password', async () => {
      const res = await as('admin@acme.test').resendCode(idOf('viewer@acme.test'));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: TEAM_MESSAGES.codeResent('viewer@acme.test') });
      const fresh = resetCodeIn(await mailTo('viewer@acme.test', 2));
      const confirm = (confirmationCode: string) =>
        browser(t.app).post('/api/v1/users/confirm-password-reset', { email: 'viewer@acme.test', password: NEW_PASSWORD, confirmationCode });
      if (fresh !== code) expect((await confirm(code)).json()).toMatchObject({ code: 'InvalidResetCode' });
      expect((await confirm(fresh)).statusCode).toBe(200);
      expect((await login('viewer@acme.test', NEW_PASSWORD)).json()).toMatchObject({ challengeName: 'SOFTWARE_TOKEN_MFA' });
      expect((await team()).find((u) => u.email === 'viewer@acme.test')).toMatchObject({ passwordResetRequested: false });
    });

    it('has no code to resend once the password is set, and no reset for an invited user', async () => {
      const none = await as('admin@acme.test').resendCode(idOf('viewer@acme.test'));
      expect(none.statusCode).toBe(409);
      expect(none.json()).toMatchObject({ message: TEAM_MESSAGES.noPendingReset });
      const invited = await as('admin@acme.test').reset(idOf('invited@acme.test'));
      expect(invited.statusCode).toBe(409);
      expect(invited.json()).toMatchObject({ message: TEAM_MESSAGES.resetNeedsActive });
      expect(await actions()).toEqual(expect.arrayContaining(['password.reset_by_admin', 'password.reset_code_resent']));
    });
  });

  describe('removing a user', () => {
    it('refuses the removed user’s token on its next call, and hides it from the team', async () => {
      const member = await signIn(t, 'treasury@acme.test');
      expect((await member.browser.get('/api/v1/partner/users', { token: member.accessToken })).statusCode).toBe(200); // cached
      // an earlier password of theirs, as a reset leaves one
      await t.database.db
        .insertInto('password_history')
        .values({ partner_id: DEMO_PARTNERS.acme.id, user_id: idOf('treasury@acme.test'), password_hash: '$argon2id$earlier', created_at: new Date() })
        .execute();
      const res = await as('admin@acme.test').remove(idOf('treasury@acme.test'));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: TEAM_MESSAGES.removed('treasury@acme.test') });
      const refused = await member.browser.get('/api/v1/partner/users', { token: member.accessToken });
      expect(refused.statusCode).toBe(401);
      const ended = { code: 'SessionEnded', reason: 'removed', message: 'You no longer have access to Acme Remit.' };
      expect(refused.json()).toMatchObject(ended);
      const refresh = await member.browser.post('/api/v1/users/refresh', {});
      expect(refresh.statusCode).toBe(401);
      expect(refresh.json()).toMatchObject(ended);
      expect((await team()).map((u) => u.email)).not.toContain('treasury@acme.test');
      // kept for the audit trail, without any secret
      expect(await row('treasury@acme.test')).toMatchObject({ status: 'deleted', password_hash: null, totp_secret_enc: null, temp_password_hash: null });
      expect(await t.database.db.selectFrom('password_history').select('id').where('user_id', '=', idOf('treasury@acme.test')).execute()).toEqual([]);
      expect(await actions()).toContain('user.deleted');
      // it signs in like an unknown address, and a second removal finds nobody
      expect((await login('treasury@acme.test', 'Portal-demo-2026!')).json()).toMatchObject({ code: 'InvalidLogin', message: AUTH_MESSAGES.invalidLogin });
      expect((await as('admin@acme.test').remove(idOf('treasury@acme.test'))).statusCode).toBe(404);
      expect((await as('admin@acme.test').update({ userId: idOf('treasury@acme.test'), role: 'admin' })).statusCode).toBe(404);
    });

    it('may be invited again by its own partner (a fresh start), never by another', async () => {
      expect((await as('admin@kora.test').invite({ name: 'Thandi', email: 'treasury@acme.test', role: 'admin' })).statusCode).toBe(409);
      const res = await as('admin@acme.test').invite({ name: 'Thandi Nkosi', email: 'treasury@acme.test', role: 'view' });
      expect(res.statusCode).toBe(201);
      expect(res.json<{ user: TeamMember }>().user).toMatchObject({ id: idOf('treasury@acme.test'), status: 'invited', role: 'view', lastSignInAt: null });
      const temp = tempPasswordIn(await mailTo('treasury@acme.test', 1));
      expect((await login('treasury@acme.test', temp)).json()).toMatchObject({ challengeName: 'NEW_PASSWORD_REQUIRED' });
    });

    it('removes an invitation: its temporary password stops working', async () => {
      const id = idOf('treasury@acme.test');
      const temp = tempPasswordIn(await mailTo('treasury@acme.test', 1));
      expect((await as('admin@acme.test').remove(id)).statusCode).toBe(200);
      expect((await login('treasury@acme.test', temp)).json()).toMatchObject({ code: 'InvalidLogin' });
    });
  });

  describe('the last active admin', () => {
    it('cannot be demoted or removed, not even by itself', async () => {
      const lean = idOf('admin@lean.test');
      for (const res of [await as('admin@lean.test').update({ userId: lean, role: 'view' }), await as('admin@lean.test').remove(lean)]) {
        expect(res.statusCode).toBe(409);
        expect(res.json()).toMatchObject({ code: 'LastAdmin', message: TEAM_MESSAGES.lastAdmin });
      }
      expect(await row('admin@lean.test')).toMatchObject({ role: 'admin', status: 'active' });
      expect((await as('admin@lean.test').list()).statusCode).toBe(200);
    });

    it('is kept when two admins demote each other, or themselves, at the same moment', async () => {
      const a = idOf('admin@acme.test');
      const b = idOf('admin2@acme.test');
      const activeAdmins = async () =>
        (
          await t.database.db
            .selectFrom('users')
            .select('email')
            .where('partner_id', '=', ACME)
            .where('role', '=', 'admin')
            .where('status', '=', 'active')
            .execute()
        ).map((r) => r.email);
      expect((await activeAdmins()).sort()).toEqual(['admin2@acme.test', 'admin@acme.test']);
      const rounds: [string, string][][] = [
        [
          ['admin@acme.test', b],
          ['admin2@acme.test', a],
        ], // each demotes the other
        [
          ['admin@acme.test', a],
          ['admin2@acme.test', b],
        ], // each demotes itself
        [
          ['admin2@acme.test', a],
          ['admin@acme.test', b],
        ],
      ];
      for (const round of rounds) {
        const answers = await Promise.all(round.map(([by, userId]) => as(by).update({ userId, role: 'view' })));
        const codes = answers.map((r) => r.statusCode);
        expect(
          codes.filter((c) => c === 200),
          JSON.stringify(answers.map((r) => r.json<unknown>())),
        ).toHaveLength(1);
        expect(codes.filter((c) => c === 403 || c === 409)).toHaveLength(1);
        const left = await activeAdmins();
        expect(left).toHaveLength(1);
        // the remaining admin restores the other
        const other = left[0] === 'admin@acme.test' ? b : a;
        expect((await as(left[0]!).update({ userId: other, role: 'admin' })).statusCode).toBe(200);
      }
      // the same for removals, in parallel: exactly one goes through, one admin stays
      const removals = await Promise.all([as('admin@acme.test').remove(a), as('admin2@acme.test').remove(b)]);
      expect(removals.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      expect(await activeAdmins()).toHaveLength(1);
    });
  });

  it('writes every change to the audit log with who made it', async () => {
    const rows = await t.database.db
      .selectFrom('audit_events')
      .select(['action', 'actor_user_id'])
      .where('partner_id', '=', ACME)
      .where('action', 'in', [
        'user.invited',
        'user.invite_resent',
        'user.role_changed',
        'user.deleted',
        'password.reset_by_admin',
        'password.reset_code_resent',
      ])
      .execute();
    expect(new Set(rows.map((r) => r.action))).toEqual(
      new Set(['user.invited', 'user.invite_resent', 'user.role_changed', 'user.deleted', 'password.reset_by_admin', 'password.reset_code_resent']),
    );
    expect(rows.every((r) => r.actor_user_id === idOf('admin@acme.test') || r.actor_user_id === idOf('admin2@acme.test'))).toBe(true);
  });
});

/** Two server instances on one PostgreSQL database: a change on one holds on the other at once. */
describe.skipIf(!process.env.TEST_DATABASE_URL)('team changes across two server instances', () => {
  let two: Awaited<ReturnType<typeof twoInstances>>;
  beforeAll(async () => {
    two = await twoInstances({ config: { LOGIN_RATE_LIMIT: '10000' } });
  });
  afterAll(async () => two?.close());

  it('a user demoted or removed on one instance is refused on the other on its next call', async () => {
    const admin = await signIn(two.a, 'admin@acme.test');
    const treasury = await signIn(two.a, 'treasury@acme.test');
    const viewer = await signIn(two.a, 'viewer@acme.test');
    const onB = browser(two.b.app);
    const switchOnB = () => onB.put('/api/v1/partner/fiat-wallet', { id: 1, paymentEnabled: true }, { token: treasury.accessToken });
    // b holds both users (and their sessions) in its caches now
    expect((await switchOnB()).statusCode).toBe(400);
    expect((await onB.get('/api/v1/partner/users', { token: viewer.accessToken })).statusCode).toBe(200);
    expect(
      (await admin.browser.post('/api/v1/users/update', { userId: idOf('treasury@acme.test'), role: 'view' }, { token: admin.accessToken })).statusCode,
    ).toBe(200);
    expect((await admin.browser.put(`/api/v1/users/delete/${idOf('viewer@acme.test')}`, {}, { token: admin.accessToken })).statusCode).toBe(200);
    expect((await switchOnB()).statusCode).toBe(403);
    expect((await onB.get('/api/v1/partner/users', { token: viewer.accessToken })).statusCode).toBe(401);
  });
});
