import crypto from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '@portal/contract/auth';
import { sessionEndMessage } from '@portal/contract/live';
import type { NotificationList } from '@portal/contract/notifications';
import type { PartnerProfile } from '@portal/contract/partner';
import { INVITATION_DAYS, TEAM_MESSAGES, type TeamMember } from '@portal/contract/team';
import { DEMO_INVITATION_TOKEN, DEMO_PARTNERS, DEMO_USERS } from '../src/db/seed/demo.ts';
import { utcText } from '../src/modules/notifications/index.ts';
import { migrateToLatest, migrator } from '../src/db/migrate.ts';
import { hashPassword } from '../src/lib/passwords.ts';
import { currentStep, totpCode, TOTP_PERIOD } from '../src/lib/totp.ts';
import { DATABASES, browser, setupOverSmtp, setupSignedInOverSmtp, signIn, twoInstances, type Session, type TestContext } from './harness.ts';
import { mailText, type Sink } from './smtp-sink.ts';

const ACME = DEMO_PARTNERS.acme.id;
const idOf = (email: string) => DEMO_USERS.find((u) => u.email === email)!.id;
const NEW_PASSWORD = 'Kilimanjaro-Sunrise-42';

describe.each(DATABASES)('the team on %s', (kind) => {
  let t: TestContext;
  let smtp: Sink;
  let s: Record<string, Session>;
  beforeAll(async () => {
    ({ t, s, smtp } = await setupSignedInOverSmtp(kind, [
      'admin@acme.test',
      'admin2@acme.test',
      'treasury@acme.test',
      'viewer@acme.test',
      'admin@kora.test',
      'admin@lean.test',
    ]));
  });
  afterAll(async () => {
    await t?.close();
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
  /** The `count`th mail to `email` (a role change's notice aside: the member is told of each, see its test). */
  async function mailTo(email: string, count: number) {
    const to = () => smtp.received.filter((m) => m.to.includes(email) && !mailText(m.raw).includes('Your role is now'));
    await expect.poll(() => to().length).toBe(count);
    return mailText(to().at(-1)!.raw);
  }
  /** The one-time token of the invitation link in a mail. */
  const linkIn = (text: string) => /\/accept-invitation#token=([\w.-]+)/.exec(text)![1]!;
  const invitation = (email: string, partnerId = ACME) =>
    t.database.db.selectFrom('invitations').selectAll().where('partner_id', '=', partnerId).where('email', '=', email).executeTakeFirst();
  const lookup = (token: string) => browser(t.app).post('/api/v1/users/invitation', { token });
  const accept = (email: string, tempPassword: string, password = NEW_PASSWORD) =>
    browser(t.app).put('/api/v1/users/password', { email, password, tempPassword });
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
    const before = await invitation('invited@acme.test');
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
    expect(await invitation('invited@acme.test')).toEqual(before);
    expect((await row('viewer@acme.test')).password_reset_requested).toBe(false);
    expect(smtp.received.length).toBe(mails);
    expect(await invitation('nope@acme.test')).toBeUndefined();
  });

  it('never reaches another partner’s users or invitations: every call answers 404 and changes nothing', async () => {
    const before = await invitation('invited@acme.test');
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
    expect(await invitation('invited@acme.test')).toEqual(before);
    expect(await row('viewer@acme.test')).toEqual(viewer);
    // and an invitation always lands in the inviter's own partner, whatever the body says
    const res = await as('admin@kora.test').invite({ name: 'Kora Ops', email: 'ops@kora.test', role: 'view', partnerId: ACME });
    expect(res.statusCode).toBe(201);
    expect(await invitation('ops@kora.test')).toBeUndefined();
    expect((await invitation('ops@kora.test', DEMO_PARTNERS.kora.id))?.partner_id).toBe(DEMO_PARTNERS.kora.id);
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

  it('invites by e-mail over SMTP with a one-time link; the invitee chooses a password, then an authenticator', async () => {
    const res = await as('admin@acme.test').invite({ name: '  Naledi Dlamini ', email: 'Naledi@Acme.test', role: 'treasury' });
    expect(res.statusCode).toBe(201);
    const invited = res.json<{ user: TeamMember; mailSent: boolean }>();
    expect(invited).toMatchObject({
      mailSent: true,
      user: { name: 'Naledi Dlamini', email: 'naledi@acme.test', role: 'treasury', status: 'invited', lastSignInAt: null },
    });
    const expiresAt = Date.parse(invited.user.invitationExpiresAt!);
    expect(expiresAt).toBe(t.clock.now + INVITATION_DAYS * 24 * 3600_000);
    expect((await team()).find((u) => u.email === 'naledi@acme.test')).toEqual(invited.user);
    // no account exists before the link is used
    expect(await t.database.db.selectFrom('users').select('id').where('email', '=', 'naledi@acme.test').execute()).toEqual([]);
    const mail = await mailTo('naledi@acme.test', 1);
    expect(mail).toContain('You have been invited by admin@acme.test to the Partner Dashboard of Acme Remit as Treasury.');
    expect(mail).toContain(`The link works once, and until ${utcText(new Date(expiresAt))}.`);
    expect(mail).not.toMatch(/password:/i);
    const token = linkIn(mail);
    // only the link's hash is kept
    expect(JSON.stringify(await invitation('naledi@acme.test'))).not.toContain(token);

    const seen = await lookup(token);
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toEqual({
      email: 'naledi@acme.test',
      name: 'Naledi Dlamini',
      role: 'treasury',
      partnerName: 'Acme Remit',
      expiresAt: invited.user.invitationExpiresAt,
    });
    // the token opens only its own address
    expect((await accept('viewer@acme.test', token)).json()).toMatchObject({ code: 'InvitationInvalid', message: TEAM_MESSAGES.invitationInvalid });
    const set = await accept('naledi@acme.test', token);
    expect(set.statusCode, set.body).toBe(200);
    // once only: a used link opens nothing
    expect((await lookup(token)).json()).toMatchObject({ code: 'InvitationInvalid' });
    expect((await accept('naledi@acme.test', token, 'Another-Sunrise-2027')).json()).toMatchObject({ code: 'InvitationInvalid' });
    expect(await invitation('naledi@acme.test')).toBeUndefined();

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
      id: invited.user.id,
      status: 'active',
      role: 'treasury',
      invitationExpiresAt: null,
      // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- vitest types its asymmetric matchers (expect.any, objectContaining) any
      lastSignInAt: expect.any(String),
    });
    expect(await actions()).toEqual(expect.arrayContaining(['user.invited', 'user.joined']));
  });

  it('refuses a link that is unknown, mistyped or expired, with one message', async () => {
    for (const token of ['not-a-token', DEMO_INVITATION_TOKEN.slice(0, -1)]) {
      const res = await lookup(token);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'InvitationInvalid', message: TEAM_MESSAGES.invitationInvalid });
    }
    expect((await lookup('')).json()).toMatchObject({ code: 'ValidationFailed' });
    const res = await as('admin@acme.test').invite({ name: 'Late Comer', email: 'late@acme.test', role: 'view' });
    const token = linkIn(await mailTo('late@acme.test', 1));
    // its time runs out (the clock is left alone: the sessions of this file live on it)
    await t.database.db
      .updateTable('invitations')
      .set({ expires_at: new Date(t.clock.now) })
      .where('email', '=', 'late@acme.test')
      .execute();
    // expired: listed as such, the link opens nothing
    expect((await team()).find((u) => u.email === 'late@acme.test')).toMatchObject({ status: 'expired' });
    expect((await lookup(token)).json()).toMatchObject({ code: 'InvitationInvalid' });
    expect((await accept('late@acme.test', token)).json()).toMatchObject({ code: 'InvitationInvalid' });
    // a resend makes a new link that works for INVITATION_DAYS again
    expect((await as('admin@acme.test').resendInvite(res.json<{ user: TeamMember }>().user.id)).statusCode).toBe(200);
    const fresh = linkIn(await mailTo('late@acme.test', 2));
    expect((await team()).find((u) => u.email === 'late@acme.test')).toMatchObject({ status: 'invited' });
    expect((await lookup(fresh)).statusCode).toBe(200);
    expect((await accept('late@acme.test', token)).json()).toMatchObject({ code: 'InvitationInvalid' });
    expect((await accept('late@acme.test', fresh)).statusCode).toBe(200);
  });

  it('tells nobody who has an account at another partner: such an invitation answers, lists and audits as any other', async () => {
    // within its own team an admin sees its members and invitations anyway: those are refused
    const member = await as('admin@acme.test').invite({ name: 'Again', email: 'viewer@acme.test', role: 'view' });
    expect(member.statusCode).toBe(409);
    expect(member.json()).toMatchObject({ code: 'EmailInUse', message: TEAM_MESSAGES.emailInUse });
    const pending = await as('admin@acme.test').invite({ name: 'Again', email: 'invited@acme.test', role: 'view' });
    expect(pending.statusCode).toBe(409);
    expect(pending.json()).toMatchObject({ code: 'AlreadyInvited', message: TEAM_MESSAGES.alreadyInvited });

    // Kora's admin, and an address nobody has: the same answer, the same listing
    const mails = smtp.received.length;
    const taken = await as('admin@acme.test').invite({ name: 'Kwame Asante', email: 'ADMIN@kora.test', role: 'view' });
    const fresh = await as('admin@acme.test').invite({ name: 'Kwame Mensah', email: 'kwame@example.test', role: 'view' });
    const shape = (res: typeof taken) => {
      const body = res.json<{ user: TeamMember; mailSent: boolean }>();
      return {
        status: res.statusCode,
        mailSent: body.mailSent,
        keys: Object.keys(body.user).sort(),
        userStatus: body.user.status,
        reset: body.user.passwordResetRequested,
      };
    };
    expect(shape(taken)).toEqual(shape(fresh));
    expect(shape(taken)).toMatchObject({ status: 201, mailSent: true, userStatus: 'invited' });
    const listed = await team();
    expect(listed.find((u) => u.email === 'admin@kora.test')).toMatchObject({ status: 'invited', lastSignInAt: null });
    // the owner of the address is told, privately, and given no link; no second account is made
    const notice = await mailTo('admin@kora.test', 1);
    expect(notice).toContain('This e-mail address already has a Partner Dashboard account');
    expect(notice).not.toContain('accept-invitation');
    expect(linkIn(await mailTo('kwame@example.test', 1))).toBeTruthy();
    expect(smtp.received.length).toBe(mails + 2);
    expect(await t.database.db.selectFrom('users').select('partner_id').where('email', '=', 'admin@kora.test').execute()).toEqual([
      { partner_id: DEMO_PARTNERS.kora.id },
    ]);
    // Kora's admin still signs in to Kora
    expect((await login('admin@kora.test', 'Portal-demo-2026!')).json()).toMatchObject({ challengeName: 'SOFTWARE_TOKEN_MFA' });
  });

  it('makes one account per address when two partners’ invitations race, and tells the loser only through its link', async () => {
    const race = await Promise.all([
      ...Array.from({ length: 3 }, () => as('admin@acme.test').invite({ name: 'Race Acme', email: 'race@example.test', role: 'view' })),
      ...Array.from({ length: 3 }, () => as('admin@kora.test').invite({ name: 'Race Kora', email: 'race@example.test', role: 'view' })),
    ]);
    expect(race.map((r) => r.statusCode).sort()).toEqual([201, 201, 409, 409, 409, 409]);
    expect(race.filter((r) => r.statusCode === 409).map((r) => r.json<{ code: string }>().code)).toEqual(Array(4).fill('AlreadyInvited'));
    await expect.poll(() => smtp.received.filter((m) => m.to.includes('race@example.test')).length).toBe(2);
    const tokens = smtp.received.filter((m) => m.to.includes('race@example.test')).map((m) => linkIn(mailText(m.raw)));
    const accepted = await Promise.all(tokens.map((token) => accept('race@example.test', token)));
    expect(accepted.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(accepted.find((r) => r.statusCode === 409)!.json()).toMatchObject({ code: 'EmailInUse', message: TEAM_MESSAGES.accountExists });
    expect(await t.database.db.selectFrom('users').select('id').where('email', '=', 'race@example.test').execute()).toHaveLength(1);
  });

  it('resends an invitation with a new link; the earlier link stops working; a member has nothing to resend', async () => {
    const id = idOf('invited@acme.test');
    expect((await lookup(DEMO_INVITATION_TOKEN)).statusCode).toBe(200);
    const res = await as('admin@acme.test').resendInvite(id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: TEAM_MESSAGES.inviteResent('invited@acme.test') });
    const first = linkIn(await mailTo('invited@acme.test', 1));
    expect((await as('admin@acme.test').resendInvite(id)).statusCode).toBe(200);
    const mail = await mailTo('invited@acme.test', 2);
    expect(mail).toContain('This invitation replaces the earlier one: its link no longer works.');
    const second = linkIn(mail);
    expect(second).not.toBe(first);
    for (const old of [DEMO_INVITATION_TOKEN, first]) expect((await lookup(old)).json()).toMatchObject({ code: 'InvitationInvalid' });
    expect((await lookup(second)).json()).toMatchObject({ email: 'invited@acme.test', role: 'view' });
    // a user who has accepted has nothing to resend
    const active = await as('admin@acme.test').resendInvite(idOf('viewer@acme.test'));
    expect(active.statusCode).toBe(409);
    expect(active.json()).toMatchObject({ message: TEAM_MESSAGES.notInvited });
    expect(await actions()).toContain('user.invite_resent');
  });

  it('changes an invitation’s role before it is used; the invitee joins with it', async () => {
    const res = await as('admin@acme.test').invite({ name: 'Role Later', email: 'role-later@acme.test', role: 'view' });
    const id = res.json<{ user: TeamMember }>().user.id;
    const token = linkIn(await mailTo('role-later@acme.test', 1));
    const changed = await as('admin@acme.test').update({ userId: id, role: 'treasury' });
    expect(changed.statusCode).toBe(200);
    expect(changed.json<{ user: TeamMember }>().user).toMatchObject({ id, role: 'treasury', status: 'invited' });
    expect((await accept('role-later@acme.test', token)).statusCode).toBe(200);
    expect((await team()).find((u) => u.email === 'role-later@acme.test')).toMatchObject({ role: 'treasury', status: 'active' });
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
    // and the member is told, in the bell (and by e-mail), who changed it from what to what; nobody else is
    const bell = async (email: string) =>
      (await s[email]!.browser.get('/api/v1/notifications', token(email))).json<NotificationList>().items.filter((n) => n.topic === 'account');
    const told = (await bell('treasury@acme.test'))[0];
    expect(told).toMatchObject({ title: 'Your role is now View only', link: '/settings' });
    expect(told?.body).toContain('changed your role in the Partner Dashboard of Acme Remit from Treasury to View only');
    expect(await bell('admin@acme.test')).toEqual([]);
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
      .where('target', '=', idOf('treasury@acme.test'))
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
      expect(await row('treasury@acme.test')).toMatchObject({ status: 'deleted', password_hash: null, totp_secret_enc: null });
      expect(await t.database.db.selectFrom('password_history').select('id').where('user_id', '=', idOf('treasury@acme.test')).execute()).toEqual([]);
      expect(await actions()).toContain('user.deleted');
      // it signs in like an unknown address, and a second removal finds nobody
      expect((await login('treasury@acme.test', 'Portal-demo-2026!')).json()).toMatchObject({ code: 'InvalidLogin', message: AUTH_MESSAGES.invalidLogin });
      expect((await as('admin@acme.test').remove(idOf('treasury@acme.test'))).statusCode).toBe(404);
      expect((await as('admin@acme.test').update({ userId: idOf('treasury@acme.test'), role: 'admin' })).statusCode).toBe(404);
    });

    it('may be invited again by its own partner (a fresh start, the same user); another partner’s invitation makes no account', async () => {
      expect((await as('admin@kora.test').invite({ name: 'Thandi', email: 'treasury@acme.test', role: 'admin' })).statusCode).toBe(201);
      expect(await mailTo('treasury@acme.test', 1)).not.toContain('accept-invitation');
      const res = await as('admin@acme.test').invite({ name: 'Thandi Nkosi', email: 'treasury@acme.test', role: 'view' });
      expect(res.statusCode).toBe(201);
      expect(res.json<{ user: TeamMember }>().user).toMatchObject({ status: 'invited', role: 'view', lastSignInAt: null });
      const token = linkIn(await mailTo('treasury@acme.test', 2));
      expect((await accept('treasury@acme.test', token)).statusCode).toBe(200);
      expect(await row('treasury@acme.test')).toMatchObject({
        id: idOf('treasury@acme.test'),
        partner_id: ACME,
        status: 'active',
        role: 'view',
        totp_secret_enc: null,
      });
      expect((await login('treasury@acme.test', NEW_PASSWORD)).json()).toMatchObject({ challengeName: 'MFA_SETUP' });
      // Kora's invitation stays listed there as any unanswered one; it can never be used
      expect((await team('admin@kora.test')).find((u) => u.email === 'treasury@acme.test')).toMatchObject({ status: 'invited' });
    });

    it('withdraws an invitation: its link stops working and it leaves the list', async () => {
      const res = await as('admin@acme.test').invite({ name: 'Gone Soon', email: 'gone@acme.test', role: 'view' });
      const id = res.json<{ user: TeamMember }>().user.id;
      const token = linkIn(await mailTo('gone@acme.test', 1));
      const removed = await as('admin@acme.test').remove(id);
      expect(removed.statusCode).toBe(200);
      expect(removed.json()).toEqual({ message: TEAM_MESSAGES.invitationWithdrawn('gone@acme.test') });
      expect((await team()).map((u) => u.email)).not.toContain('gone@acme.test');
      expect((await accept('gone@acme.test', token)).json()).toMatchObject({ code: 'InvitationInvalid' });
      expect((await as('admin@acme.test').remove(id)).statusCode).toBe(404);
      expect(await actions()).toContain('user.invitation_withdrawn');
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
    const changes = [
      'user.invited',
      'user.invite_resent',
      'user.role_changed',
      'user.deleted',
      'user.invitation_withdrawn',
      'password.reset_by_admin',
      'password.reset_code_resent',
    ];
    const rows = await t.database.db
      .selectFrom('audit_events')
      .select(['action', 'actor_user_id'])
      .where('partner_id', '=', ACME)
      .where('action', 'in', changes)
      .execute();
    expect(new Set(rows.map((r) => r.action))).toEqual(new Set(changes));
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

/** Users invited before invitations were links: each becomes an expired invitation, and its new link brings back the same user. */
describe.each(DATABASES)('invited users from before one-time links, on %s', (kind) => {
  let t: TestContext;
  let smtp: Sink;
  beforeAll(async () => {
    ({ t, smtp } = await setupOverSmtp(kind, { config: { LOGIN_RATE_LIMIT: '10000' } }));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('turns them into expired invitations to resend; their temporary passwords stop working', async () => {
    const db = t.database.db;
    const { error } = await migrator(db).migrateTo('0033-password-history');
    expect(error).toBeUndefined();
    const id = crypto.randomUUID();
    await sql`
      insert into users (partner_id, id, name, email, role, status, temp_password_hash)
      values (${ACME}, ${id}, 'Old Invite', 'old-invite@acme.test', 'treasury', 'invited', ${await hashPassword('Old-temp-2026!')})
    `.execute(db);
    expect((await migrateToLatest(db))[0]).toBe('0034-invitations');

    expect((await browser(t.app).post('/api/v1/users/login', { email: 'old-invite@acme.test', password: 'Old-temp-2026!' })).json()).toMatchObject({
      code: 'InvalidLogin',
    });
    const admin = await signIn(t, 'admin@acme.test');
    const listed = (await admin.browser.get('/api/v1/partner/users', { token: admin.accessToken })).json<{ users: TeamMember[] }>().users;
    expect(listed.find((u) => u.email === 'old-invite@acme.test')).toMatchObject({ id, status: 'expired', role: 'treasury' });
    expect((await admin.browser.post('/api/v1/users/resend-invite', { userId: id }, { token: admin.accessToken })).statusCode).toBe(200);
    await expect.poll(() => smtp.received.length).toBe(1);
    const token = /#token=([\w.-]+)/.exec(mailText(smtp.received[0]!.raw))![1]!;
    const accepted = await browser(t.app).put('/api/v1/users/password', { email: 'old-invite@acme.test', password: NEW_PASSWORD, tempPassword: token });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(await db.selectFrom('users').select(['id', 'status', 'role']).where('email', '=', 'old-invite@acme.test').execute()).toEqual([
      { id, status: 'active', role: 'treasury' },
    ]);
  });
});
