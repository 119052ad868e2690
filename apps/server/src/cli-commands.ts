import fs from 'node:fs';
import type { parseArgs } from 'node:util';
import { COINS, FEATURE_FLAGS, NETWORKS, type Coin, type FeatureFlag, type Network } from '@portal/contract/domain';
import { currencyNetworkFor } from '@portal/contract/partner';
import { INVITATION_DAYS } from '@portal/contract/team';
import { ConfigError, type Config } from './config.ts';
import type { composeOperatorTools } from './composition.ts';
import type { Database } from './db/database.ts';
import { demoTable, resetDemoData, seedDemo, seedManyTransactions } from './db/seed/demo.ts';
import { prepareQueueSchema } from './jobs/boss.ts';
import { deriveAddress, xpubFamilyOf } from './lib/deposit-addresses.ts';
import { AppError } from './lib/errors.ts';
import { rekey as rekeyDatabase } from './lib/key-check.ts';
import type { Keys } from './lib/keys.ts';
import { ImportRefused, configuredKeys } from './modules/partners/index.ts';

/** The operator's commands (`npm run portal -- <command>`), one function each; cli.ts parses, opens and dispatches. */

export const USAGE = `Usage: npm run portal -- <command> [options]

Commands:
  migrate                         apply pending database migrations
  seed [--reset] [--transactions N]
                                  create the demo data (idempotent); --reset deletes and recreates it;
                                  --transactions N fills each demo partner's transaction tables to N rows
  create-partner --name N --abbreviation A --type B2B|COMMERCIAL
                 [--whitelisted] [--fiat-wallets] [--flag F ...] [--low-balance-limit AMOUNT]
  set-flags --partner ID|ABBR [--on F ...] [--off F ...]
  invite-admin --partner ID|ABBR --name N --email E
                                  invite the partner's first admin: a one-time link by e-mail
  add-fiat-wallet --partner ID|ABBR --currency C --country CC
                                  give a partner with fiat wallets a wallet in a local currency (e.g. NGN, NG);
                                  the default USD wallet needs none
  import-addresses --network N --file F
                                  add deposit addresses to the pool, one a line (Stellar: the address, then its
                                  memo id); every line is checked, and a file with a bad line imports nothing
  assign-address --partner ID|ABBR --currency C --network N
                                  give the partner its deposit address for a coin on a network
  address-sources [--preview N]   where each network's deposit addresses come from; --preview N prints the first
                                  N addresses of each configured key, to compare with the operator's wallet
  rekey                           the step of a key rotation that retires the old keys: seals every stored secret
                                  again with the current ENCRYPTION_KEY and moves the database to the current keys
                                  (docs/deployment.md, "Rotating the keys"); exits 1 when a secret cannot be opened
  reconcile                       every account's kept balance and reservations against its ledger entries, and every
                                  withdrawal against its one debit; exits 1 when one differs (the daily check, run
                                  now: after a restore, say)

Feature flags: ${FEATURE_FLAGS.join(', ')}
Networks: ${NETWORKS.join(', ')} (also SOLANA, STELLAR, TRON, ETHEREUM, BITCOIN); coins: ${COINS.join(', ')}`;

const NETWORK_ALIASES: Record<string, Network> = {
  SOLANA: 'SOL',
  STELLAR: 'XLM',
  TRON: 'TRC20',
  ETHEREUM: 'ERC20',
  ETH: 'ERC20',
  BITCOIN: 'BTC',
  MATIC: 'POLYGON',
};

function networkOf(value: string | undefined): Network {
  const upper = (value ?? '').trim().toUpperCase();
  const network = NETWORK_ALIASES[upper] ?? (NETWORKS as readonly string[]).find((n) => n === upper);
  if (!network) throw new ConfigError(`--network must be one of ${NETWORKS.join(', ')}${value ? ` (not ${value})` : ''}\n\n${USAGE}`);
  return network as Network;
}

function coinOf(value: string | undefined): Coin {
  const upper = (value ?? '').trim().toUpperCase();
  if (!(COINS as readonly string[]).includes(upper))
    throw new ConfigError(`--currency must be one of ${COINS.join(', ')}${value ? ` (not ${value})` : ''}\n\n${USAGE}`);
  return upper as Coin;
}

function flagList(values: string[] | undefined): FeatureFlag[] {
  const out: FeatureFlag[] = [];
  for (const v of values ?? []) {
    if (!(FEATURE_FLAGS as readonly string[]).includes(v)) throw new ConfigError(`Unknown feature flag: ${v}\n\n${USAGE}`);
    out.push(v as FeatureFlag);
  }
  return out;
}

/** The options every command may take (each reads its own). */
export const CLI_OPTIONS = {
  reset: { type: 'boolean' },
  transactions: { type: 'string' },
  name: { type: 'string' },
  abbreviation: { type: 'string' },
  type: { type: 'string' },
  whitelisted: { type: 'boolean' },
  'fiat-wallets': { type: 'boolean' },
  flag: { type: 'string', multiple: true },
  on: { type: 'string', multiple: true },
  off: { type: 'string', multiple: true },
  'low-balance-limit': { type: 'string' },
  partner: { type: 'string' },
  email: { type: 'string' },
  network: { type: 'string' },
  currency: { type: 'string' },
  file: { type: 'string' },
  preview: { type: 'string' },
  country: { type: 'string' },
} as const;

type CliValues = ReturnType<typeof parseArgs<{ args: string[]; options: typeof CLI_OPTIONS }>>['values'];

/** What a command is given: its options, the opened database and keys, and the operator's tools. */
export type CliContext = ReturnType<typeof composeOperatorTools> & {
  values: CliValues;
  config: Config;
  database: Database;
  db: Database['db'];
  keys: Keys;
  /** the migrations applied as the database was opened */
  migrated: string[];
  /** the partner named by --partner (its id or abbreviation); refused when missing or unknown */
  partnerOf: (ref: string | undefined) => Promise<NonNullable<Awaited<ReturnType<ReturnType<typeof composeOperatorTools>['partnerByRef']>>>>;
};

async function migrate({ database, migrated }: CliContext) {
  await prepareQueueSchema(database);
  console.log(migrated.length ? `Applied: ${migrated.join(', ')}` : 'The database is up to date.');
}

async function reconcile({ ledger }: CliContext) {
  const { accountsChecked, differingAccounts: differing, unmatchedWithdrawals: unmatched } = await ledger.checkReconciliation();
  for (const d of differing)
    console.log(
      `${d.partner_id} ${d.currency}: kept ${d.balance}, entries ${d.entries}; reserved ${d.pending_withdrawals}/${d.pending_disbursements}, under way ${d.withdrawals}/${d.disbursements}`,
    );
  for (const w of unmatched) console.log(`${w.partner_id} withdrawal ${w.id} (${w.status}): ${w.debits} debits, not 1`);
  console.log(`${accountsChecked} accounts checked against the ledger: ${differing.length} differ.`);
  console.log(`Withdrawals without exactly one debit: ${unmatched.length}.`);
  if (differing.length || unmatched.length) process.exitCode = 1;
}

async function rekey({ db, keys }: CliContext) {
  const outcome = await rekeyDatabase(db, keys);
  for (const u of outcome.unreadable) console.log(`${u.table}.${u.column} of ${u.id}: no key given opens it`);
  console.log(
    outcome.checkMoved
      ? `${outcome.resealed} secrets sealed again with the current ENCRYPTION_KEY; the database now belongs to the current keys: the accepted ones may be dropped.`
      : `${outcome.resealed} secrets sealed again; ${outcome.unreadable.length} could not be opened, so the database still accepts the keys it had: give the key that sealed them in ENCRYPTION_KEY_ACCEPTED and run rekey again.`,
  );
  if (!outcome.checkMoved) process.exitCode = 1;
}

async function seed({ values, db, keys }: CliContext) {
  if (values.reset) await resetDemoData(db);
  const { created } = await seedDemo(db, keys.encryptionKey);
  console.log(created ? 'Demo data created.' : 'Demo data present already; nothing changed (use --reset to start over).');
  if (values.transactions) {
    const n = Number(values.transactions);
    if (!Number.isInteger(n) || n <= 0) throw new ConfigError(`--transactions takes a whole number of rows\n\n${USAGE}`);
    const started = performance.now();
    await seedManyTransactions(db, n);
    console.log(`Generated up to ${n} rows per transaction table per demo partner in ${Math.round(performance.now() - started)} ms.`);
  }
  console.log(`\n${demoTable()}`);
}

async function createPartner({ values, operator, addresses }: CliContext) {
  const partner = await operator.createPartner({
    name: values.name ?? '',
    abbreviation: values.abbreviation ?? '',
    productType: (values.type ?? '').toUpperCase() as 'B2B',
    whitelisted: values.whitelisted ?? false,
    fiatWalletsEnabled: values['fiat-wallets'] ?? false,
    featureFlags: flagList(values.flag),
    lowBalanceLimit: values['low-balance-limit'],
  });
  console.log(`Created partner ${partner.name} (${partner.abbreviation}) with id ${partner.id}`);
  // a partner starts with the default USDT on TRC20 deposit address (portal-core §7), where one can be given
  try {
    const { address } = await addresses.assignForOperator(partner.id, 'usdt-trc20');
    console.log(`Deposit address USDT (TRC20): ${address.address}${address.demo ? ' (demo address: do not send funds)' : ''}`);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    console.log(`No deposit address yet: ${err.message}\nSet DEPOSIT_XPUB_TRON or import TRC20 addresses, then run assign-address.`);
  }
}

async function setFlags({ values, operator, partnerOf }: CliContext) {
  const partner = await partnerOf(values.partner);
  const changes = Object.fromEntries([...flagList(values.on).map((f) => [f, true]), ...flagList(values.off).map((f) => [f, false])]) as Partial<
    Record<FeatureFlag, boolean>
  >;
  const flags = await operator.setFeatureFlags(partner.id, changes);
  console.log(`Feature flags of ${partner.name}:`);
  for (const [f, on] of Object.entries(flags)) console.log(`  ${on ? 'on ' : 'off'}  ${f}`);
}

async function inviteAdmin({ values, operator, partnerOf }: CliContext) {
  const partner = await partnerOf(values.partner);
  const user = await operator.inviteUser({ partnerId: partner.id, name: values.name ?? '', email: values.email ?? '', role: 'admin' });
  // without the mail, the operator hands the link over: a new partner has no admin yet to resend it
  console.log(
    user.mailSent
      ? `Invited ${user.email} as admin of ${partner.name}; the invitation link was e-mailed (valid ${INVITATION_DAYS} days).`
      : `Invited ${user.email} as admin of ${partner.name}, but the invitation e-mail could not be sent (check SMTP_URL).\nGive them this one-time link yourself (valid ${INVITATION_DAYS} days): ${user.link}`,
  );
}

async function addFiatWallet({ values, fiatWallets, partnerOf }: CliContext) {
  const partner = await partnerOf(values.partner);
  if (!values.currency || !values.country) throw new ConfigError(`--currency and --country are required\n\n${USAGE}`);
  const wallet = await fiatWallets.addForOperator(partner.id, { currency: values.currency, country: values.country });
  console.log(`Added the ${wallet.currency} (${wallet.country}) fiat wallet of ${partner.name} with id ${wallet.id}.`);
  if (!partner.fiat_wallets_enabled)
    console.log('Note: the partner does not have fiat wallets enabled (create-partner --fiat-wallets): it does not see them yet.');
}

async function importAddresses({ values, config, db, addresses }: CliContext) {
  const network = networkOf(values.network);
  if (!values.file) throw new ConfigError(`--file is required\n\n${USAGE}`);
  const text = fs.readFileSync(values.file, 'utf8');
  try {
    const { added, skipped } = await addresses.importPool(network, text);
    const free = (await addresses.provider.describe(db)).find((d) => d.network === network);
    console.log(`Imported ${added} ${network} address(es); ${skipped} already known, skipped.`);
    if (xpubFamilyOf(network) && configuredKeys(config).some((k) => k.family === xpubFamilyOf(network))) {
      console.log(`Note: ${network} addresses come from the configured key first; the pool serves only without it.`);
    }
    if (free) console.log(`${network}: ${free.source}`);
  } catch (err) {
    if (!(err instanceof ImportRefused)) throw err;
    for (const p of err.problems) console.error(`line ${p.line}: ${p.problem}: ${p.text}`);
    throw new ConfigError(`${values.file}: ${err.message}.`);
  }
}

async function assignAddress({ values, addresses, partnerOf }: CliContext) {
  const partner = await partnerOf(values.partner);
  const currency = coinOf(values.currency);
  const network = networkOf(values.network);
  const cn = currencyNetworkFor(currency, network);
  if (!cn) throw new ConfigError(`${currency} is not offered on ${network}`);
  const { address, created } = await addresses.assignForOperator(partner.id, cn);
  console.log(
    `${created ? 'Assigned' : 'Already assigned'}: ${partner.name} ${currency} (${network}) ${address.address}${address.tag ? ` memo ${address.tag}` : ''}${address.demo ? ' (demo address: do not send funds)' : ''}`,
  );
}

async function addressSources({ values, config, db, addresses }: CliContext) {
  for (const d of await addresses.provider.describe(db)) console.log(`${d.network.padEnd(8)} ${d.source}`);
  const preview = values.preview === undefined ? 0 : Number(values.preview);
  if (!Number.isInteger(preview) || preview < 0 || preview > 1000) throw new ConfigError(`--preview takes a whole number up to 1000\n\n${USAGE}`);
  for (const key of configuredKeys(config)) {
    if (preview === 0) break;
    const network = NETWORKS.find((n) => xpubFamilyOf(n) === key.family)!;
    console.log(`\n${key.family} key ${key.fingerprint}, <key>/0/i:`);
    for (let i = 0; i < preview; i++) console.log(`  ${i}  ${deriveAddress(key, network, i)}`);
  }
}

export const COMMANDS: Record<string, (context: CliContext) => Promise<void>> = {
  migrate,
  reconcile,
  rekey,
  seed,
  'create-partner': createPartner,
  'set-flags': setFlags,
  'invite-admin': inviteAdmin,
  'add-fiat-wallet': addFiatWallet,
  'import-addresses': importAddresses,
  'assign-address': assignAddress,
  'address-sources': addressSources,
};
