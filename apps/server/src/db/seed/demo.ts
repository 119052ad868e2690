import { sql, type Kysely } from 'kysely';
import { ALL_FEATURE_FLAGS, NO_FEATURE_FLAGS, type FeatureFlags, type ProductType, type Role, type UserStatus } from '@portal/contract/domain';
import type { DB } from '../schema.ts';
import { encrypt, type KeyRing } from '../../lib/keys.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { sha256 } from '../../lib/tokens.ts';
import { INVITATION_DAYS } from '@portal/contract/team';
import { bookDemoLedger } from './ledger.ts';
import { seedSecurityHistory } from './security-history.ts';
import { TRANSACTION_TABLES, generateTransactions, type TransactionTable } from './transactions.ts';
import { splitCurrencyNetwork, type CurrencyNetworkId } from '@portal/contract/domain';
import { generateDemoAddress } from '../../lib/deposit-addresses.ts';
import { COUNTRY_CURRENCIES, type Country } from '@portal/contract/countries';
import { partnerRateId, platformRateId } from '../reference/markets.ts';

export const DEMO_PASSWORD = 'Portal-demo-2026!';
/** The demo invitation's link token: /accept-invitation#token=… (a real one is 256 random bits, mailed once). */
export const DEMO_INVITATION_TOKEN = '0a5e0000-0000-4000-8000-00000000ac3e.demo-invitation';

type DemoPartner = {
  id: string;
  name: string;
  abbreviation: string;
  productType: ProductType;
  whitelisted: boolean;
  fiatWalletsEnabled: boolean;
  flags: FeatureFlags;
  lowBalanceLimit: string | null;
  balances: Record<string, string>;
  depositNetworks: CurrencyNetworkId[];
  /** stored fiat wallets (the default USD one is added by the service when fiatWalletsEnabled) */
  fiatWallets?: { currency: string; country: string; paymentEnabled: boolean; collectionEnabled: boolean }[];
  /** demo rows per transaction table */
  transactions: Partial<Record<TransactionTable, number>>;
};

export const DEMO_PARTNERS = {
  acme: {
    id: '0a5e0000-0000-4000-8000-00000000ac3e',
    name: 'Acme Remit',
    abbreviation: 'ACME',
    productType: 'B2B',
    whitelisted: false,
    fiatWalletsEnabled: true,
    flags: ALL_FEATURE_FLAGS,
    lowBalanceLimit: '1000',
    balances: { USD: '25000.00', NGN: '12500000.00', KES: '850000.00' },
    depositNetworks: ['usdt-trc20', 'usdt-erc20', 'usdc-erc20', 'usdc-polygon', 'usdc-xlm', 'usdt-sol', 'usdc-sol', 'usdc-base', 'usdt-celo', 'btc-btc'],
    fiatWallets: [
      { currency: 'NGN', country: 'NG', paymentEnabled: true, collectionEnabled: true },
      { currency: 'KES', country: 'KE', paymentEnabled: true, collectionEnabled: false },
    ],
    transactions: { payments: 1200, collections: 1500, settlements: 300, fees: 1500 },
  },
  kora: {
    id: '0a5e0000-0000-4000-8000-00000000c02a',
    name: 'Kora Trade',
    abbreviation: 'KORA',
    productType: 'COMMERCIAL',
    whitelisted: true,
    fiatWalletsEnabled: false,
    flags: { ...NO_FEATURE_FLAGS, paymentsViewEnabled: true, walletManagementEnabled: true },
    lowBalanceLimit: null,
    balances: { USD: '5000.00' },
    depositNetworks: ['usdt-trc20', 'usdc-erc20'],
    transactions: { trades: 400, initiated_payments: 250 },
  },
  baobab: {
    id: '0a5e0000-0000-4000-8000-0000000ba0ba',
    name: 'Baobab OTC',
    abbreviation: 'BAOBAB',
    productType: 'COMMERCIAL',
    whitelisted: false,
    fiatWalletsEnabled: false,
    flags: NO_FEATURE_FLAGS,
    lowBalanceLimit: null,
    balances: {},
    depositNetworks: [],
    transactions: { trades: 150 },
  },
  lean: {
    id: '0a5e0000-0000-4000-8000-0000000001ea',
    name: 'Lean Pay',
    abbreviation: 'LEAN',
    productType: 'B2B',
    whitelisted: false,
    fiatWalletsEnabled: false,
    flags: NO_FEATURE_FLAGS,
    lowBalanceLimit: null,
    balances: { USD: '400.00' },
    depositNetworks: [],
    transactions: { payments: 25, collections: 30, settlements: 4, fees: 30 },
  },
} satisfies Record<string, DemoPartner>;

type DemoUser = {
  id: string;
  email: string;
  name: string;
  partner: keyof typeof DEMO_PARTNERS;
  role: Role;
  /** `invited`: an invitation (its link is DEMO_INVITATION_TOKEN), not yet a user */
  status: UserStatus | 'invited';
  totpSecret: string | null;
  note: string;
};

export const DEMO_USERS: DemoUser[] = [
  {
    id: '0a5e0001-0000-4000-8000-000000000001',
    email: 'admin@acme.test',
    name: 'Ada Mensah',
    partner: 'acme',
    role: 'admin',
    status: 'active',
    totpSecret: 'BPQYTYLSBWY2M6TIWWORONCT33ILZDWS',
    note: 'B2B, every feature flag on, fiat wallets on, low balance limit 1000',
  },
  {
    id: '0a5e0001-0000-4000-8000-000000000002',
    email: 'admin2@acme.test',
    name: 'Kwame Boateng',
    partner: 'acme',
    role: 'admin',
    status: 'active',
    totpSecret: 'ROT35LOQ3NI2YO2QWAZSXUSH6XZQLLQ7',
    note: '',
  },
  {
    id: '0a5e0001-0000-4000-8000-000000000003',
    email: 'treasury@acme.test',
    name: 'Thandi Nkosi',
    partner: 'acme',
    role: 'treasury',
    status: 'active',
    totpSecret: 'YTDLDHNSDTMRK5X66MPBBKSJISJKKWPG',
    note: '',
  },
  {
    id: '0a5e0001-0000-4000-8000-000000000004',
    email: 'viewer@acme.test',
    name: 'Femi Adeyemi',
    partner: 'acme',
    role: 'view',
    status: 'active',
    totpSecret: 'CIPWDNAADDSM4NZYOELNZ3ABUHMSACE5',
    note: '',
  },
  {
    id: '0a5e0001-0000-4000-8000-000000000005',
    email: 'admin@kora.test',
    name: 'Wanjiru Kamau',
    partner: 'kora',
    role: 'admin',
    status: 'active',
    totpSecret: '6UD4DOF23PPMUIGKE53N4DXPBYX32HFC',
    note: 'COMMERCIAL, whitelisted, payments view on, wallet management on',
  },
  {
    id: '0a5e0001-0000-4000-8000-000000000006',
    email: 'admin@baobab.test',
    name: 'Moussa Diop',
    partner: 'baobab',
    role: 'admin',
    status: 'active',
    totpSecret: '7YFDFQSND76ZSXODJEZJJK7FV3QHJKUP',
    note: 'COMMERCIAL, not whitelisted',
  },
  {
    id: '0a5e0001-0000-4000-8000-000000000007',
    email: 'admin@lean.test',
    name: 'Zanele Dube',
    partner: 'lean',
    role: 'admin',
    status: 'active',
    totpSecret: '3QL2XLSQMUJCIISK6WM7P2CV36HDSC4Z',
    note: 'B2B, every feature flag off, no fiat wallets',
  },
  {
    id: '0a5e0001-0000-4000-8000-000000000008',
    email: 'invited@acme.test',
    name: 'Chidi Okafor',
    partner: 'acme',
    role: 'view',
    status: 'invited',
    totpSecret: null,
    note: `invited: no account yet; the link /accept-invitation#token=${DEMO_INVITATION_TOKEN} chooses a password`,
  },
  {
    id: '0a5e0001-0000-4000-8000-000000000009',
    email: 'inactive@acme.test',
    name: 'Amara Sow',
    partner: 'acme',
    role: 'view',
    status: 'inactive',
    totpSecret: 'CIPWDNAADDSM4NZYOELNZ3ABUHMSACE5',
    note: 'account inactive',
  },
];

/** Tables holding demo partners' rows, children first: --reset deletes in this order. Later features add theirs. */
const PARTNER_OWNED_TABLES = [
  'payment_order_events',
  'payment_orders',
  'settlement_requests',
  'settlement_wallets',
  'wallet_address_owners',
  'report_jobs',
  'collections',
  'payments',
  'settlements',
  'fees',
  'trades',
  'initiated_payments',
  'payout_configs',
  'partner_rates',
  'deposit_addresses',
  'auth_challenges',
  'refresh_tokens',
  'auth_sessions',
  'recovery_codes',
  'password_reset_codes',
  'ledger_entries',
  'audit_events',
  'notifications',
  'notification_preferences',
  'low_balance_alerts',
  'password_history',
  'invitations',
  'passkeys',
  'passkey_ceremonies',
  'users',
  'fiat_wallets',
  'currency_accounts',
] as const;

const demoPartnerIds = () => Object.values(DEMO_PARTNERS).map((p) => p.id);

export async function hasDemoData(db: Kysely<DB>): Promise<boolean> {
  const row = await db.selectFrom('partners').select('id').where('id', 'in', demoPartnerIds()).executeTakeFirst();
  return row !== undefined;
}

export async function resetDemoData(db: Kysely<DB>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const table of PARTNER_OWNED_TABLES) {
      await trx.deleteFrom(table).where('partner_id', 'in', demoPartnerIds()).execute();
    }
    await trx.deleteFrom('partners').where('id', 'in', demoPartnerIds()).execute();
  });
}

/** A valid but random address of the network, marked demo (the seed writes its own rows; modules are above it). */
async function insertDemoAddress(db: Kysely<DB>, partnerId: string, currencyNetwork: CurrencyNetworkId) {
  const { coin, network } = splitCurrencyNetwork(currencyNetwork);
  const { address, tag } = generateDemoAddress(network);
  await db
    .insertInto('deposit_addresses')
    .values({
      partner_id: partnerId,
      currency_network: currencyNetwork,
      cryptocurrency: coin,
      network,
      address,
      tag,
      source: 'demo',
      derivation_key: null,
      derivation_index: null,
    })
    .onConflict((oc) => oc.columns(['partner_id', 'currency_network']).doNothing())
    .execute();
}

/** The partner's rates of these platform rates, enabled (as its operator would). */
async function enableDemoRates(db: Kysely<DB>, partnerId: string, platformRateIds: string[]) {
  await db
    .insertInto('partner_rates')
    .values(platformRateIds.map((rateId) => ({ partner_id: partnerId, id: partnerRateId(partnerId, rateId), platform_rate_id: rateId, status: 'enabled' })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** Creates the demo partners, users and balances; a second run changes nothing. */
export async function seedDemo(db: Kysely<DB>, encryptionKey: KeyRing, options: { transactions?: boolean } = {}): Promise<{ created: boolean }> {
  if (await hasDemoData(db)) return { created: false };
  // hashes are computed before the transaction: argon2 is slow on purpose and must not hold the database
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const [members, invited] = [DEMO_USERS.filter((u) => u.status !== 'invited'), DEMO_USERS.filter((u) => u.status === 'invited')];
  await db.transaction().execute(async (trx) => {
    for (const p of Object.values(DEMO_PARTNERS) as DemoPartner[]) {
      await trx
        .insertInto('partners')
        .values({
          id: p.id,
          name: p.name,
          abbreviation: p.abbreviation,
          product_types: [p.productType],
          whitelisted: p.whitelisted,
          fiat_wallets_enabled: p.fiatWalletsEnabled,
          feature_flags: JSON.stringify(p.flags),
          low_balance_limit: p.lowBalanceLimit,
          payout_type: p === DEMO_PARTNERS.acme ? 'AUTOMATED' : 'MANUAL',
          payout_frequency: p === DEMO_PARTNERS.acme ? 'Weekly' : null,
          wallet_address: null,
          withdrawal_address: null,
          settlement_threshold: null,
        })
        .execute();
      const currencies = Object.keys(p.balances).length > 0 ? Object.keys(p.balances) : ['USD'];
      await trx
        .insertInto('currency_accounts')
        .values(currencies.map((currency) => ({ partner_id: p.id, currency })))
        .execute();
      for (const [currency, amount] of Object.entries(p.balances)) {
        await trx
          .insertInto('ledger_entries')
          .values({ partner_id: p.id, currency, amount, kind: 'opening_balance', reference: `demo-opening-${currency}` })
          .execute();
      }
      for (const w of p.fiatWallets ?? []) {
        await trx
          .insertInto('fiat_wallets')
          .values({ partner_id: p.id, currency: w.currency, country: w.country, payment_enabled: w.paymentEnabled, collection_enabled: w.collectionEnabled })
          .execute();
      }
    }
    await trx
      .insertInto('users')
      .values(
        members.map((u) => ({
          partner_id: DEMO_PARTNERS[u.partner].id,
          id: u.id,
          name: u.name,
          email: u.email,
          role: u.role,
          status: u.status,
          password_hash: passwordHash,
          totp_secret_enc: u.totpSecret ? encrypt(encryptionKey, u.totpSecret) : null,
          totp_last_step: null,
        })),
      )
      .execute();
    await trx
      .insertInto('invitations')
      .values(
        invited.map((u) => ({
          partner_id: DEMO_PARTNERS[u.partner].id,
          id: u.id,
          name: u.name,
          email: u.email,
          role: u.role,
          token_hash: sha256(DEMO_INVITATION_TOKEN),
          expires_at: new Date(Date.now() + INVITATION_DAYS * 24 * 60 * 60 * 1000),
          invited_by: null,
        })),
      )
      .execute();
  });
  // demo deposit addresses: valid for their network but random (nobody holds their key), marked demo and shown
  // only while DEMO is on; the demo payout schedule shows an automated one
  for (const p of Object.values(DEMO_PARTNERS) as DemoPartner[]) {
    for (const cn of p.depositNetworks) await insertDemoAddress(db, p.id, cn);
    if (options.transactions !== false) await seedTransactions(db, p, null);
  }
  if (options.transactions !== false) {
    const who = (email: string) => {
      const u = DEMO_USERS.find((d) => d.email === email)!;
      return { partnerId: DEMO_PARTNERS[u.partner].id, id: u.id, email: u.email };
    };
    await seedSecurityHistory(db, {
      admin: who('admin@acme.test'),
      admin2: who('admin2@acme.test'),
      treasury: who('treasury@acme.test'),
      viewer: who('viewer@acme.test'),
    });
  }
  // Acme serves four countries from the start; nothing is pending, so no admin sees the review banner before asking
  const acmeCountries = DEMO_COUNTRIES.acme;
  await enableDemoRates(
    db,
    DEMO_PARTNERS.acme.id,
    acmeCountries.map((c) => platformRateId(c, COUNTRY_CURRENCIES[c])),
  );
  // Kora pays out and collects in these markets (its operator enabled them; commercial partners have no countries screen)
  const koraCountries = DEMO_COUNTRIES.kora;
  await enableDemoRates(
    db,
    DEMO_PARTNERS.kora.id,
    koraCountries.map((c) => platformRateId(c, COUNTRY_CURRENCIES[c])),
  );
  await db
    .insertInto('payout_configs')
    .values({
      partner_id: DEMO_PARTNERS.acme.id,
      config: JSON.stringify({
        type: 'AUTOMATED',
        frequency: 'Weekly',
        repeatFrequency: 1,
        weeklyDays: ['Monday', 'Thursday'],
        monthlyDate: null,
        yearlyDate: null,
        endPayout: 'Never',
        endPayoutAfter: null,
        endPayoutDate: null,
      }),
      updated_by: null,
    })
    .execute();
  return { created: true };
}

/** The countries the demo enables for a partner (its rates): its transactions are only there. */
const DEMO_COUNTRIES: Partial<Record<keyof typeof DEMO_PARTNERS, Country[]>> & Record<'acme' | 'kora', Country[]> = {
  acme: ['NG', 'KE', 'GH', 'ZA'],
  kora: ['KE', 'NG', 'GH', 'UG'],
};

/** The demo partner's transactions: its own counts, or `rowsPerTable` in each of its tables when given. */
async function seedTransactions(db: Kysely<DB>, p: DemoPartner, rowsPerTable: number | null) {
  const key = (Object.keys(DEMO_PARTNERS) as (keyof typeof DEMO_PARTNERS)[]).find((k) => DEMO_PARTNERS[k].id === p.id)!;
  for (const [table, count] of Object.entries(p.transactions) as [TransactionTable, number][]) {
    await generateTransactions(db, {
      partnerId: p.id,
      rows: rowsPerTable ?? count,
      seed: `${p.abbreviation.toLowerCase()}-${table}`,
      fiatWallets: p.fiatWalletsEnabled ? ['USD', 'NGN', 'KES'] : null,
      tables: [table],
      countries: DEMO_COUNTRIES[key],
    });
  }
  // the ledger its rows imply, so that the balance and the statement reconcile to the tables
  await bookDemoLedger(db, p.id, Object.keys(p.balances).length > 0 ? p.balances : { USD: '0' });
}

/**
 * `npm run seed -- --transactions N`: N rows in each transaction table of each demo partner (existing ids are kept).
 * Ends as autovacuum would, some minutes later: the tables' visibility maps set, so that the searches' index-only
 * scans read no table rows (right after a bulk load, the planner read the table itself for a search's count).
 */
export async function seedManyTransactions(db: Kysely<DB>, rowsPerTable: number): Promise<void> {
  for (const p of Object.values(DEMO_PARTNERS) as DemoPartner[]) await seedTransactions(db, p, rowsPerTable);
  await sql`vacuum (analyze) ${sql.raw([...TRANSACTION_TABLES, 'ledger_entries'].join(', '))}`.execute(db);
}

/** The table `npm start` prints and the README lists. */
export function demoTable(): string {
  const rows = DEMO_USERS.map((u) => [u.email, DEMO_PARTNERS[u.partner].name, u.role, u.totpSecret ?? '(set up at first sign-in)', u.note]);
  const header = ['e-mail', 'partner', 'role', 'TOTP secret', ''];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [`Demo accounts (password for all: ${DEMO_PASSWORD})`, line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
