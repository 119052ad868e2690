import crypto from 'node:crypto';
import { expect } from 'vitest';
import type { Network } from '@portal/contract/domain';
import type { SettlementWallet } from '@portal/contract/wallets';
import { generateDemoAddress } from '../src/lib/deposit-addresses.ts';
import { startWithdrawalWorker } from '../src/modules/withdrawals/withdrawal-processing.ts';
import type { SettlementPayer } from '../src/modules/withdrawals/payer.ts';
import { blocklistScreener, startWalletScreeningWorker } from '../src/modules/wallets/wallet-screening.ts';
import { overSmtp, setup, signIn, type DatabaseKind, type Session, type TestContext } from './harness.ts';
import { mailText, type Sink } from './smtp-sink.ts';

/** Waits until `check` answers something truthy (expect.poll works inside tests only; this one in hooks too). */
export async function until<T>(check: () => Promise<T> | T, what: string, timeoutMs = 15_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Signed-in demo users, and what they do with settlement wallets through the API (codes read over SMTP). */
export async function walletActors(t: TestContext, smtp: Sink, emails: string[]) {
  const s: Record<string, Session> = {};
  for (const email of emails) s[email] = await signIn(t, email);
  const as = (email: string) => {
    const session = s[email];
    if (!session) throw new Error(`${email} is not signed in`);
    return session;
  };
  const opts = (email: string) => ({ token: as(email).accessToken });

  /** Asks for a code as `email` for a change (`{ action, target }`) and reads it from the mail the SMTP server received. */
  async function codeFor(email: string, purpose: unknown): Promise<string> {
    // past the send limit's window (5 codes in 10 minutes), so that tests can ask for as many as they need
    t.clock.now += 11 * 60_000;
    const before = smtp.received.length;
    const res = await as(email).browser.put('/api/v1/user/otp', purpose, opts(email));
    expect(res.statusCode, res.body).toBe(200);
    const mail = await until(
      () => smtp.received.slice(before).find((m) => m.to.includes(email) && /verification code is \d{6}/.test(mailText(m.raw))),
      `the code mailed to ${email}`,
    );
    return /verification code is (\d{6})/.exec(mailText(mail.raw))![1]!;
  }

  const api = {
    list: async (email: string) => (await as(email).browser.get('/api/v1/partner/wallets', opts(email))).json<{ wallets: SettlementWallet[] }>().wallets,
    create: async (email: string, body: Record<string, unknown>, otp?: string) => {
      const full: Record<string, unknown> = { currencies: ['USDT'], network: 'TRC20', ...body };
      const target = { address: full.address, network: full.network, ...(full.tag !== undefined ? { tag: full.tag } : {}) };
      return as(email).browser.post('/api/v1/partner/wallet', { ...full, otp: otp ?? (await codeFor(email, { action: 'wallet.add', target })) }, opts(email));
    },
    review: (email: string, body: Record<string, unknown>) => as(email).browser.put('/api/v1/partner/wallet/status', body, opts(email)),
    update: (email: string, body: Record<string, unknown>) => as(email).browser.put('/api/v1/partner/wallet', body, opts(email)),
    remove: async (email: string, address: string, body: Record<string, unknown>, otp?: string) =>
      as(email).browser.delete(`/api/v1/partner/wallet/${encodeURIComponent(address)}`, {
        payload: {
          ...body,
          otp: otp ?? (await codeFor(email, { action: 'wallet.delete', target: { address, ...(body.network ? { network: body.network } : {}) } })),
        },
        ...opts(email),
      }),
  };

  /** A wallet added by `creator`, approved by `reviewer`, then screened (the job) until enabled. */
  async function enabledWallet(creator: string, reviewer: string, network: Network = 'TRC20', currencies = ['USDT'], extra: Record<string, unknown> = {}) {
    const { address } = generateDemoAddress(network);
    const created = await api.create(creator, { address, network, currencies, ...extra });
    expect(created.statusCode, created.body).toBe(201);
    const approved = await api.review(reviewer, { address, network, status: 'approved' });
    expect(approved.statusCode, approved.body).toBe(200);
    return until(
      async () => (await api.list(creator)).find((w) => w.address === address && w.network === network && w.status === 'enabled'),
      `${address} enabled`,
    );
  }

  return { s, as, opts, codeFor, api, enabledWallet };
}

/**
 * The background work withdrawals need in a test's app: wallet screening (every wallet passes) and the settlement
 * worker with `payer`; and what a withdrawal's amount is, for payers that fail some amounts on purpose.
 */
async function startWithdrawalWorkers(t: TestContext, payer: SettlementPayer, timings: { processingSeconds: number; completionSeconds: number }) {
  const boss = t.app.boss!;
  await startWalletScreeningWorker({ boss, service: t.app.services.wallets, screener: blocklistScreener(undefined), log: t.app.log });
  await startWithdrawalWorker({
    boss,
    db: t.database.db,
    payer,
    timings,
    log: t.app.log,
    notifier: t.app.services.notifier,
    ledger: t.app.services.ledger,
    wallets: t.app.services.walletDirectory,
  });
}

/** A settlement's USD amount as written (no trailing zeros): the test payers decide by its cents. */
async function settlementAmount(t: TestContext, id: string): Promise<string> {
  const row = await t.database.db.selectFrom('settlements').select('fiat_amount_usd').where('id', '=', id).executeTakeFirst();
  return row?.fiat_amount_usd.replace(/0+$/, '') ?? '';
}

/** A test's payer, made with what a settlement's USD amount is (the test payers fail some amounts on purpose). */
export type TestPayer = (amountOf: (settlementId: string) => Promise<string>) => SettlementPayer;

const ADMIN = 'admin@acme.test';
const TREASURY = 'treasury@acme.test';

/** The travel-rule details of Acme's own wallet (asked for withdrawals of 1,000 USD and more). */
export const ACME_TRAVEL_RULE = { name: 'Acme Remit Ltd', businessRegistrationNumber: 'RC-123456' };

/** A withdrawal from the dashboard to a TRC20 USDT wallet, with a new sequenceId: of 100.00 unless `fields` say otherwise. */
export const withdrawalBody = (walletAddress: string, fields: Record<string, unknown> = {}) => ({
  amount: '100.00',
  sequenceId: crypto.randomUUID(),
  source: 'dashboard',
  walletAddress,
  cryptoCurrency: 'USDT',
  cryptoNetwork: 'TRC20',
  ...fields,
});

/**
 * An app for withdrawals: the job queue, sign-ins not rate-limited, wallets screened at once, mail over SMTP (`smtp`),
 * `config` beside; the withdrawal workers with `payer` (a withdrawal is sent after `processingSeconds` and completes at
 * once); `users` signed in (Acme's admin and treasurer among them); and a TRC20 USDT wallet of Acme's with travel-rule
 * details, added by its admin, approved by its treasurer and enabled.
 */
export const withdrawalSetup = (kind: DatabaseKind, options: WithdrawalOptions) => overSmtp((smtp) => withdrawalApp(kind, smtp, options));

type WithdrawalOptions = { payer: TestPayer; users: string[]; processingSeconds?: number; config?: Record<string, string> };

async function withdrawalApp(kind: DatabaseKind, smtp: Sink, options: WithdrawalOptions) {
  const processingSeconds = options.processingSeconds ?? 0;
  const t = await setup(kind, {
    config: {
      LOGIN_RATE_LIMIT: '10000',
      WALLET_SCREENING_SECONDS: '0',
      SETTLEMENT_PROCESSING_SECONDS: String(processingSeconds),
      SETTLEMENT_COMPLETION_SECONDS: '0',
      ...options.config,
    },
    smtpUrl: smtp.url,
    jobs: true,
  });
  try {
    await startWithdrawalWorkers(
      t,
      options.payer((id) => settlementAmount(t, id)),
      { processingSeconds, completionSeconds: 0 },
    );
    const w = await walletActors(t, smtp, options.users);
    const wallet = await w.enabledWallet(ADMIN, TREASURY, 'TRC20', ['USDT'], { travelRuleInfo: ACME_TRAVEL_RULE });
    return { t, w, wallet };
  } catch (err) {
    await t.close();
    throw err;
  }
}
