import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationList, NotificationPreferences } from '@portal/contract/notifications';
import type { PartnerRate } from '@portal/contract/rates';
import type { SettlementWallet } from '@portal/contract/wallets';
import { DEMO_PARTNERS } from '../src/db/seed/demo.ts';
import { simulatedPayer } from '../src/modules/withdrawals/payer.ts';
import { ledgerSummary } from '../src/modules/ledger/ledger.repository.ts';
import { DATABASES, type TestContext } from './harness.ts';
import { mailText, type Sink } from './smtp-sink.ts';
import { ACME_TRAVEL_RULE, until, withdrawalBody, withdrawalSetup, type TestPayer, type walletActors } from './wallet-support.ts';

const ADMIN = 'admin@acme.test';
const ADMIN2 = 'admin2@acme.test';
const TREASURY = 'treasury@acme.test';
const VIEWER = 'viewer@acme.test';
const KORA = 'admin@kora.test';
const ACME = DEMO_PARTNERS.acme.id;
const PUBLIC_URL = 'https://portal.example';

/** Withdrawals of an amount ending in .13 cannot be sent (the failed path); the rest go through. */
const payer: TestPayer = (amountOf) => ({
  async send(p) {
    return (await amountOf(p.settlementId)).endsWith('.13') ? { ok: false, reason: 'The network refused the transaction' } : simulatedPayer.send(p);
  },
  confirm: () => Promise.resolve({ ok: true }),
});

/** A received mail as a person reads it: recipient, subject and text (quoted-printable decoded, UTF-8). */
function readMail(m: { to: string[]; raw: string }) {
  const raw = mailText(m.raw);
  const subject = /^Subject: (.*)$/m.exec(raw)?.[1] ?? '';
  const text = raw.slice(raw.indexOf('\r\n\r\n') + 4);
  return { to: m.to[0]!, subject, text };
}

describe.each(DATABASES)('notifications on %s', (kind) => {
  let t: TestContext;
  let smtp: Sink;
  let w: Awaited<ReturnType<typeof walletActors>>;
  let wallet: SettlementWallet;

  beforeAll(async () => {
    ({ t, w, wallet, smtp } = await withdrawalSetup(kind, {
      payer,
      users: [ADMIN, ADMIN2, TREASURY, VIEWER, KORA],
      config: { WITHDRAWAL_MAX_USD: '30000.00', PUBLIC_URL },
    }));
  });
  /** Every withdrawal of the tests has ended (its job done, and so its notifications written). */
  const withdrawalsFinished = () =>
    until(
      async () =>
        (await t.database.db
          .selectFrom('settlements')
          .select('id')
          .where('partner_id', '=', ACME)
          .where('status', 'in', ['pending', 'processing'])
          .executeTakeFirst()) === undefined,
      'withdrawals finished',
    );
  afterAll(async () => {
    // the withdrawals' jobs finish first: a job that ends after the pool closed would reject into the void
    if (t) await withdrawalsFinished();
    await t?.close();
  });

  const get = (email: string, url: string) => w.as(email).browser.get(`/api/v1/${url}`, w.opts(email));
  const list = async (email: string) => {
    const res = await get(email, 'notifications');
    expect(res.statusCode, res.body).toBe(200);
    return res.json<NotificationList>();
  };
  /** Everything sent so far is delivered, then the mails from index `from` on, as read. */
  const mailsSince = async (from: number) => {
    await t.app.mailRelay.deliver();
    return smtp.received.slice(from).map(readMail);
  };
  /** Flushes what earlier changes queued, and answers where the next change's mails start. */
  const mark = async () => {
    await t.app.mailRelay.deliver();
    return smtp.received.length;
  };
  const notificationsOf = (topic: string) =>
    t.database.db
      .selectFrom('notifications as n')
      .innerJoin('users as u', (j) => j.onRef('u.id', '=', 'n.user_id').onRef('u.partner_id', '=', 'n.partner_id'))
      .select(['n.id', 'u.email', 'n.title', 'n.body', 'n.link'])
      .where('n.partner_id', '=', ACME)
      .where('n.topic', '=', topic)
      .orderBy('n.created_at')
      .execute();
  const withdraw = (email: string, amount: string) =>
    w
      .as(email)
      .browser.post('/api/v1/partner/settlement/withdrawal', withdrawalBody(wallet.address, { amount, travelRuleInfo: ACME_TRAVEL_RULE }), w.opts(email));
  const setLimit = (email: string, lowBalanceLimit: string) =>
    w.as(email).browser.post('/api/v1/partner/low-balance-limit', { lowBalanceLimit }, w.opts(email));
  const balance = async () => (await ledgerSummary(t.database.db, ACME, 'USD')).balance;

  it('tells the other admins and treasury that a new wallet waits for review, and its adder how the review and screening went', async () => {
    // the wallet of beforeAll: added by the admin, approved by treasury, then screened
    const rows = await notificationsOf('wallets');
    const review = rows.filter((r) => r.title === 'A new wallet address is waiting for your review');
    expect(review.map((r) => r.email).sort()).toEqual([ADMIN2, TREASURY].sort());
    expect(review[0]!.body).toContain('Ada Mensah (admin@acme.test) added the USDT (TRC20) wallet address');
    expect(rows.filter((r) => r.title === 'Your new wallet address was approved').map((r) => r.email)).toEqual([ADMIN]);
    expect(rows.filter((r) => r.title === 'Your new wallet address is enabled').map((r) => r.email)).toEqual([ADMIN]);
    expect(rows.every((r) => r.link === '/wallets')).toBe(true);
    // the same by e-mail: who did what, when (UTC), and the screen
    const mails = await mailsSince(0);
    const approved = mails.find((m) => m.subject === 'Your new wallet address was approved');
    expect(approved?.to).toBe(ADMIN);
    expect(approved?.text).toContain('(treasury@acme.test) approved the USDT (TRC20) wallet address');
    expect(approved?.text).toMatch(/When: [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{2}:\d{2} UTC/);
    expect(approved?.text).toContain(`${PUBLIC_URL}/wallets`);
    expect(mails.some((m) => m.to === VIEWER || m.to === KORA)).toBe(false);
  });

  it('tells admins and the requester of a withdrawal, and how it ended; nobody else, and nothing for a refused one', async () => {
    const from = await mark();
    const res = await withdraw(TREASURY, '120.00');
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json<{ settlement: { id: string } }>().settlement.id;
    const refused = await withdraw(TREASURY, '99999.00');
    expect(refused.statusCode).toBe(400);
    await until(
      async () => (await t.database.db.selectFrom('settlements').select('status').where('id', '=', id).executeTakeFirst())?.status === 'complete',
      'complete',
    );
    const mails = await until(async () => {
      const m = await mailsSince(from);
      return m.filter((x) => x.subject.startsWith('Withdrawal of')).length === 6 ? m : undefined;
    }, 'six withdrawal mails');
    const requested = mails.filter((m) => m.subject === 'Withdrawal of USD 120.00 requested');
    expect(requested.map((m) => m.to).sort()).toEqual([ADMIN, ADMIN2, TREASURY].sort());
    expect(requested[0]!.text).toContain('(treasury@acme.test) requested a withdrawal of USD 120.00 to the USDT (TRC20) wallet address');
    expect(requested[0]!.text).toContain(`${PUBLIC_URL}/transactions?tab=3&id=${id}`);
    const completed = mails.filter((m) => m.subject === 'Withdrawal of USD 120.00 completed');
    expect(completed.map((m) => m.to).sort()).toEqual([ADMIN, ADMIN2, TREASURY].sort());
    expect(mails.some((m) => m.subject.includes('99,999.00') || m.to === VIEWER)).toBe(false);
    // in the portal too, each reads their own
    const adminList = await list(ADMIN2);
    expect(adminList.items.map((n) => n.title)).toEqual(expect.arrayContaining(['Withdrawal of USD 120.00 completed', 'Withdrawal of USD 120.00 requested']));
    expect((await list(VIEWER)).items).toEqual([]);
    expect((await list(KORA)).items).toEqual([]);
  });

  it('says a failed withdrawal failed and that the amount is back', async () => {
    const from = await mark();
    const res = await withdraw(ADMIN, '50.13');
    expect(res.statusCode, res.body).toBe(201);
    const mails = await until(async () => {
      const failed = (await mailsSince(from)).filter((m) => m.subject === 'Withdrawal of USD 50.13 failed');
      return failed.length === 2 ? failed : undefined;
    }, 'failure mails');
    expect(mails.map((m) => m.to).sort()).toEqual([ADMIN, ADMIN2].sort());
    expect(mails[0]!.text).toContain('failed: The network refused the transaction.');
    expect(mails[0]!.text).toContain('USD 50.13 is back in your balance');
  });

  it('low balance: approaching, below and recovered, each crossing told once to admins and treasury', async () => {
    const whole = Math.floor(Number(await balance()));
    const setLimitLater = async (limit: string) => {
      t.clock.now += 1000;
      expect((await setLimit(ADMIN, limit)).statusCode).toBe(200);
    };
    // within 20% above the limit: approaching
    await setLimitLater(String(whole - 100));
    // a second change that stays within 20% tells nothing new
    await setLimitLater(String(whole - 50));
    // below
    await setLimitLater(String(whole + 500));
    // clear again
    await setLimitLater('1000');
    const rows = await notificationsOf('low-balance');
    const titles = [...new Set(rows.map((r) => r.title))];
    expect(titles).toEqual([
      `Your balance is nearing your low balance limit (USD ${(whole - 100).toLocaleString('en-US')}.00)`,
      `Your balance is below your low balance limit (USD ${(whole + 500).toLocaleString('en-US')}.00)`,
      'Your balance is above your low balance limit again',
    ]);
    for (const title of titles)
      expect(
        rows
          .filter((r) => r.title === title)
          .map((r) => r.email)
          .sort(),
      ).toEqual([ADMIN, ADMIN2, TREASURY].sort());
    expect(rows.every((r) => r.link === '/balance')).toBe(true);
  });

  it('low balance: many withdrawals at once cross the limit once, and say it once', async () => {
    const start = Number(await balance());
    // the limit sits 450 under the balance: the first withdrawals stay above it, a few more go below
    expect((await setLimit(ADMIN, String(Math.floor(start - 450)))).statusCode).toBe(200);
    const before = new Set((await notificationsOf('low-balance')).map((r) => r.id));
    const results = await Promise.all(Array.from({ length: 12 }, () => withdraw(TREASURY, '100.00')));
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(12);
    const told = (await notificationsOf('low-balance')).filter((r) => !before.has(r.id));
    expect(told.map((r) => r.email).sort()).toEqual([ADMIN, ADMIN2, TREASURY].sort());
    expect(told.every((r) => r.title.startsWith('Your balance is below') && r.body.includes(', below the low balance limit of USD'))).toBe(true);
    expect((await setLimit(ADMIN, '1000')).statusCode).toBe(200);
  });

  it('tells the other admins of a country change, and whoever asked of the decision', async () => {
    const rates = (await get(ADMIN2, 'partner/rates')).json<{ rates: PartnerRate[] }>().rates;
    const benin = rates.find((r) => r.locale === 'BJ')!;
    const item = (status: string) => ({ partnerRateId: benin.id, platformRateId: benin.rateId, status });
    const from = await mark();
    expect((await w.as(ADMIN2).browser.put('/api/v1/partner/rates', { rates: [item('pending_enable')] }, w.opts(ADMIN2))).statusCode).toBe(200);
    expect((await w.as(ADMIN).browser.put('/api/v1/partner/rates/review', { rates: [item('enabled')] }, w.opts(ADMIN))).statusCode).toBe(200);
    const mails = await mailsSince(from);
    const asked = mails.filter((m) => m.subject === 'A country change is waiting for your approval');
    expect(asked.map((m) => m.to)).toEqual([ADMIN]);
    expect(asked[0]!.text).toContain('Kwame Boateng (admin2@acme.test) asked to change the countries Acme Remit serves: Enable Benin (XOF).');
    const decided = mails.filter((m) => m.subject === 'Your country change was reviewed');
    expect(decided.map((m) => m.to)).toEqual([ADMIN2]);
    expect(decided[0]!.text).toContain('Ada Mensah (admin@acme.test) approved the change to Enable Benin (XOF).');
    expect(decided[0]!.text).toContain(`${PUBLIC_URL}/countries`);
  });

  it('tells every admin of a new API key, and an admin who turned that e-mail off is told in the portal only', async () => {
    // view and treasury choose among their own topics only
    expect((await get(VIEWER, 'user/notification-preferences')).json<NotificationPreferences>().email).toEqual([{ topic: 'account', enabled: true }]);
    expect((await get(TREASURY, 'user/notification-preferences')).json<NotificationPreferences>().email.map((c) => c.topic)).toEqual([
      'withdrawals',
      'wallets',
      'low-balance',
      'account',
    ]);
    const offForTreasury = await w
      .as(TREASURY)
      .browser.put('/api/v1/user/notification-preferences', { email: [{ topic: 'developers', enabled: false }] }, w.opts(TREASURY));
    expect(offForTreasury.statusCode).toBe(400);
    expect(offForTreasury.json()).toMatchObject({ code: 'ValidationFailed', message: 'Your role gets no api keys, allowed ips and webhooks notifications.' });
    const twice = await w.as(ADMIN2).browser.put(
      '/api/v1/user/notification-preferences',
      {
        email: [
          { topic: 'wallets', enabled: false },
          { topic: 'wallets', enabled: true },
        ],
      },
      w.opts(ADMIN2),
    );
    expect([twice.statusCode, twice.json<{ message: string }>().message]).toEqual([400, 'E-mail: Name each topic once']);
    const off = await w.as(ADMIN2).browser.put('/api/v1/user/notification-preferences', { email: [{ topic: 'developers', enabled: false }] }, w.opts(ADMIN2));
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json<NotificationPreferences>().email.find((c) => c.topic === 'developers')).toEqual({ topic: 'developers', enabled: false });
    expect((await get(ADMIN, 'user/notification-preferences')).json<NotificationPreferences>().email.every((c) => c.enabled)).toBe(true);

    const from = await mark();
    const created = await w.as(ADMIN).browser.post('/api/v1/partner/apikey', { name: 'Payouts server', permissions: ['api_read'] }, w.opts(ADMIN));
    expect(created.statusCode, created.body).toBe(201);
    const mails = (await mailsSince(from)).filter((m) => m.subject === 'A new API key was created');
    expect(mails.map((m) => m.to)).toEqual([ADMIN]);
    expect(mails[0]!.text).toContain('Ada Mensah (admin@acme.test) created the API key "Payouts server"');
    const rows = (await notificationsOf('developers')).filter((r) => r.title === 'A new API key was created');
    expect(rows.map((r) => r.email).sort()).toEqual([ADMIN, ADMIN2].sort());
  });

  it('each user reads and marks only their own; another partner sees none and changes none', async () => {
    // the earlier tests' withdrawals end in the background, each telling the admins: counts are read once they have
    await withdrawalsFinished();
    const mine = await list(ADMIN2);
    expect(mine.unread).toBeGreaterThan(0);
    const theirs = await list(ADMIN);
    const ids = theirs.items.slice(0, 3).map((n) => n.id);
    // someone else's ids change nothing: not another admin's, not another partner's
    for (const email of [ADMIN2, KORA]) {
      const res = await w.as(email).browser.post('/api/v1/notifications/read', { ids }, w.opts(email));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ updated: 0 });
    }
    expect((await list(ADMIN)).unread).toBe(theirs.unread);
    const one = await w.as(ADMIN).browser.post('/api/v1/notifications/read', { ids: [ids[0]] }, w.opts(ADMIN));
    expect(one.json()).toEqual({ updated: 1 });
    expect((await list(ADMIN)).items.find((n) => n.id === ids[0])?.readAt).not.toBeNull();
    const all = await w.as(ADMIN).browser.post('/api/v1/notifications/read', { all: true }, w.opts(ADMIN));
    expect(all.json()).toEqual({ updated: theirs.unread - 1 });
    expect((await list(ADMIN)).unread).toBe(0);
    expect((await list(ADMIN2)).unread).toBe(mine.unread);
    // bad input is a 400, never a change
    for (const body of [{}, { ids: [] }, { ids: ['not-a-uuid'] }, { all: false }, { all: true, ids }]) {
      expect((await w.as(ADMIN2).browser.post('/api/v1/notifications/read', body, w.opts(ADMIN2))).statusCode).toBe(400);
    }
    expect((await list(ADMIN2)).unread).toBe(mine.unread);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/notifications' })).statusCode).toBe(401);
  });
});
