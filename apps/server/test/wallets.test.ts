import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NETWORKS, type Network } from '@portal/contract/domain';
import { EMAIL_OTP_MINUTES } from '@portal/contract/otp';
import { WALLET_DELETION_REASONS, WALLET_MESSAGES, type SettlementWallet } from '@portal/contract/wallets';
import { blocklistScreener, startWalletScreeningWorker } from '../src/modules/wallets/wallet-screening.ts';
import { generateDemoAddress, toEip55 } from '../src/lib/deposit-addresses.ts';
import { DATABASES, setupOverSmtp, type TestContext } from './harness.ts';
import { mailText, type Sink } from './smtp-sink.ts';
import { walletActors } from './wallet-support.ts';

const ADMIN = 'admin@acme.test';
const ADMIN2 = 'admin2@acme.test';
const TREASURY = 'treasury@acme.test';
const VIEWER = 'viewer@acme.test';
const KORA = 'admin@kora.test';
const LEAN = 'admin@lean.test';
/** fails screening */
const BLOCKED = generateDemoAddress('TRC20').address;

/** One character changed near the end: the checksum of every network but Solana's catches it. */
const typo = (address: string) => {
  const i = address.length - 3;
  return address.slice(0, i) + (address[i] === 'A' ? 'B' : 'A') + address.slice(i + 1);
};

describe.each(DATABASES)('settlement wallets on %s', (kind) => {
  let t: TestContext;
  let smtp: Sink;
  let w: Awaited<ReturnType<typeof walletActors>>;
  beforeAll(async () => {
    ({ t, smtp } = await setupOverSmtp(kind, { config: { LOGIN_RATE_LIMIT: '10000', WALLET_SCREENING_SECONDS: '0' }, jobs: true }));
    await startWalletScreeningWorker({ boss: t.app.boss!, service: t.app.services.wallets, screener: blocklistScreener(BLOCKED), log: t.app.log });
    w = await walletActors(t, smtp, [ADMIN, ADMIN2, TREASURY, VIEWER, KORA, LEAN]);
  });
  afterAll(async () => {
    await t?.close();
  });
  // each test starts with no live wallet, so that the per-pair limit of one test does not meet another's wallets
  beforeEach(async () => {
    await t.database.db
      .updateTable('settlement_wallets')
      .set({ status: 'deleted', deletion_reason: 'test reset' })
      .where('status', 'not in', ['deleted', 'denied'])
      .execute();
  });
  const find = async (email: string, address: string) => (await w.api.list(email)).find((x) => x.address === address);

  it('documents the wallet and withdrawal calls in OpenAPI, the status update at PUT partner/wallet/status', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{ paths: Record<string, Record<string, { operationId: string }>> }>();
    expect(doc.paths['/api/v1/partner/wallet/status']?.put?.operationId).toBe('reviewSettlementWallet');
    expect(Object.keys(doc.paths['/api/v1/partner/wallet'] ?? {}).sort()).toEqual(['post', 'put']);
    expect(doc.paths['/api/v1/partner/wallet/{address}']?.delete?.operationId).toBe('deleteSettlementWallet');
    expect(doc.paths['/api/v1/partner/wallets']?.get?.operationId).toBe('settlementWallets');
    expect(doc.paths['/api/v1/partner/settlement/withdrawal']?.post?.operationId).toBe('withdraw');
    expect(doc.paths['/api/v1/partner/settlement/fee']?.get?.operationId).toBe('settlementFee');
    expect(doc.paths['/api/v1/partner/travel-rule']?.get?.operationId).toBe('travelRuleConfigs');
  });

  it('adds a wallet with the e-mailed code: pending approval, created by the caller, reviewable by the others only', async () => {
    const { address } = generateDemoAddress('TRC20');
    const res = await w.api.create(ADMIN, { address, travelRuleInfo: { name: 'Acme Remit Ltd', businessRegistrationNumber: 'RC-123456' } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<{ wallet: SettlementWallet }>().wallet).toMatchObject({
      address,
      network: 'TRC20',
      status: 'pending_approval',
      currencies: ['USDT'],
      createdByName: 'Ada Mensah',
      tag: null,
      travelRuleInfo: { name: 'Acme Remit Ltd', businessRegistrationNumber: 'RC-123456' },
      canReview: false,
    });
    expect((await find(TREASURY, address))?.canReview).toBe(true);
    expect((await find(ADMIN2, address))?.canReview).toBe(true);
    expect((await find(VIEWER, address))?.canReview).toBe(false);
  });

  it('four eyes: the creator cannot approve; another admin or treasury user approves, screening enables it and e-mails the creator', async () => {
    const { address } = generateDemoAddress('ERC20');
    expect((await w.api.create(TREASURY, { address, network: 'ERC20', currencies: ['USDC', 'USDT'] })).statusCode).toBe(201);
    const own = await w.api.review(TREASURY, { address, status: 'approved' });
    expect(own.statusCode).toBe(403);
    expect(own.json()).toMatchObject({ code: 'OwnWalletReview', message: WALLET_MESSAGES.ownReview });
    expect((await find(TREASURY, address))?.status).toBe('pending_approval');

    const mailsBefore = smtp.received.length;
    const approved = await w.api.review(ADMIN, { address, status: 'approved' });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json<{ wallet: SettlementWallet }>().wallet).toMatchObject({ status: 'pending_screening', reviewedByName: 'Ada Mensah' });
    await expect.poll(async () => (await find(TREASURY, address))?.status, { timeout: 15_000 }).toBe('enabled');
    await expect.poll(() => smtp.received.slice(mailsBefore).find((m) => m.to.includes(TREASURY) && /is now|is enabled/.test(mailText(m.raw)))).toBeTruthy();
    // a second review finds nothing to review
    expect((await w.api.review(ADMIN2, { address, status: 'approved' })).statusCode).toBe(409);
  });

  it('denies with a reason that is kept; a denial without a reason is refused', async () => {
    const { address } = generateDemoAddress('POLYGON');
    expect((await w.api.create(ADMIN, { address, network: 'POLYGON', currencies: ['USDC'] })).statusCode).toBe(201);
    const empty = await w.api.review(TREASURY, { address, status: 'denied', reason: '  ' });
    expect(empty.statusCode).toBe(400);
    const denied = await w.api.review(TREASURY, { address, status: 'denied', reason: 'There is a mistake in this wallet address' });
    expect(denied.statusCode).toBe(200);
    expect(await find(ADMIN, address)).toMatchObject({ status: 'denied', reason: 'There is a mistake in this wallet address', canReview: false });
    // denied addresses may be added again (fixed), as a new wallet
    expect((await w.api.create(ADMIN, { address, network: 'POLYGON', currencies: ['USDC'] })).statusCode).toBe(201);
  });

  it('a wallet that fails screening is denied with the reason, and its creator is told', async () => {
    const before = smtp.received.length;
    expect((await w.api.create(ADMIN2, { address: BLOCKED })).statusCode).toBe(201);
    expect((await w.api.review(TREASURY, { address: BLOCKED, status: 'approved' })).statusCode).toBe(200);
    await expect.poll(async () => (await find(ADMIN2, BLOCKED))?.status, { timeout: 15_000 }).toBe('denied');
    expect((await find(ADMIN2, BLOCKED))?.reason).toBe(WALLET_MESSAGES.screeningFailed);
    await expect.poll(() => smtp.received.slice(before).some((m) => m.to.includes(ADMIN2) && mailText(m.raw).includes('did not pass screening'))).toBe(true);
  });

  it('refuses a view user every change (the server decides, whatever the screen shows)', async () => {
    const { address } = generateDemoAddress('TRC20');
    // refused before a code is sent, and at the change itself
    const asked = await w.as(VIEWER).browser.put('/api/v1/user/otp', { action: 'wallet.add', target: { address, network: 'TRC20' } }, w.opts(VIEWER));
    expect(asked.statusCode).toBe(403);
    const created = await w.api.create(VIEWER, { address }, '123456');
    expect(created.statusCode).toBe(403);
    expect(created.json()).toMatchObject({ code: 'Forbidden' });
    const existing = await w.enabledWallet(ADMIN, TREASURY);
    expect((await w.api.update(VIEWER, { address: existing.address, status: 'disabled' })).statusCode).toBe(403);
    expect((await w.api.remove(VIEWER, existing.address, { reason: WALLET_DELETION_REASONS[0] }, '123456')).statusCode).toBe(403);
    const pending = generateDemoAddress('TRC20').address;
    expect((await w.api.create(ADMIN, { address: pending })).statusCode).toBe(201);
    expect((await w.api.review(VIEWER, { address: pending, status: 'approved' })).statusCode).toBe(403);
    expect((await find(ADMIN, pending))?.status).toBe('pending_approval');
    expect((await find(ADMIN, existing.address))?.status).toBe('enabled');
  });

  it('keeps partners apart: another partner neither sees, reviews, changes nor deletes a wallet, nor registers its address', async () => {
    const acme = await w.enabledWallet(ADMIN, TREASURY);
    const pending = generateDemoAddress('TRC20').address;
    expect((await w.api.create(ADMIN, { address: pending })).statusCode).toBe(201);
    expect((await w.api.list(KORA)).map((x) => x.address)).not.toContain(acme.address);
    expect((await w.api.review(KORA, { address: pending, status: 'approved' })).statusCode).toBe(404);
    expect((await w.api.update(KORA, { address: acme.address, status: 'disabled' })).statusCode).toBe(404);
    const asked = await w.as(KORA).browser.put('/api/v1/user/otp', { action: 'wallet.delete', target: { address: acme.address } }, w.opts(KORA));
    expect(asked.statusCode).toBe(404);
    expect((await w.api.remove(KORA, acme.address, { reason: WALLET_DELETION_REASONS[0] }, '123456')).statusCode).toBe(404);
    // registered to Acme: Kora is refused before a code is sent (the change checks it again under its lock)
    const askAdd = (target: Record<string, unknown>) => w.as(KORA).browser.put('/api/v1/user/otp', { action: 'wallet.add', target }, w.opts(KORA));
    const taken = await askAdd({ address: acme.address, network: 'TRC20' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'WalletAddressTaken' });
    // the same EVM account on another EVM network is the same address
    const evm = await w.enabledWallet(ADMIN, TREASURY, 'ERC20', ['USDT']);
    const sameAccount = await askAdd({ address: evm.address, network: 'BASE', currencies: ['USDC'] });
    expect(sameAccount.json()).toMatchObject({ code: 'WalletAddressTaken' });
    expect((await find(ADMIN, pending))?.status).toBe('pending_approval');
    expect((await find(ADMIN, acme.address))?.status).toBe('enabled');
    // a partner without wallet management gets nothing done
    const leanAddress = generateDemoAddress('TRC20').address;
    const leanAsk = await w
      .as(LEAN)
      .browser.put('/api/v1/user/otp', { action: 'wallet.add', target: { address: leanAddress, network: 'TRC20' } }, w.opts(LEAN));
    expect(leanAsk.json()).toMatchObject({ code: 'FeatureDisabled' });
    const lean = await w.api.create(LEAN, { address: leanAddress }, '123456');
    expect(lean.statusCode).toBe(403);
    expect(lean.json()).toMatchObject({ code: 'FeatureDisabled' });
  });

  it('holds at most 3 enabled or pending wallets per coin and network: the 4th is refused until one goes', async () => {
    const first = await w.enabledWallet(ADMIN, TREASURY, 'SOL', ['USDC']);
    await w.enabledWallet(ADMIN, TREASURY, 'SOL', ['USDC', 'USDT']);
    const third = generateDemoAddress('SOL').address;
    expect((await w.api.create(ADMIN, { address: third, network: 'SOL', currencies: ['USDC'] })).statusCode).toBe(201);
    const fourth = generateDemoAddress('SOL').address;
    const refused = await w.api.create(ADMIN, { address: fourth, network: 'SOL', currencies: ['USDC'] });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'WalletLimitReached' });
    expect(refused.json<{ message: string }>().message).toContain('USDC (SOL)');
    // USDT on SOL has one place taken only
    expect((await w.api.create(ADMIN, { address: fourth, network: 'SOL', currencies: ['USDT'] })).statusCode).toBe(201);
    // disabling one frees its place; enabling it again is refused while the places are full
    expect((await w.api.update(ADMIN, { address: first.address, network: 'SOL', status: 'disabled' })).json()).toMatchObject({
      wallet: { status: 'disabled' },
    });
    const fifth = generateDemoAddress('SOL').address;
    expect((await w.api.create(ADMIN, { address: fifth, network: 'SOL', currencies: ['USDC'] })).statusCode).toBe(201);
    // refused before a code is sent, as the change would be
    const again = await w
      .as(ADMIN)
      .browser.put('/api/v1/user/otp', { action: 'wallet.enable', target: { address: first.address, network: 'SOL' } }, w.opts(ADMIN));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'WalletLimitReached' });
    // a deleted one frees its place too
    expect((await w.api.remove(ADMIN, fifth, { reason: WALLET_DELETION_REASONS[2] })).statusCode).toBe(200);
    const enabled = await w.api.update(ADMIN, {
      address: first.address,
      status: 'enabled',
      otp: await w.codeFor(ADMIN, { action: 'wallet.enable', target: { address: first.address } }),
    });
    expect(enabled.statusCode, enabled.body).toBe(200);
    expect(enabled.json()).toMatchObject({ wallet: { status: 'enabled' } });
  });

  it('gives the last place once when three people add a wallet for the same pair at the same moment', async () => {
    for (let i = 0; i < 2; i++)
      expect((await w.api.create(ADMIN, { address: generateDemoAddress('CELO').address, network: 'CELO', currencies: ['USDT'] })).statusCode).toBe(201);
    const people = [ADMIN, ADMIN2, TREASURY];
    // asked for together: each ask moves the clock (past the send limit) before any code is made, so none expires
    const addresses = people.map(() => generateDemoAddress('CELO').address);
    const codes = await Promise.all(
      people.map((p, i) => w.codeFor(p, { action: 'wallet.add', target: { address: addresses[i], network: 'CELO', currencies: ['USDT'] } })),
    );
    const results = await Promise.all(people.map((p, i) => w.api.create(p, { address: addresses[i], network: 'CELO', currencies: ['USDT'] }, codes[i])));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
    expect((await w.api.list(ADMIN)).filter((x) => x.network === 'CELO' && x.status === 'pending_approval')).toHaveLength(3);
  });

  it('refuses a bad address on every network, and an address of another network', async () => {
    for (const network of NETWORKS.filter((n) => n !== 'SOL')) {
      const res = await w.api.create(
        ADMIN,
        {
          address: typo(generateDemoAddress(network).address),
          network,
          currencies: [network === 'BTC' ? 'BTC' : network === 'XLM' || network === 'BASE' ? 'USDC' : 'USDT'],
        },
        '000000',
      );
      expect(res.statusCode, `${network}: ${res.body}`).toBe(400);
      expect(res.json(), network).toMatchObject({ code: 'InvalidWalletAddress', message: WALLET_MESSAGES.invalidAddress });
    }
    const wrong: [Network, string][] = [
      ['ERC20', generateDemoAddress('TRC20').address],
      ['TRC20', generateDemoAddress('ERC20').address],
      ['SOL', 'not-base58-0OIl'],
      ['SOL', generateDemoAddress('TRC20').address],
      ['XLM', generateDemoAddress('SOL').address],
      ['BTC', 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx'],
    ];
    for (const [network, address] of wrong) {
      const res = await w.api.create(ADMIN, { address, network, currencies: ['USDT'] }, '000000');
      expect(res.statusCode, `${network} ${address}`).toBe(400);
    }
    // a tag goes with Stellar only
    const tagged = await w.api.create(ADMIN, { address: generateDemoAddress('TRC20').address, tag: '123' }, '000000');
    expect(tagged.statusCode).toBe(400);
    // an EVM address without a checksum (all lower case) is taken, and stored checksummed
    const lower = generateDemoAddress('ERC20').address.toLowerCase();
    const ok = await w.api.create(ADMIN, { address: lower, network: 'ERC20', currencies: ['USDC'] });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json<{ wallet: SettlementWallet }>().wallet.address).toBe(toEip55(lower));
    // a Stellar wallet with its memo
    const xlm = generateDemoAddress('XLM');
    const stellar = await w.api.create(ADMIN, { address: xlm.address, network: 'XLM', currencies: ['USDC'], tag: xlm.tag });
    expect(stellar.json()).toMatchObject({ wallet: { tag: xlm.tag, network: 'XLM' } });
  });

  it('refuses an address with a control character on every wallet call, as a bad address (never a 500)', async () => {
    for (const address of ['a\u0000b', 'T\u0007R', '\u001b[31mTR', 'TR\u007f', 'TR\ud800']) {
      const replies = {
        create: await w.api.create(ADMIN, { address }, '000000'),
        review: await w.api.review(TREASURY, { address, status: 'approved' }),
        update: await w.api.update(ADMIN, { address, status: 'disabled' }),
        // a lone surrogate cannot be written in a URL at all; the other four reach the path parameter
        ...(address.endsWith('\ud800') ? {} : { remove: await w.api.remove(ADMIN, address, { reason: WALLET_DELETION_REASONS[0] }, '000000') }),
      };
      for (const [call, res] of Object.entries(replies)) {
        expect(res.statusCode, `${call} ${JSON.stringify(address)}: ${res.body}`).toBe(400);
        expect(res.json<{ message: string }>().message, call).toContain(WALLET_MESSAGES.invalidAddress);
      }
    }
  });

  it('refuses a wrong, a used and an expired code, and changes nothing then', async () => {
    const a = generateDemoAddress('TRC20').address;
    const add = (address: string) => ({ action: 'wallet.add', target: { address, network: 'TRC20' } });
    const code = await w.codeFor(ADMIN, add(a));
    const wrong = await w.api.create(ADMIN, { address: a }, String((Number(code) + 1) % 1_000_000).padStart(6, '0'));
    expect(wrong.json()).toMatchObject({ code: 'InvalidOtp', message: 'The code you entered is incorrect. Try again.' });
    expect((await w.api.create(ADMIN, { address: a }, code)).statusCode).toBe(201);
    const b = generateDemoAddress('TRC20').address;
    const used = await w.api.create(ADMIN, { address: b }, code);
    expect(used.statusCode).toBe(400);
    expect(used.json()).toMatchObject({ code: 'InvalidOtp' });
    const late = await w.codeFor(ADMIN, add(b));
    t.clock.now += EMAIL_OTP_MINUTES * 60_000 + 1000;
    const expired = await w.api.create(ADMIN, { address: b }, late);
    expect(expired.json()).toMatchObject({ code: 'InvalidOtp' });
    expect(await find(ADMIN, b)).toBeUndefined();
    // deleting needs a live code too
    const deleteCode = await w.codeFor(ADMIN, { action: 'wallet.delete', target: { address: a } });
    t.clock.now += EMAIL_OTP_MINUTES * 60_000 + 1000;
    expect((await w.api.remove(ADMIN, a, { reason: WALLET_DELETION_REASONS[0] }, deleteCode)).json()).toMatchObject({ code: 'InvalidOtp' });
    expect((await find(ADMIN, a))?.status).toBe('pending_approval');
  });

  it('deletes softly with one of the four reasons: the wallet stays listed as deleted, with its reason', async () => {
    const wallet = await w.enabledWallet(ADMIN, ADMIN2);
    const odd = await w.api.remove(TREASURY, wallet.address, { reason: 'Because' });
    expect(odd.statusCode).toBe(400);
    const res = await w.api.remove(TREASURY, wallet.address, { reason: 'This wallet was compromised' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await find(ADMIN, wallet.address)).toMatchObject({ status: 'deleted', reason: 'This wallet was compromised' });
    expect((await w.api.update(ADMIN, { address: wallet.address, status: 'disabled' })).statusCode).toBe(404);
    const audit = await t.database.db.selectFrom('audit_events').select(['action', 'actor']).where('target', '=', wallet.id).orderBy('created_at').execute();
    expect(audit.map((a) => a.action)).toEqual([
      'settlement_wallet.created',
      'settlement_wallet.approved',
      'settlement_wallet.screening_passed',
      'settlement_wallet.deleted',
    ]);
  });

  it('enabling a disabled wallet needs the e-mailed code; disabling does not', async () => {
    const wallet = await w.enabledWallet(TREASURY, ADMIN);
    expect((await w.api.update(TREASURY, { address: wallet.address, status: 'disabled' })).json()).toMatchObject({ wallet: { status: 'disabled' } });
    const noCode = await w.api.update(TREASURY, { address: wallet.address, status: 'enabled' });
    expect(noCode.json()).toMatchObject({ code: 'InvalidOtp' });
    const enable = { action: 'wallet.enable', target: { address: wallet.address } };
    expect((await w.api.update(TREASURY, { address: wallet.address, status: 'enabled', otp: await w.codeFor(TREASURY, enable) })).json()).toMatchObject({
      wallet: { status: 'enabled' },
    });
    // a wallet pending approval cannot be enabled around the review
    const pending = generateDemoAddress('TRC20').address;
    expect((await w.api.create(TREASURY, { address: pending })).statusCode).toBe(201);
    const asked = await w.as(TREASURY).browser.put('/api/v1/user/otp', { action: 'wallet.enable', target: { address: pending } }, w.opts(TREASURY));
    expect(asked.statusCode).toBe(409);
  });
});
