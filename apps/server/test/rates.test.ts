import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { COUNTRY_CURRENCIES, type Country } from '@portal/contract/countries';
import { RATE_MESSAGES, type PartnerRate } from '@portal/contract/rates';
import { DEMO_PARTNERS } from '../src/db/seed/demo.ts';
import { platformRateId } from '../src/db/reference/markets.ts';
import { enableRates, findPartnerRate, partnerRateId, requestChange, settleChange } from '../src/modules/rates/rates.repository.ts';
import { DATABASES, setupSignedIn, type Session, type TestContext } from './harness.ts';

const ACME = DEMO_PARTNERS.acme.id;
const LEAN = DEMO_PARTNERS.lean.id;

describe.each(DATABASES)('enabled countries (partner rates) on %s', (kind) => {
  let t: TestContext;
  let s: Record<string, Session>;
  beforeAll(async () => {
    ({ t, s } = await setupSignedIn(
      kind,
      ['admin@acme.test', 'admin2@acme.test', 'treasury@acme.test', 'viewer@acme.test', 'admin@kora.test', 'admin@lean.test'],
      {
        // Lean Pay is B2B; give it the flag so that it can try to reach Acme's rates
        beforeSignIn: (ctx) =>
          ctx.database.db
            .updateTable('partners')
            .set({ feature_flags: JSON.stringify({ enabledCountriesEnabled: true }) })
            .where('id', '=', LEAN)
            .execute(),
      },
    ));
  });
  afterAll(async () => {
    await t?.close();
  });
  // every test starts from the seed: Acme has NG, KE, GH and ZA enabled and nothing pending
  beforeEach(async () => {
    await t.database.db.deleteFrom('partner_rates').where('partner_id', '=', ACME).execute();
    await enableRates(
      t.database.db,
      ACME,
      (['NG', 'KE', 'GH', 'ZA'] as Country[]).map((c) => platformRateId(c, COUNTRY_CURRENCIES[c])),
    );
  });

  const as = (email: string) => ({ token: s[email]!.accessToken });
  const list = async (email = 'admin@acme.test') => {
    const res = await s[email]!.browser.get('/api/v1/partner/rates', as(email));
    expect(res.statusCode).toBe(200);
    return res.json<{ rates: PartnerRate[] }>().rates;
  };
  const rateOf = async (country: Country, email = 'admin@acme.test') => (await list(email)).find((r) => r.locale === country)!;
  const item = (r: PartnerRate, status: string) => ({ partnerRateId: r.id, platformRateId: r.rateId, status });
  const requestAs = (email: string, body: unknown) => s[email]!.browser.put('/api/v1/partner/rates', body, as(email));
  const reviewAs = (email: string, body: unknown) => s[email]!.browser.put('/api/v1/partner/rates/review', body, as(email));
  const askToEnable = async (country: Country, email = 'admin2@acme.test') => {
    const res = await requestAs(email, { rates: [item(await rateOf(country), 'pending_enable')] });
    expect(res.statusCode, res.body).toBe(200);
    return rateOf(country);
  };

  it('lists the served countries with their rates and status, without crypto, USD or US rows, to every role', async () => {
    for (const email of ['admin@acme.test', 'treasury@acme.test', 'viewer@acme.test']) {
      const rates = await list(email);
      expect(rates.map((r) => r.locale).sort()).toEqual(Object.keys(COUNTRY_CURRENCIES).sort());
      expect(rates.some((r) => r.locale === 'crypto' || r.locale === 'US' || r.code === 'USD')).toBe(false);
      const kenya = rates.find((r) => r.locale === 'KE')!;
      expect(kenya).toMatchObject({ code: 'KES', status: 'enabled', requestedBy: null, requestedAt: null, buy: '128.90000000', sell: '130.20000000' });
      expect(rates.find((r) => r.locale === 'BJ')).toMatchObject({ code: 'XOF', status: 'disabled' });
      // a partner rate's id is stable before and after its first change
      expect(kenya.id).toBe(partnerRateId(ACME, kenya.rateId));
      expect(rates.find((r) => r.locale === 'BJ')!.id).toBe(partnerRateId(ACME, platformRateId('BJ', 'XOF')));
    }
  });

  it('refuses without sign-in, and partners that have no enabled countries (commercial, or the flag off)', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/partner/rates' })).statusCode).toBe(401);
    const kora = await s['admin@kora.test']!.browser.get('/api/v1/partner/rates', as('admin@kora.test'));
    expect(kora.statusCode).toBe(403);
    expect(kora.json()).toMatchObject({ code: 'Forbidden', message: RATE_MESSAGES.notEnabled });
    const benin = await rateOf('BJ');
    expect((await requestAs('admin@kora.test', { rates: [item(benin, 'pending_enable')] })).statusCode).toBe(403);
    await t.database.db
      .updateTable('partners')
      .set({ feature_flags: JSON.stringify({}) })
      .where('id', '=', LEAN)
      .execute();
    try {
      expect((await s['admin@lean.test']!.browser.get('/api/v1/partner/rates', as('admin@lean.test'))).statusCode).toBe(403);
    } finally {
      await t.database.db
        .updateTable('partners')
        .set({ feature_flags: JSON.stringify({ enabledCountriesEnabled: true }) })
        .where('id', '=', LEAN)
        .execute();
    }
  });

  it('lets only admins ask for a change or review one', async () => {
    const benin = await rateOf('BJ');
    for (const email of ['treasury@acme.test', 'viewer@acme.test']) {
      const res = await requestAs(email, { rates: [item(benin, 'pending_enable')] });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'Forbidden' });
    }
    expect((await rateOf('BJ')).status).toBe('disabled');
    const pending = await askToEnable('BJ');
    for (const email of ['treasury@acme.test', 'viewer@acme.test']) expect((await reviewAs(email, { rates: [item(pending, 'enabled')] })).statusCode).toBe(403);
    expect((await rateOf('BJ')).status).toBe('pending_enable');
  });

  it('asks for a change: the rate becomes pending with who asked, and the other admins are e-mailed', async () => {
    // the mails of the tests before (sent after their commit, on PostgreSQL when the notification comes) go first
    await t.app.mailRelay.deliver();
    const before = t.mailer.sent.length;
    const benin = await askToEnable('BJ', 'admin2@acme.test');
    expect(benin).toMatchObject({ status: 'pending_enable', requestedBy: { id: s['admin2@acme.test']!.user.id, name: 'Kwame Boateng' } });
    expect(new Date(benin.requestedAt!).getTime()).toBe(t.clock.now);
    // written in the change's transaction, sent once it committed
    await t.app.mailRelay.deliver();
    const mails = t.mailer.sent.slice(before);
    expect(mails.map((m) => m.to)).toEqual(['admin@acme.test']);
    expect(mails[0]!.text).toContain('Enable Benin (XOF)');
    const kenya = await rateOf('KE');
    expect((await requestAs('admin@acme.test', { rates: [item(kenya, 'pending_disable')] })).statusCode).toBe(200);
    expect(await rateOf('KE')).toMatchObject({ status: 'pending_disable', requestedBy: { name: 'Ada Mensah' } });
    const audit = await t.database.db
      .selectFrom('audit_events')
      .selectAll()
      .where('partner_id', '=', ACME)
      .where('action', '=', 'partner_rate.change_requested')
      .execute();
    expect(audit.map((a) => a.details)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ locale: 'BJ', status: 'pending_enable' }),
        expect.objectContaining({ locale: 'KE', status: 'pending_disable' }),
      ]),
    );
  });

  it('never lets the admin who asked approve: another admin must', async () => {
    const benin = await askToEnable('BJ', 'admin2@acme.test');
    const own = await reviewAs('admin2@acme.test', { rates: [item(benin, 'enabled')] });
    expect(own.statusCode).toBe(403);
    expect(own.json()).toMatchObject({ code: 'FourEyesRequired', message: RATE_MESSAGES.fourEyes });
    expect((await rateOf('BJ')).status).toBe('pending_enable');
    const other = await reviewAs('admin@acme.test', { rates: [item(benin, 'enabled')] });
    expect(other.statusCode).toBe(200);
    expect(other.json()).toEqual({ isValid: true });
    expect(await rateOf('BJ')).toMatchObject({ status: 'enabled', requestedBy: null, requestedAt: null });
    const approved = await t.database.db
      .selectFrom('audit_events')
      .selectAll()
      .where('partner_id', '=', ACME)
      .where('action', '=', 'partner_rate.change_approved')
      .execute();
    expect(approved.at(-1)).toMatchObject({
      actor: 'admin@acme.test',
      target: benin.id,
      // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- vitest types its asymmetric matchers (expect.any, objectContaining) any
      details: expect.objectContaining({ locale: 'BJ', status: 'enabled', requestedBy: s['admin2@acme.test']!.user.id }),
    });
  });

  it('approves a disable; a denial restores the previous status; the one who asked may withdraw it', async () => {
    const kenya = await rateOf('KE');
    const eventsOf = async () =>
      (
        await t.database.db
          .selectFrom('audit_events')
          .select('action')
          .where('partner_id', '=', ACME)
          .where('target', '=', kenya.id)
          .orderBy('created_at')
          .orderBy('id')
          .execute()
      ).map((a) => a.action);
    const earlier = (await eventsOf()).length;
    expect((await requestAs('admin@acme.test', { rates: [item(kenya, 'pending_disable')] })).statusCode).toBe(200);
    expect((await reviewAs('admin2@acme.test', { rates: [item(kenya, 'enabled')] })).statusCode).toBe(200);
    expect((await rateOf('KE')).status).toBe('enabled');
    expect((await requestAs('admin@acme.test', { rates: [item(kenya, 'pending_disable')] })).statusCode).toBe(200);
    expect((await reviewAs('admin2@acme.test', { rates: [item(kenya, 'disabled')] })).statusCode).toBe(200);
    expect((await rateOf('KE')).status).toBe('disabled');
    // the requester withdraws their own request: a denial by them is allowed, it changes nothing
    await askToEnable('KE', 'admin@acme.test');
    expect((await reviewAs('admin@acme.test', { rates: [item(kenya, 'disabled')] })).statusCode).toBe(200);
    expect((await rateOf('KE')).status).toBe('disabled');
    expect((await eventsOf()).slice(earlier)).toEqual([
      'partner_rate.change_requested',
      'partner_rate.change_denied',
      'partner_rate.change_requested',
      'partner_rate.change_approved',
      'partner_rate.change_requested',
      'partner_rate.change_denied',
    ]);
  });

  it('refuses changes that do not follow from the current status, and applies a batch whole or not at all', async () => {
    const [kenya, benin] = [await rateOf('KE'), await rateOf('BJ')];
    const already = await requestAs('admin@acme.test', { rates: [item(kenya, 'pending_enable')] });
    expect(already.statusCode).toBe(409);
    expect(already.json()).toMatchObject({ code: 'Conflict', message: 'Kenya (KES) is already enabled.' });
    expect((await requestAs('admin@acme.test', { rates: [item(benin, 'pending_disable')] })).statusCode).toBe(409);
    const nothing = await reviewAs('admin@acme.test', { rates: [item(benin, 'enabled')] });
    expect(nothing.statusCode).toBe(409);
    expect(nothing.json<{ message: string }>().message).toBe('Benin (XOF) has no change waiting for review.');
    // Benin is fine, Kenya is not: neither changes
    const batch = await requestAs('admin@acme.test', { rates: [item(benin, 'pending_enable'), item(kenya, 'pending_enable')] });
    expect(batch.statusCode).toBe(409);
    expect((await rateOf('BJ')).status).toBe('disabled');
    await askToEnable('BJ');
    const twice = await requestAs('admin@acme.test', { rates: [item(benin, 'pending_enable')] });
    expect(twice.json()).toMatchObject({ code: 'Conflict', message: 'Benin (XOF) already has a change waiting for review.' });
  });

  it("refuses bad bodies and rates that are not the caller partner's countries", async () => {
    const benin = await rateOf('BJ');
    for (const body of [
      {},
      { rates: [] },
      { rates: [item(benin, 'enabled')] },
      { rates: [item(benin, 'pending_enable'), item(benin, 'pending_enable')] },
      { rates: [{ ...item(benin, 'pending_enable'), partnerRateId: 'not-an-id' }] },
      { rates: [item(benin, 'pending_enable')], otp: '12ab56' },
    ]) {
      const res = await requestAs('admin@acme.test', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json<{ code: string }>().code).toBe('ValidationFailed');
    }
    expect((await reviewAs('admin@acme.test', { rates: [item(benin, 'pending_enable')] })).statusCode).toBe(400);
    // a coin rate or the dollar is not a country; an unknown rate is not found
    for (const rateId of [platformRateId('crypto', 'USDT'), platformRateId('US', 'USD'), '00000000-0000-4000-8000-000000000000']) {
      const res = await requestAs('admin@acme.test', {
        rates: [{ partnerRateId: partnerRateId(ACME, rateId), platformRateId: rateId, status: 'pending_enable' }],
      });
      expect(res.statusCode).toBe(404);
    }
    // a partner rate id must be the caller's own for that platform rate
    const mismatch = await requestAs('admin@acme.test', { rates: [{ ...item(benin, 'pending_enable'), platformRateId: platformRateId('TG', 'XOF') }] });
    expect(mismatch.statusCode).toBe(404);
  });

  it("keeps partners apart: another partner's admin can neither see, ask for nor review Acme's changes", async () => {
    const benin = await askToEnable('BJ', 'admin2@acme.test');
    const leanBenin = await rateOf('BJ', 'admin@lean.test');
    expect(leanBenin.status).toBe('disabled');
    expect(leanBenin.id).not.toBe(benin.id);
    expect((await list('admin@lean.test')).some((r) => r.requestedBy !== null)).toBe(false);
    // Acme's partner rate id, sent by Lean's admin, names nothing of Lean's
    const review = await reviewAs('admin@lean.test', { rates: [item(benin, 'enabled')] });
    expect(review.statusCode).toBe(404);
    const ask = await requestAs('admin@lean.test', { rates: [item(await rateOf('KE'), 'pending_disable')] });
    expect(ask.statusCode).toBe(404);
    expect((await rateOf('BJ')).status).toBe('pending_enable');
    expect((await rateOf('KE')).status).toBe('enabled');
    // Lean's own change stays Lean's
    expect((await requestAs('admin@lean.test', { rates: [item(leanBenin, 'pending_enable')] })).statusCode).toBe(200);
    expect((await rateOf('BJ', 'admin@lean.test')).status).toBe('pending_enable');
    expect((await rateOf('BJ')).requestedBy?.name).toBe('Kwame Boateng');
    await t.database.db.deleteFrom('partner_rates').where('partner_id', '=', LEAN).execute();
  });

  it('lets one of two reviewers at once act, and one of two requests at once', async () => {
    const benin = await askToEnable('BJ', 'admin2@acme.test');
    const reviews = await Promise.all([
      reviewAs('admin@acme.test', { rates: [item(benin, 'enabled')] }),
      reviewAs('admin@acme.test', { rates: [item(benin, 'enabled')] }),
      reviewAs('admin2@acme.test', { rates: [item(benin, 'disabled')] }),
    ]);
    const codes = reviews.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 409, 409]);
    const settled = (await rateOf('BJ')).status;
    expect(reviews.findIndex((r) => r.statusCode === 200) === 2 ? 'disabled' : 'enabled').toBe(settled);
    const togo = await rateOf('TG');
    const requests = await Promise.all([
      requestAs('admin@acme.test', { rates: [item(togo, 'pending_enable')] }),
      requestAs('admin2@acme.test', { rates: [item(togo, 'pending_enable')] }),
    ]);
    expect(requests.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const winner = requests[0].statusCode === 200 ? 'Ada Mensah' : 'Kwame Boateng';
    expect((await rateOf('TG')).requestedBy?.name).toBe(winner);
  });

  it('moves a rate only from the status the caller saw, and never approves for the one who asked, in the statement itself', async () => {
    const benin = await askToEnable('BJ', 'admin2@acme.test');
    const [admin, admin2] = [s['admin@acme.test']!.user.id, s['admin2@acme.test']!.user.id];
    const settle = (from: 'pending_enable' | 'pending_disable', to: 'enabled' | 'disabled', reviewerId: string, approval: boolean) =>
      t.database.db.transaction().execute((trx) => settleChange(trx, { partnerId: ACME, id: benin.id, from, to, reviewerId, at: new Date(), approval }));
    expect(await settle('pending_disable', 'disabled', admin, true)).toBeUndefined();
    expect(await settle('pending_enable', 'enabled', admin2, true)).toBeUndefined();
    expect(await settle('pending_enable', 'enabled', admin, true)).toMatchObject({ status: 'enabled' });
    expect(await settle('pending_enable', 'disabled', admin, false)).toBeUndefined();
    const ask = (from: 'enabled' | 'disabled') =>
      t.database.db
        .transaction()
        .execute((trx) =>
          requestChange(trx, { partnerId: ACME, id: benin.id, platformRateId: benin.rateId, from, to: 'pending_enable', userId: admin2, at: new Date() }),
        );
    expect(await ask('disabled')).toBeUndefined();
    expect((await rateOf('BJ')).status).toBe('enabled');
  });

  it.runIf(kind === 'postgres')('lets one of two reviewers act when both read the change as pending before either wrote', async () => {
    const benin = await askToEnable('BJ', 'admin2@acme.test');
    const admin = s['admin@acme.test']!.user.id;
    let arrived = 0;
    let release!: () => void;
    const bothRead = new Promise<void>((resolve) => (release = resolve));
    const review = (to: 'enabled' | 'disabled') =>
      t.database.db.transaction().execute(async (trx) => {
        expect((await findPartnerRate(trx, ACME, benin.id))?.status).toBe('pending_enable');
        if (++arrived === 2) release();
        await bothRead;
        return settleChange(trx, { partnerId: ACME, id: benin.id, from: 'pending_enable', to, reviewerId: admin, at: new Date(), approval: to === 'enabled' });
      });
    const results = await Promise.all([review('enabled'), review('disabled')]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect((await rateOf('BJ')).status).toBe(results[0] ? 'enabled' : 'disabled');
  });

  it('takes an e-mailed code when one is sent: a wrong one changes nothing, a right one is used up', async () => {
    const benin = await rateOf('BJ');
    const purpose = { action: 'country.status', target: { rates: [item(benin, 'pending_enable')] } };
    const send = await s['admin@acme.test']!.browser.put('/api/v1/user/otp', purpose, as('admin@acme.test'));
    expect(send.statusCode, send.body).toBe(200);
    const text = t.mailer.sent.at(-1)!.text;
    expect(text).toContain('to enable Benin (');
    const code = /verification code is (\d{6})/.exec(text)![1]!;
    const wrong = await requestAs('admin@acme.test', { rates: [item(benin, 'pending_enable')], otp: String((Number(code) + 1) % 1_000_000).padStart(6, '0') });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'InvalidOtp' });
    expect((await rateOf('BJ')).status).toBe('disabled');
    expect((await requestAs('admin@acme.test', { rates: [item(benin, 'pending_enable')], otp: code })).statusCode).toBe(200);
    expect((await rateOf('BJ')).status).toBe('pending_enable');
    const togo = await rateOf('TG');
    expect((await requestAs('admin@acme.test', { rates: [item(togo, 'pending_enable')], otp: code })).json()).toMatchObject({ code: 'InvalidOtp' });
    expect((await rateOf('TG')).status).toBe('disabled');
  });

  it('checks country changes before a code is sent, and binds the code to them', async () => {
    const togo = await rateOf('TG');
    const ask = (email: string, rates: unknown[]) => s[email]!.browser.put('/api/v1/user/otp', { action: 'country.status', target: { rates } }, as(email));
    // already pending: refused as the change would be, no mail
    const benin = await askToEnable('BJ');
    await t.app.mailRelay.deliver();
    const before = t.mailer.sent.length;
    const pending = await ask('admin@acme.test', [item(benin, 'pending_enable')]);
    expect(pending.statusCode).toBe(409);
    expect((await ask('viewer@acme.test', [item(togo, 'pending_enable')])).statusCode).toBe(403);
    expect(t.mailer.sent.length).toBe(before);
    t.clock.now += 11 * 60_000;
    expect((await ask('admin@acme.test', [item(togo, 'pending_enable')])).statusCode).toBe(200);
    const code = /verification code is (\d{6})/.exec(t.mailer.sent.at(-1)!.text)![1]!;
    // the code confirms enabling Togo, not disabling it, nor another country
    const other = await requestAs('admin@acme.test', { rates: [item(togo, 'pending_disable')], otp: code });
    expect(other.json()).toMatchObject({ code: 'OtpForAnotherChange' });
    expect((await requestAs('admin@acme.test', { rates: [item(togo, 'pending_enable')], otp: code })).statusCode).toBe(200);
  });

  it("refuses a deleted admin's token on its next call", async () => {
    const benin = await askToEnable('BJ', 'admin2@acme.test');
    const admin2 = s['admin2@acme.test']!.user.id;
    await t.database.db.updateTable('users').set({ status: 'inactive' }).where('id', '=', admin2).execute();
    await t.app.cacheBus.invalidate('user', `${ACME}:${admin2}`);
    try {
      const res = await reviewAs('admin2@acme.test', { rates: [item(benin, 'disabled')] });
      expect(res.statusCode).toBe(401);
      // the request stands; the remaining admin may still review it
      expect(await rateOf('BJ')).toMatchObject({ status: 'pending_enable', requestedBy: { name: 'Kwame Boateng' } });
    } finally {
      await t.database.db.updateTable('users').set({ status: 'active' }).where('id', '=', admin2).execute();
      await t.app.cacheBus.invalidate('user', `${ACME}:${admin2}`);
    }
  });
});
