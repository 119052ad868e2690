import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { createBase58check } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PARTNERS } from '../src/db/seed/demo.ts';
import { deriveAddress, generateDemoAddress, parseExtendedPublicKey, validateAddress } from '../src/lib/deposit-addresses.ts';
import { ImportRefused, createDepositAddressService } from '../src/modules/partners/deposit-addresses.service.ts';
import { DATABASES, setup, signedInCalls, signIn, type TestContext } from './harness.ts';

/** BIP32 test vector 1 (seed 000102...0f): its master xpub is the operator key of these tests, for EVM and TRON. */
const TV1_SEED = Buffer.from('000102030405060708090a0b0c0d0e0f', 'hex');
const TV1_XPUB = 'xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8';

/** The account of m/0/i computed apart from the code under test: from the private key, in TRON's and EIP-55's encodings. */
const b58check = createBase58check((d: Uint8Array) => new Uint8Array(crypto.createHash('sha256').update(d).digest()));
function accountOf(index: number): Uint8Array {
  const privateKey = HDKey.fromMasterSeed(TV1_SEED).derive(`m/0/${index}`).privateKey!;
  return keccak_256(secp256k1.getPublicKey(privateKey, false).slice(1)).slice(12);
}
const tronOf = (index: number) => b58check.encode(Uint8Array.of(0x41, ...accountOf(index)));
function evmOf(index: number): string {
  const lower = Buffer.from(accountOf(index)).toString('hex');
  const hash = Buffer.from(keccak_256(Buffer.from(lower, 'ascii'))).toString('hex');
  return `0x${[...lower].map((c, i) => (parseInt(hash[i]!, 16) > 7 ? c.toUpperCase() : c)).join('')}`;
}

type Addr = { currencyNetwork: string; network: string; address: string; tag: string | null; status: string; demo: boolean };
type Session = Awaited<ReturnType<typeof signIn>>;
const ADMINS = ['admin@acme.test', 'admin@kora.test', 'admin@lean.test', 'admin@baobab.test'] as const;

describe.each(DATABASES)('deposit addresses outside the demo on %s', (kind) => {
  let t: TestContext;
  const s: Record<string, Session> = {};
  beforeAll(async () => {
    t = await setup(kind, { config: { DEMO: 'false', DEPOSIT_XPUB_EVM: TV1_XPUB, DEPOSIT_XPUB_TRON: TV1_XPUB, LOGIN_RATE_LIMIT: '10000' } });
    for (const email of [...ADMINS, 'treasury@acme.test', 'viewer@acme.test']) {
      s[email] = await signIn(t, email);
      // fetch the request-forgery token once, so that the parallel calls below all carry the same one
      await s[email].browser.post('/api/v1/partner/addresses', {}, { token: s[email].accessToken });
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  const as = (email: string) => signedInCalls(s[email]!);
  const service = () => createDepositAddressService({ db: t.database.db, config: t.app.config, now: () => t.clock.now });
  const rows = () =>
    t.database.db
      .selectFrom('deposit_addresses')
      .select(['partner_id', 'currency_network', 'network', 'address', 'tag', 'source', 'derivation_key', 'derivation_index'])
      .execute();
  const counts = async () => {
    const n = async (table: 'deposit_addresses' | 'deposit_derivation_counters' | 'deposit_address_pool' | 'audit_events') =>
      Number(
        (
          await t.database.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      addresses: await n('deposit_addresses'),
      counters: await n('deposit_derivation_counters'),
      pool: await n('deposit_address_pool'),
      audit: await n('audit_events'),
    };
  };

  it('hides the demo addresses of the seed, and a GET writes nothing', async () => {
    const before = await counts();
    expect(before.addresses).toBeGreaterThan(0); // the seed's demo rows are in the table...
    const acme = (await as('admin@acme.test').get('/api/v1/partner/addresses')).json<{ addresses: Addr[]; assignable: string[] }>();
    expect(acme.addresses).toEqual([]); // ...but never shown outside the demo
    expect(acme.assignable).toContain('usdt-trc20');
    for (const cn of ['usdt-trc20', 'usdc-erc20', 'usdc-xlm', 'usdt-sol', 'btc-btc']) {
      const res = await as('treasury@acme.test').get(`/api/v1/partner/address?currencyNetwork=${cn}`);
      expect(res.statusCode, cn).toBe(404);
      expect(res.json()).toMatchObject({ message: 'Address not found' });
    }
    expect((await as('admin@lean.test').get('/api/v1/partner/addresses')).json<{ addresses: Addr[] }>().addresses).toEqual([]);
    expect(await counts()).toEqual(before);
  });

  it('invents nothing where no key and no pool address serve the network: 409, nothing written', async () => {
    const before = await counts();
    const { assignable } = (await as('admin@lean.test').get('/api/v1/partner/addresses')).json<{ assignable: string[] }>();
    expect(assignable.filter((cn) => /-(sol|xlm|btc)$/.test(cn))).toEqual([]);
    expect(assignable).toEqual(expect.arrayContaining(['usdt-trc20', 'usdt-erc20', 'usdc-polygon', 'usdc-base', 'usdt-celo']));
    for (const [currency, network] of [
      ['USDT', 'SOL'],
      ['USDC', 'XLM'],
      ['BTC', 'BTC'],
    ]) {
      const res = await as('admin@lean.test').post('/api/v1/partner/addresses', { currency, network });
      expect(res.statusCode, network).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'Conflict',
        message: `No ${currency} (${network}) deposit address can be assigned yet: none is configured. Contact support.`,
      });
    }
    expect(await counts()).toEqual(before);
  });

  it('derives TRC20 and EVM addresses from the operator key, one index per assignment, replacing a demo row', async () => {
    const acme = await as('treasury@acme.test').post('/api/v1/partner/addresses', { currency: 'USDT', network: 'TRC20' });
    expect(acme.statusCode).toBe(201);
    expect(acme.json<{ address: Addr }>().address).toMatchObject({
      currencyNetwork: 'usdt-trc20',
      network: 'TRC20',
      address: tronOf(0),
      tag: null,
      status: 'active',
      demo: false,
    });
    const kora = await as('admin@kora.test').post('/api/v1/partner/addresses', { currency: 'USDT', network: 'TRC20' });
    expect(kora.json<{ address: Addr }>().address.address).toBe(tronOf(1));
    const erc20 = await as('admin@kora.test').post('/api/v1/partner/addresses', { currency: 'USDC', network: 'ERC20' });
    expect(erc20.json<{ address: Addr }>().address.address).toBe(evmOf(0));
    // the seed's demo row for acme usdt-trc20 is gone: one row, from the key
    const acmeRows = (await rows()).filter((r) => r.partner_id === DEMO_PARTNERS.acme.id && r.currency_network === 'usdt-trc20');
    expect(acmeRows).toEqual([expect.objectContaining({ source: 'xpub', derivation_index: 0, address: tronOf(0) })]);
    const event = await t.database.db
      .selectFrom('audit_events')
      .select(['actor', 'details'])
      .where('action', '=', 'deposit_address.assigned')
      .where('partner_id', '=', DEMO_PARTNERS.acme.id)
      .executeTakeFirstOrThrow();
    expect(event.actor).toBe('treasury@acme.test');
    // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- vitest types its asymmetric matchers (expect.any, objectContaining) any
    expect(event.details).toMatchObject({ source: 'xpub', derivationIndex: 0, replacedDemoAddress: expect.any(String) });
    // the address stays: a second call answers it, the GET shows it
    const again = await as('admin@acme.test').post('/api/v1/partner/addresses', { currency: 'USDT', network: 'TRC20' });
    expect(again.statusCode).toBe(200);
    expect((await as('viewer@acme.test').get('/api/v1/partner/address')).json<{ address: Addr }>().address.address).toBe(tronOf(0));
  });

  it('refuses a view user and ignores a partnerId in the body', async () => {
    const view = await as('viewer@acme.test').post('/api/v1/partner/addresses', { currency: 'USDT', network: 'ERC20' });
    expect(view.statusCode).toBe(403);
    const res = await as('admin@lean.test').post('/api/v1/partner/addresses', { currency: 'USDT', network: 'ERC20', partnerId: DEMO_PARTNERS.acme.id });
    expect(res.statusCode).toBe(201);
    const given = (await rows()).filter((r) => r.address === res.json<{ address: Addr }>().address.address);
    expect(given.map((r) => r.partner_id)).toEqual([DEMO_PARTNERS.lean.id]);
    expect((await as('admin@acme.test').get('/api/v1/partner/address?currencyNetwork=usdt-erc20')).statusCode).toBe(404);
  });

  it('never gives one index twice when assignments run at once', async () => {
    const pairs = [
      ['USDT', 'ERC20'],
      ['USDC', 'POLYGON'],
      ['USDT', 'POLYGON'],
      ['USDC', 'BASE'],
      ['USDT', 'CELO'],
      ['PYUSD', 'ERC20'],
    ] as const;
    const calls = ADMINS.flatMap((email) => pairs.map(([currency, network]) => as(email).post('/api/v1/partner/addresses', { currency, network })));
    const results = await Promise.all(calls);
    expect(results.map((r) => r.statusCode).filter((c) => c !== 201 && c !== 200)).toEqual([]);
    const evm = (await rows()).filter((r) => r.source === 'xpub' && r.derivation_key!.startsWith('EVM:'));
    const indexes = evm.map((r) => r.derivation_index!).sort((a, b) => a - b);
    expect(indexes).toEqual([...Array(evm.length).keys()]); // 0..n-1, each once
    expect(new Set(evm.map((r) => `${r.network}|${r.address}`)).size).toBe(evm.length);
    const key = parseExtendedPublicKey('EVM', TV1_XPUB);
    for (const r of evm) expect(r.address).toBe(deriveAddress(key, r.network as 'ERC20', r.derivation_index!));
    const counter = await t.database.db
      .selectFrom('deposit_derivation_counters')
      .select('next_index')
      .where('derivation_key', '=', key.keyId)
      .executeTakeFirstOrThrow();
    expect(counter.next_index).toBe(evm.length);
  });

  describe('the imported pool', () => {
    const sol = Array.from({ length: 5 }, () => generateDemoAddress('SOL').address);
    const xlm = generateDemoAddress('XLM').address;

    it('refuses a whole file when a line fails its checks, and names the lines', async () => {
      const before = await counts();
      const file = [`# Solana deposit addresses`, sol[0], '', `${sol[1]} 123`, 'not-an-address', `${sol[2]!.slice(0, -1)}0OIl`].join('\n');
      const err = await service()
        .importPool('SOL', file)
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ImportRefused);
      expect((err as ImportRefused).problems.map((p) => [p.line, p.problem])).toEqual([
        [4, 'a SOL address takes no memo'],
        [5, 'not a valid SOL address (format or checksum)'],
        [6, 'not a valid SOL address (format or checksum)'],
      ]);
      await expect(service().importPool('XLM', `${xlm}\n`)).rejects.toMatchObject({
        problems: [{ line: 1, problem: 'a Stellar address needs its memo (a memo id) after it' }],
      });
      expect(await counts()).toEqual(before);
    });

    it('imports checked addresses once: a second import of the same file adds nothing', async () => {
      expect(await service().importPool('SOL', `${sol.join('\n')}\n${sol[0]}\n`)).toEqual({ added: 5, skipped: 0 });
      expect(await service().importPool('SOL', sol.join('\r\n'))).toEqual({ added: 0, skipped: 5 });
      expect(await service().importPool('XLM', `${xlm} 1001\n${xlm},1002\n${xlm} 1003 # third memo\n`)).toEqual({ added: 3, skipped: 0 });
      // an address already given to a partner is not imported again
      const given = (await rows()).find((r) => r.network === 'ERC20')!;
      expect(await service().importPool('ERC20', given.address)).toEqual({ added: 0, skipped: 1 });
    });

    it('never hands one pool address to two partners when requests race', async () => {
      const calls = ADMINS.flatMap((email) => [
        as(email).post('/api/v1/partner/addresses', { currency: 'USDT', network: 'SOL' }),
        as(email).post('/api/v1/partner/addresses', { currency: 'USDC', network: 'SOL' }),
      ]);
      const results = await Promise.all(calls);
      const codes = results.map((r) => r.statusCode).sort();
      expect(codes).toEqual([201, 201, 201, 201, 201, 409, 409, 409]);
      const given = results.filter((r) => r.statusCode === 201).map((r) => r.json<{ address: Addr }>().address.address);
      expect(new Set(given).size).toBe(5);
      expect([...given].sort()).toEqual([...sol].sort());
      const pool = await t.database.db.selectFrom('deposit_address_pool').select(['address', 'partner_id']).where('network', '=', 'SOL').execute();
      // the seed's hidden demo rows stay where a partner got no pool address (which partners do depends on the race)
      const table = (await rows()).filter((r) => r.network === 'SOL' && r.source !== 'demo');
      expect(table).toHaveLength(5);
      for (const r of table) expect(pool.find((p) => p.address === r.address)?.partner_id).toBe(r.partner_id);
      expect(table.every((r) => r.source === 'pool')).toBe(true);
    });

    it('gives a partner asking many times at once one address, and gives the others back to the pool', async () => {
      const calls = Array.from({ length: 6 }, (_, i) =>
        as(i % 2 ? 'admin@acme.test' : 'treasury@acme.test').post('/api/v1/partner/addresses', { currency: 'USDC', network: 'XLM' }),
      );
      const results = await Promise.all(calls);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 200, 200, 201]);
      const addresses = new Set(
        results.map((r) => {
          const a = r.json<{ address: Addr }>().address;
          return `${a.address} ${a.tag}`;
        }),
      );
      expect(addresses.size).toBe(1);
      expect([...addresses][0]).toBe(`${xlm} 1001`);
      const free = await t.database.db
        .selectFrom('deposit_address_pool')
        .select('tag')
        .where('network', '=', 'XLM')
        .where('assigned_at', 'is', null)
        .orderBy('tag')
        .execute();
      expect(free.map((r) => r.tag)).toEqual(['1002', '1003']);
    });

    it('lets the operator assign an address to a partner', async () => {
      const { address, created } = await service().assignForOperator(DEMO_PARTNERS.baobab.id, 'usdc-xlm');
      expect(created).toBe(true);
      expect(address).toMatchObject({ address: xlm, tag: '1002', demo: false });
      const event = await t.database.db
        .selectFrom('audit_events')
        .select('actor')
        .where('partner_id', '=', DEMO_PARTNERS.baobab.id)
        .where('action', '=', 'deposit_address.assigned')
        .where('target', '=', address.id)
        .executeTakeFirstOrThrow();
      expect(event.actor).toBe('operator');
      expect(validateAddress('XLM', address.address)).toBe(true);
    });
  });
});

const run = promisify(execFile);

/** The CLI as the operator runs it: on the PostgreSQL server when there is one (quicker to open), else on PGlite. */
describe('operator commands', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-cli-'));
  const adminUrl = process.env.TEST_DATABASE_URL;
  const dbName = `portal_test_cli_${crypto.randomBytes(6).toString('hex')}`;
  const databaseUrl = adminUrl ? Object.assign(new URL(adminUrl), { pathname: `/${dbName}` }).toString() : '';
  const env = { ...process.env, DATA_DIR: dataDir, DEMO: 'false', DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', DEPOSIT_XPUB_TRON: TV1_XPUB };
  const cli = (...args: string[]) =>
    run(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { env, cwd: path.resolve(import.meta.dirname, '..') }).then(
      (r) => ({ code: 0, out: r.stdout, err: r.stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout, err: e.stderr }),
    );
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(sql);
    await client.end();
  };
  beforeAll(async () => {
    if (adminUrl) await admin(`create database ${dbName}`);
  });
  afterAll(async () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (adminUrl) await admin(`drop database if exists ${dbName} with (force)`);
  });

  it('import-addresses checks every line; create-partner gives the default TRC20 address; assign-address takes from the pool', async () => {
    const good = generateDemoAddress('SOL').address;
    fs.writeFileSync(path.join(dataDir, 'bad.txt'), `${good}\nnot-solana\n`);
    fs.writeFileSync(path.join(dataDir, 'good.txt'), `${good}\n`);
    const bad = await cli('import-addresses', '--network', 'SOLANA', '--file', path.join(dataDir, 'bad.txt'));
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('line 2: not a valid SOL address (format or checksum): not-solana');
    expect(bad.err).toContain('nothing imported');
    const ok = await cli('import-addresses', '--network', 'SOLANA', '--file', path.join(dataDir, 'good.txt'));
    expect(ok.out).toContain('Imported 1 SOL address(es); 0 already known, skipped.');
    const created = await cli('create-partner', '--name', 'Savanna Pay', '--abbreviation', 'SVP', '--type', 'B2B');
    expect(created.out).toContain(`Deposit address USDT (TRC20): ${tronOf(0)}`);
    const assigned = await cli('assign-address', '--partner', 'svp', '--currency', 'usdc', '--network', 'solana');
    expect(assigned.out).toContain(`Assigned: Savanna Pay USDC (SOL) ${good}`);
    const sources = await cli('address-sources', '--preview', '2');
    expect(sources.out).toMatch(/TRC20\s+TRON key 3442193e, next index 1/);
    expect(sources.out).toMatch(/SOL\s+none: no key configured and no free pool address/);
    expect(sources.out).toContain(`1  ${tronOf(1)}`);
  }, 120_000);
});
