import { sql, type Kysely, type Transaction } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANUAL_PAYOUT } from '@portal/contract/payout';
import { WALLET_DELETION_REASONS, type SettlementWallet } from '@portal/contract/wallets';
import { startWithdrawalWorker } from '../src/modules/withdrawals/withdrawal-processing.ts';
import { blocklistScreener, startWalletScreeningWorker } from '../src/modules/wallets/wallet-screening.ts';
import type { DB } from '../src/db/schema.ts';
import { DEMO_PARTNERS, DEMO_PASSWORD, DEMO_USERS } from '../src/db/seed/demo.ts';
import { auditChange, type AuditEvent } from '../src/lib/audit.repository.ts';
import { generateDemoAddress } from '../src/lib/deposit-addresses.ts';
import { currentStep, totpCode, TOTP_PERIOD } from '../src/lib/totp.ts';
import { simulatedPayer } from '../src/modules/withdrawals/payer.ts';
import { browser, DATABASES, setupOverSmtp, type TestContext } from './harness.ts';
import { mailText, type Sink } from './smtp-sink.ts';
import { ACME_TRAVEL_RULE, until, walletActors, withdrawalBody } from './wallet-support.ts';

const ADMIN = 'admin@acme.test';
const TREASURY = 'treasury@acme.test';
const VIEWER = 'viewer@acme.test';
const LEAN = 'admin@lean.test';

type Table = keyof DB;
type Reply = { statusCode: number; body: string };

/**
 * A real failure after the audit write, inside the change's own transaction: a deferred constraint trigger on
 * audit_events raises at COMMIT for an armed action, when the same transaction also changed another table. An audit
 * written in a transaction of its own (outside the change's) is left alone, so that it stays for the test to see.
 */
async function installFailureAfterAudit(db: Kysely<DB>) {
  await sql`create table test_audit_failures (action text primary key)`.execute(db);
  await sql`
    create function test_fail_after_audit() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from test_audit_failures where action = new.action) and exists (
        select 1 from pg_locks l join pg_class c on c.oid = l.relation
        where l.pid = pg_backend_pid() and l.locktype = 'relation' and l.mode = 'RowExclusiveLock'
          and c.relkind in ('r', 'p') and c.relname <> 'audit_events'
      ) then
        raise exception 'the change audited as % fails after its audit write (test)', new.action;
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create constraint trigger test_fail_after_audit after insert on audit_events
    deferrable initially deferred for each row execute function test_fail_after_audit()`.execute(db);
}

describe.each(DATABASES)('a change whose transaction fails after its audit write leaves no audit row, on %s', (kind) => {
  let t: TestContext;
  let smtp: Sink;
  let w: Awaited<ReturnType<typeof walletActors>>;
  /** the errors behind the app's 500 answers, to tell the armed failure from any other */
  const errors: string[] = [];
  beforeAll(async () => {
    ({ t, smtp } = await setupOverSmtp(kind, {
      config: { LOGIN_RATE_LIMIT: '10000', WALLET_SCREENING_SECONDS: '0' },
      jobs: true,
      extend: (app) => app.addHook('onError', async (_request, _reply, err) => void errors.push(err.message)),
    }));
    await installFailureAfterAudit(t.database.db);
    const boss = t.app.boss!;
    await startWalletScreeningWorker({ boss, service: t.app.services.wallets, screener: blocklistScreener(undefined), log: t.app.log });
    await startWithdrawalWorker({
      boss,
      db: t.database.db,
      payer: simulatedPayer,
      timings: { processingSeconds: 3600, completionSeconds: 3600 },
      notifier: t.app.services.notifier,
      ledger: t.app.services.ledger,
      wallets: t.app.services.walletDirectory,
      log: t.app.log,
    });
    w = await walletActors(t, smtp, [ADMIN, TREASURY, VIEWER, LEAN]);
  });
  afterAll(async () => {
    await t?.close();
  });

  const db = () => t.database.db;
  const call = (email: string) => {
    const { browser: as, accessToken: token } = w.as(email);
    return {
      post: (url: string, body: unknown = {}) => as.post(`/api/v1/${url}`, body, { token }),
      put: (url: string, body: unknown = {}) => as.put(`/api/v1/${url}`, body, { token }),
      delete: (url: string, payload?: unknown) => as.delete(`/api/v1/${url}`, { token, ...(payload ? { payload } : {}) }),
    };
  };
  const audits = async (action: string) => (await db().selectFrom('audit_events').select('id').where('action', '=', action).execute()).length;
  /** Every row of the tables, in a stable order: what the change would have written. */
  const snapshot = async (tables: Table[]) => {
    const rows: Record<string, string[]> = {};
    for (const table of tables) rows[table] = (await sql<object>`select * from ${sql.table(table)}`.execute(db())).rows.map((r) => JSON.stringify(r)).sort();
    return rows;
  };

  /**
   * The change, armed to fail after its audit write, answers 500 (for that failure, not another) and leaves neither its audit row nor its rows in
   * `tables`; the same change unarmed then lands with its audit (so the rows checked are the change's own).
   */
  async function expectAtomic(action: string, tables: Table[], change: () => Promise<Reply>) {
    const before = await snapshot(tables);
    const count = await audits(action);
    await db()
      .insertInto('test_audit_failures' as never)
      .values({ action })
      .execute();
    let failed: Reply;
    try {
      failed = await change();
    } finally {
      await sql`delete from test_audit_failures`.execute(db());
    }
    expect(failed.statusCode, failed.body).toBe(500);
    expect(errors.at(-1)).toBe(`the change audited as ${action} fails after its audit write (test)`);
    expect(await audits(action)).toBe(count);
    expect(await snapshot(tables)).toEqual(before);

    const landed = await change();
    expect(landed.statusCode, landed.body).toBeLessThan(300);
    expect(await audits(action)).toBe(count + 1);
    expect(await snapshot(tables)).not.toEqual(before);
    return landed;
  }

  it('takes only a transaction: a plain database does not type-check and is refused at run time', async () => {
    const event: AuditEvent = { partnerId: DEMO_PARTNERS.acme.id, actor: 'system', action: 'test.outside' };
    // @ts-expect-error the audit of a change takes the change's transaction, never the database itself
    const outside = () => auditChange(t.database.db, event);
    await expect(outside()).rejects.toThrow(/outside a transaction/);
    await expect(auditChange(t.database.db as unknown as Transaction<DB>, event)).rejects.toThrow(/outside a transaction/);
    expect(await audits('test.outside')).toBe(0);
  });

  describe('settlement wallets and withdrawals', () => {
    let enabled: SettlementWallet;
    let pending: string;
    beforeAll(async () => {
      enabled = await w.enabledWallet(ADMIN, TREASURY, 'TRC20', ['USDT'], {
        travelRuleInfo: ACME_TRAVEL_RULE,
      });
    });

    it('withdrawal: no settlement, no ledger entry', async () => {
      await expectAtomic('settlement.pending', ['settlements', 'ledger_entries'], () =>
        call(ADMIN).post('partner/settlement/withdrawal', withdrawalBody(enabled.address)),
      );
    });

    it('wallet created: no wallet', async () => {
      pending = generateDemoAddress('TRC20').address;
      await expectAtomic('settlement_wallet.created', ['settlement_wallets'], () => w.api.create(ADMIN, { address: pending }));
    });

    it('wallet reviewed: still pending approval', async () => {
      await expectAtomic('settlement_wallet.approved', ['settlement_wallets'], () => w.api.review(TREASURY, { address: pending, status: 'approved' }));
      await until(async () => (await w.api.list(ADMIN)).find((x) => x.address === pending && x.status === 'enabled'), `${pending} enabled`);
    });

    it('wallet disabled: still enabled', async () => {
      await expectAtomic('settlement_wallet.disabled', ['settlement_wallets'], () => w.api.update(ADMIN, { address: pending, status: 'disabled' }));
    });

    it('wallet deleted: still there', async () => {
      await expectAtomic('settlement_wallet.deleted', ['settlement_wallets'], () => w.api.remove(ADMIN, pending, { reason: WALLET_DELETION_REASONS[0] }));
    });
  });

  describe('API keys and allowed IP addresses', () => {
    it('key created: no key', async () => {
      await expectAtomic('api_key.created', ['api_keys'], () =>
        call(ADMIN).post('partner/apikey', { name: 'Atomic', permissions: ['api_read'], expiry: null }),
      );
    });

    it('key deleted: still there', async () => {
      const key = (await call(ADMIN).post('partner/apikey', { name: 'Doomed', permissions: ['api_read'], expiry: null })).json<{ apiKey: { apiKey: string } }>()
        .apiKey.apiKey;
      await expectAtomic('api_key.deleted', ['api_keys'], () => call(ADMIN).delete(`partner/apikey/${key}`));
    });

    it('address added, then deleted: neither lands without its audit', async () => {
      await expectAtomic('ip_address.added', ['allowed_ip_addresses'], async () =>
        call(ADMIN).post('partner/ip-address', {
          ipAddress: '203.0.113.7',
          otp: await w.codeFor(ADMIN, { action: 'ip.add', target: { ipAddress: '203.0.113.7' } }),
        }),
      );
      await expectAtomic('ip_address.deleted', ['allowed_ip_addresses'], async () =>
        call(ADMIN).delete(
          `partner/ip-address?ipAddress=203.0.113.7&otp=${await w.codeFor(ADMIN, { action: 'ip.delete', target: { ipAddress: '203.0.113.7' } })}`,
        ),
      );
    });
  });

  describe('webhooks', () => {
    let id: string;
    it('created: no endpoint', async () => {
      const created = await expectAtomic('webhook.created', ['webhook_endpoints'], async () =>
        call(ADMIN).post('partner/webhook', {
          url: 'https://hooks.example.com/atomic',
          events: ['PAYMENT.COMPLETE'],
          otp: await w.codeFor(ADMIN, { action: 'webhook.create', target: { url: 'https://hooks.example.com/atomic' } }),
        }),
      );
      id = (JSON.parse(created.body) as { webhook: { id: string } }).webhook.id;
    });

    it('updated: unchanged', async () => {
      await expectAtomic('webhook.updated', ['webhook_endpoints'], async () =>
        call(ADMIN).put('partner/webhook', { id, active: false, otp: await w.codeFor(ADMIN, { action: 'webhook.update', target: { id } }) }),
      );
    });

    it('deleted: still there', async () => {
      await expectAtomic('webhook.deleted', ['webhook_endpoints'], async () =>
        call(ADMIN).delete(`partner/webhook/${id}?otp=${await w.codeFor(ADMIN, { action: 'webhook.delete', target: { id } })}`),
      );
    });
  });

  describe('team', () => {
    const idOf = async (email: string) => (await db().selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
    const invitationOf = async (email: string) => (await db().selectFrom('invitations').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
    const lastLinkTo = (email: string) => /#token=([\w.-]+)/.exec(mailText(smtp.received.filter((m) => m.to.includes(email)).at(-1)!.raw))![1]!;

    it('invited: no invitation', async () => {
      await expectAtomic('user.invited', ['invitations'], () => call(ADMIN).post('users/add', { name: 'Atomic Ann', email: 'ann@acme.test', role: 'view' }));
    });

    it('invitation resent: the earlier link', async () => {
      const userId = await invitationOf('ann@acme.test');
      await expectAtomic('user.invite_resent', ['invitations'], () => call(ADMIN).post('users/resend-invite', { userId }));
    });

    it('invitation’s role changed: the old role', async () => {
      const userId = await invitationOf('ann@acme.test');
      await expectAtomic('user.role_changed', ['invitations'], () => call(ADMIN).post('users/update', { userId, role: 'treasury' }));
    });

    it('invitation accepted: no user, the invitation and its link kept', async () => {
      await expect.poll(() => smtp.received.filter((m) => m.to.includes('ann@acme.test')).length).toBe(2);
      const tempPassword = lastLinkTo('ann@acme.test');
      await expectAtomic('user.joined', ['users', 'invitations'], () =>
        browser(t.app).put('/api/v1/users/password', { email: 'ann@acme.test', password: 'Atomic-Sunrise-2026', tempPassword }),
      );
    });

    it('role changed: the old role', async () => {
      const userId = await idOf('ann@acme.test');
      await expectAtomic('user.role_changed', ['users'], () => call(ADMIN).post('users/update', { userId, role: 'view' }));
    });

    it('removed: still a member', async () => {
      const userId = await idOf('ann@acme.test');
      await expectAtomic('user.deleted', ['users', 'auth_sessions'], () => call(ADMIN).put(`users/delete/${userId}`));
    });

    it('invitation withdrawn: still listed', async () => {
      expect((await call(ADMIN).post('users/add', { name: 'Atomic Bea', email: 'bea@acme.test', role: 'view' })).statusCode).toBe(201);
      const userId = await invitationOf('bea@acme.test');
      await expectAtomic('user.invitation_withdrawn', ['invitations'], () => call(ADMIN).put(`users/delete/${userId}`));
    });

    it('password reset by an admin: no reset asked, no session ended', async () => {
      const userId = await idOf(VIEWER);
      await expectAtomic('password.reset_by_admin', ['users', 'auth_sessions', 'password_reset_codes'], () =>
        call(ADMIN).post('user/reset-password', { userId }),
      );
    });
  });

  describe('partner settings', () => {
    it('low balance limit: the old limit', async () => {
      await expectAtomic('partner.low_balance_limit_changed', ['partners'], () => call(ADMIN).post('partner/low-balance-limit', { lowBalanceLimit: '4321' }));
    });

    it('payout schedule: the old schedule', async () => {
      const weekly = { ...MANUAL_PAYOUT, type: 'AUTOMATED', frequency: 'Weekly', repeatFrequency: 1, weeklyDays: ['Friday'], endPayout: 'Never' };
      await expectAtomic('partner.payout_config_changed', ['payout_configs'], () => call(LEAN).post('partner/payout-config', weekly));
    });
  });

  describe('sign-in and passwords', () => {
    it('signed in: no session opened, the code not spent', async () => {
      const email = TREASURY;
      const secret = DEMO_USERS.find((u) => u.email === email)!.totpSecret!;
      await expectAtomic('login.succeeded', ['auth_sessions', 'refresh_tokens'], async () => {
        t.clock.now += TOTP_PERIOD * 1000;
        const as = browser(t.app);
        const { session } = (await as.post('/api/v1/users/login', { email, password: DEMO_PASSWORD })).json<{ session: string }>();
        return as.post('/api/v1/users/challenge-response', {
          session,
          challengeName: 'SOFTWARE_TOKEN_MFA',
          username: email,
          userCode: totpCode(secret, currentStep(t.clock.now)),
        });
      });
    });

    it('password changed with an e-mailed reset code: the old password still signs in', async () => {
      const email = VIEWER;
      const viewer = DEMO_USERS.find((u) => u.email === email)!;
      await db().updateTable('users').set({ password_reset_requested: false }).where('email', '=', email).execute();
      let n = 0;
      await expectAtomic('password.changed', ['users'], async () => {
        t.clock.now += 11 * 60_000;
        const before = smtp.received.length;
        expect((await browser(t.app).post('/api/v1/users/forgot-password', { email })).statusCode).toBe(200);
        const mail = await until(
          () => smtp.received.slice(before).find((m) => m.to.includes(email) && /reset your password is \d{6}/.test(mailText(m.raw))),
          `the reset code for ${email}`,
        );
        const confirmationCode = /reset your password is (\d{6})/.exec(mailText(mail.raw))![1]!;
        return browser(t.app).post('/api/v1/users/confirm-password-reset', {
          email,
          password: `Atomic-${viewer.partner}-${++n}-correct-horse`,
          confirmationCode,
        });
      });
    });
  });
});
