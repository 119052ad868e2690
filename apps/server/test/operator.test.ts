import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorService } from './operator-support.ts';
import { DATABASES, browser, setupOverSmtp, testMailer, type TestContext } from './harness.ts';
import { mailText, type Sink } from './smtp-sink.ts';

describe.each(DATABASES)('operator set-up on %s', (kind) => {
  let t: TestContext;
  let smtp: Sink;
  beforeAll(async () => {
    ({ t, smtp } = await setupOverSmtp(kind, { seed: false }));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('creates a partner, sets its flags and invites its first admin by SMTP, who can then sign in', async () => {
    const mailer = testMailer(t, smtp.url);
    const operator = operatorService({ db: t.database.db, live: t.app.liveBus, mailer, publicUrl: 'https://portal.example' });
    const partner = await operator.createPartner({ name: 'Savanna Pay', abbreviation: 'svp', productType: 'B2B', featureFlags: ['reportDownloadsEnabled'] });
    expect(partner).toMatchObject({ name: 'Savanna Pay', abbreviation: 'SVP', isB2B: true, fiatWalletsEnabled: false });
    await expect(operator.createPartner({ name: 'Other', abbreviation: 'SVP', productType: 'B2B' })).rejects.toThrow(/exists already/);
    await expect(operator.createPartner({ name: '', abbreviation: 'x', productType: 'B2B' })).rejects.toThrow();

    const flags = await operator.setFeatureFlags(partner.id, { webhooksManagementEnabled: true, reportDownloadsEnabled: false });
    expect(flags).toMatchObject({ webhooksManagementEnabled: true, reportDownloadsEnabled: false, apiKeysManagementEnabled: false });

    const invited = await operator.inviteUser({ partnerId: partner.id, name: 'Jo Admin', email: 'Jo@Savanna.example', role: 'admin' });
    expect(invited.email).toBe('jo@savanna.example');
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.to).toEqual(['jo@savanna.example']);
    // the mail holds the one-time link the operator is also given (to hand over when no mail could leave)
    const token = /#token=([\w.-]+)/.exec(mailText(smtp.received[0]!.raw))![1]!;
    expect(invited.link).toBe(`https://portal.example/accept-invitation#token=${token}`);
    const outbox = await t.database.db.selectFrom('mail_outbox').select(['status', 'to_address']).execute();
    expect(outbox).toEqual([{ status: 'sent', to_address: 'jo@savanna.example' }]);
    await expect(operator.inviteUser({ partnerId: partner.id, name: 'Again', email: 'jo@savanna.example', role: 'view' })).rejects.toMatchObject({
      code: 'AlreadyInvited',
    });

    const accept = await browser(t.app).put('/api/v1/users/password', { email: 'jo@savanna.example', password: 'Savanna-Sunrise-2026', tempPassword: token });
    expect(accept.statusCode, accept.body).toBe(200);
    const login = await browser(t.app).post('/api/v1/users/login', { email: 'jo@savanna.example', password: 'Savanna-Sunrise-2026' });
    expect(login.json()).toMatchObject({ challengeName: 'MFA_SETUP', userName: 'jo@savanna.example' });
    const actions = await t.database.db.selectFrom('audit_events').select('action').where('partner_id', '=', partner.id).execute();
    expect(actions.map((a) => a.action)).toEqual(expect.arrayContaining(['partner.created', 'partner.flags_changed', 'user.invited', 'user.joined']));
  });

  it('keeps a failed delivery in the outbox as failed', async () => {
    const mailer = testMailer(t, 'smtp://127.0.0.1:1');
    await expect(mailer.send({ to: 'nobody@portal.test', subject: 's', text: 't' })).rejects.toMatchObject({ statusCode: 503, code: 'MailUnavailable' });
    const row = await t.database.db
      .selectFrom('mail_outbox')
      .select(['status', 'error'])
      .where('to_address', '=', 'nobody@portal.test')
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('failed');
    expect(row.error).toBeTruthy();
  });
});
