import crypto from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import {
  PAYMENT_METHODS as PAYMENT_METHOD_LIST,
  REQUEST_SOURCES,
  SETTLEMENT_STATUSES as SETTLEMENT_STATUS_LIST,
  TRANSACTION_STATUSES,
  type Coin,
  type Network,
  type TransactionStatus,
} from '@portal/contract/domain';
import { countryByLocale } from '@portal/contract/countries';
import { FINAL_STATUSES } from '@portal/contract/status-groups';
import { demoAddressOf } from '../../lib/deposit-addresses.ts';
import { MARKETS } from '../reference/markets.ts';
import type { DB } from '../schema.ts';

/**
 * Realistic transactions, generated inside the database by one INSERT ... SELECT per table, so that a million rows
 * load in seconds. Every value comes from md5(seed, row, column): the same seed gives the same rows (dates are
 * spread over the 18 months before the day of generation).
 */

export const TRANSACTION_TABLES = ['collections', 'payments', 'settlements', 'fees', 'trades', 'initiated_payments'] as const;
export type TransactionTable = (typeof TRANSACTION_TABLES)[number];

const ALL_COUNTRIES = ['NG', 'KE', 'GH', 'ZA', 'UG', 'TZ', 'RW', 'CM', 'SN', 'CI', 'ZM', 'MW'];
const ALL_CURRENCIES = ['NGN', 'KES', 'GHS', 'ZAR', 'UGX', 'TZS', 'RWF', 'XAF', 'XOF', 'XOF', 'ZMW', 'MWK'];
const ALL_USD_RATES = [1550, 129, 15.2, 18.1, 3700, 2650, 1420, 605, 605, 605, 26.5, 1730];
// the value lists come from the contract; repeating a value weighs it
// mostly complete, then the common states, then every other status of transaction-data §4 once
const COMMON_STATUSES: TransactionStatus[] = [
  ...Array<TransactionStatus>(14).fill('complete'),
  'pending',
  'pending',
  'processing',
  'processing',
  'failed',
  'failed',
  'expired',
  'created',
];
const STATUSES = [...COMMON_STATUSES, ...TRANSACTION_STATUSES.filter((s) => !COMMON_STATUSES.includes(s))];
/** The statuses of a payment or collection still under way. */
const UNDER_WAY_STATUSES = TRANSACTION_STATUSES.filter((s) => !FINAL_STATUSES.includes(s));
/** The longest a payment or collection takes (the top-up panel's "24 to 48 hours"): one under way is younger. */
const UNDER_WAY_HOURS = 48;
const SETTLEMENT_STATUSES = [...Array<string>(8).fill('complete'), ...SETTLEMENT_STATUS_LIST.filter((s) => s !== 'complete')];
// stored lower-case, as the filters compare them
const [BANK_TRANSFER, MOBILE_MONEY] = PAYMENT_METHOD_LIST.map((m) => m.toLowerCase());
const PAYMENT_METHODS = [BANK_TRANSFER!, BANK_TRANSFER!, MOBILE_MONEY!];
const SOURCES = ['api', 'api', ...REQUEST_SOURCES];
const COINS: Coin[] = ['USDT', 'USDT', 'USDC', 'USDC', 'PYUSD'];
const NETWORKS: Network[] = ['TRC20', 'TRC20', 'ERC20', 'POLYGON', 'SOL', 'BASE', 'CELO'];
/** Counterparty names of the demo's payments (the live generator draws from them too). */
export const DEMO_NAMES = [
  'Adaeze Okafor',
  'Kofi Mensah',
  'Wanjiku Njoroge',
  'Thabo Nkosi',
  'Aisha Bello',
  'Musa Kato',
  'Fatou Diallo',
  'Chipo Banda',
  'Yaw Boateng',
  'Zainab Musa',
  'Tendai Moyo',
  'Amina Juma',
];

/** Why a payment or collection failed, weighted as operators report them. */
const FAILURE_REASONS = [
  'The receiving network refused the payment',
  'The receiving network refused the payment',
  'The recipient account was not found',
  'The recipient account was not found',
  'The operator did not answer in time',
  'The account limit was exceeded',
];
/** A country's active operators reached by a channel type (its mobile-money wallets or its banks), the first four. */
const operatorsOf = (country: string, via: 'momo' | 'bank') =>
  (MARKETS.find((m) => m.country === country)?.networks ?? [])
    .filter((n) => n.via.includes(via) && !n.inactive)
    .map((n) => n.name)
    .slice(0, 4);
/** How long a country's channel takes to settle, in seconds (the reference data's). */
const settlesOf = (country: string, type: 'momo' | 'bank') => MARKETS.find((m) => m.country === country)?.channels.find((c) => c.type === type)?.settles ?? 600;

const arr = (values: readonly (string | number)[]) =>
  sql.raw(`array[${values.map((v) => (typeof v === 'number' ? String(v) : `'${v.replace(/'/g, "''")}'`)).join(',')}]`);

export type GenerateOptions = {
  partnerId: string;
  rows: number;
  seed: string;
  /** fiat wallet currencies for partners with fiat wallets; null for none */
  fiatWallets: string[] | null;
  tables: readonly TransactionTable[];
  /** the partner's enabled countries: its payments, collections and trades are only there (all the demo's when absent) */
  countries?: readonly string[];
};

export async function generateTransactions(db: Kysely<DB>, o: GenerateOptions): Promise<void> {
  if (o.rows <= 0) return;
  const keep = ALL_COUNTRIES.map((c, i) => i).filter((i) => !o.countries || o.countries.includes(ALL_COUNTRIES[i]!));
  if (keep.length === 0) throw new Error(`No demo country among ${o.countries?.join(', ')}`);
  const COUNTRIES = keep.map((i) => ALL_COUNTRIES[i]!);
  const CURRENCIES = keep.map((i) => ALL_CURRENCIES[i]!);
  const USD_RATES = keep.map((i) => ALL_USD_RATES[i]!);
  // a phone number starts with its country's dialling code (digits only, as the payment forms take it)
  const DIALLING = COUNTRIES.map((c) => countryByLocale(c)!.code.replace(/\D/g, ''));
  // h(k): a non-negative int from the seed, the row number and a column key
  const h = (k: string) => sql.raw(`(('x' || substr(md5(${`'${o.seed.replace(/'/g, "''")}'`} || ':' || g.i || ':${k}'), 1, 8))::bit(32)::int & 2147483647)`);
  const pick = (values: readonly (string | number)[], k: string) => sql`(${arr(values)})[1 + ${h(k)} % ${sql.lit(values.length)}]`;
  const id = (table: string) => sql.raw(`md5('${o.seed.replace(/'/g, "''")}:${table}:' || g.i)::uuid`);
  const created = sql`(date_trunc('hour', now()) - make_interval(secs => ${h('t')} % (548 * 86400)))`;
  const country = sql`(1 + ${h('c')} % ${sql.lit(COUNTRIES.length)})`;
  const usd = sql`(((${h('a')} % 2000000) + 500)::numeric / 100)`; // 5.00 to 20,004.99 USD
  // a row of a local currency the partner has a fiat wallet for belongs to that wallet; the others to the default USD
  // one, a third of them without a wallet (which reads as USD)
  const localCurrency = sql`(${arr(CURRENCIES)})[${country}]`;
  const usdWallet = o.fiatWallets?.includes('USD') ? sql`'USD'` : sql`null`;
  const wallet =
    o.fiatWallets && o.fiatWallets.length > 0
      ? sql`case when ${localCurrency} = any(${arr(o.fiatWallets)}) then ${localCurrency} when ${h('w')} % 3 = 0 then null else ${usdWallet} end`
      : sql`null`;
  const series = sql`generate_series(1, ${sql.lit(o.rows)}) as g(i)`;
  const p = o.partnerId;
  // per network, `count` addresses made from the seed (valid for the network), one picked per row
  const byNetwork = (what: string, count: number) => {
    const cases = [...new Set(NETWORKS)].map((n) => {
      const made = Array.from({ length: count }, (_, i) => demoAddressOf(n, crypto.createHash('sha256').update(`${o.seed}:${what}:${n}:${i}`).digest()));
      return sql`when ${sql.lit(n)} then (${arr(made)})[1 + ${h(what)} % ${sql.lit(count)}]`;
    });
    return sql`(case g.network ${sql.join(cases, sql` `)} end)`;
  };
  // a transaction id per row: 32 bytes in hex (0x first on EVM networks), or a Solana signature (87 base58 characters)
  const hex64 = sql`md5(${o.seed} || g.i || 'tx') || md5(${o.seed} || g.i || 'hash')`;
  const base58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  const transactionHash = sql`(case
    when g.network = 'SOL' then array_to_string(array(select substr(${base58}, 1 + get_byte(decode(md5(${o.seed} || g.i || ':' || k), 'hex'), 0) % 58, 1)
      from generate_series(1, 87) k), '')
    when g.network in ('TRC20') then ${hex64}
    else '0x' || ${hex64} end)`;

  // a payment, collection or initiated payment ends within its processing time, as the live system's do: of those
  // drawn in a status still under way, one in ten is kept so, made within the last 48 hours; the others completed
  const drawnSeries = sql`(select g.i, ${pick(STATUSES, 's')} as drawn from ${series}) g`;
  const recent = sql`(g.drawn in (${sql.join(UNDER_WAY_STATUSES)}) and ${h('u')} % 10 = 0)`;
  const createdOrRecent = sql`case when ${recent} then date_trunc('minute', now()) - make_interval(mins => ${h('t')} % ${sql.lit(UNDER_WAY_HOURS * 60)}) else ${created} end`;
  const finalUnlessRecent = sql`case when g.drawn in (${sql.join(UNDER_WAY_STATUSES)}) and not ${recent} then 'complete' else g.drawn end`;
  // the operator of the row's country and channel; a completion some time after creation, around the channel's
  // settlement time (a quarter of it to four times it); a reason for a failure
  const isMobile = sql`${h('m')} % 3 = 2`;
  const operatorCase = (via: 'momo' | 'bank') =>
    sql.join(
      COUNTRIES.map((c, i) => {
        const names = operatorsOf(c, via);
        return names.length ? sql`when ${sql.lit(i + 1)} then ${pick(names, 'o')}` : sql`when ${sql.lit(i + 1)} then null`;
      }),
      sql` `,
    );
  const operator = sql`case when ${isMobile} then (case ${country} ${operatorCase('momo')} end) else (case ${country} ${operatorCase('bank')} end) end`;
  const settles = sql`case when ${isMobile} then (${arr(COUNTRIES.map((c) => settlesOf(c, 'momo')))})[${country}] else (${arr(COUNTRIES.map((c) => settlesOf(c, 'bank')))})[${country}] end`;
  const completion = sql`make_interval(secs => ${settles} * (25 + ${h('d')} % 375) / 100.0)`;

  for (const table of o.tables) {
    if (table === 'collections' || table === 'payments') {
      await sql`
        insert into ${sql.table(table)} (partner_id, id, created_at, status, country, currency, amount, converted_amount, rate, payment_method,
          request_source, fiat_wallet, sequence_id, session_id, account_number, account_type, counterparty_name, operator, completed_at, failure_reason)
        select partner_id, id, created_at, status, country, currency, amount, converted_amount, rate, payment_method,
          request_source, fiat_wallet, sequence_id, session_id, account_number, account_type, counterparty_name, operator,
          case when status = 'complete' then least(created_at + completion, now()) end,
          case when status in ('failed', 'denied', 'expired') then reason end
        from (select ${p}::uuid as partner_id, ${id(table)} as id, ${createdOrRecent} as created_at, ${finalUnlessRecent} as status,
          (${arr(COUNTRIES)})[${country}] as country, (${arr(CURRENCIES)})[${country}] as currency,
          round(${usd} * (${arr(USD_RATES)})[${country}], 2) as amount, round(${usd}, 2) as converted_amount, (${arr(USD_RATES)})[${country}] as rate,
          ${pick(PAYMENT_METHODS, 'm')} as payment_method, ${pick(SOURCES, 'r')} as request_source, ${wallet} as fiat_wallet,
          'SEQ-' || lpad((${h('q')} % 100000000)::text, 8, '0') as sequence_id, md5(g.i::text || ${table}) as session_id,
          case when ${isMobile} then (${arr(DIALLING)})[${country}] || lpad((${h('n')} % 1000000000)::text, 9, '0')
            else lpad((${h('n')} % 1000000000)::text, 10, '0') end as account_number,
          case when ${isMobile} then 'phone' else 'bank' end as account_type,
          ${pick(DEMO_NAMES, 'p')} as counterparty_name, ${operator} as operator, ${completion} as completion, ${pick(FAILURE_REASONS, 'f')} as reason
        from ${drawnSeries}) r
        on conflict do nothing`.execute(db);
    } else if (table === 'settlements') {
      // withdrawals (payout) and top-ups move the USD account: they belong to the USD wallet, in USD. Each is on one
      // network, with addresses and a transaction id of that network's form. A withdrawal completes or fails within
      // minutes: the few still under way were asked for in the last 40 minutes; older ones are complete
      const underWay = sql`(g.drawn in ('pending', 'processing') and ${h('u')} % 20 = 0)`;
      await sql`
        insert into settlements (partner_id, id, created_at, status, type, transaction_hash, internal_wallet_address, external_wallet_address,
          crypto_currency, crypto_amount, network, crypto_rate, fiat_amount_usd, wallet_balance_usd, fiat_amount, fiat_rate, fiat_wallet, sequence_id)
        select ${p}, ${id(table)},
          case when ${underWay} then date_trunc('minute', now()) - make_interval(mins => ${h('t')} % 40) else ${created} end,
          case when g.drawn in ('pending', 'processing') and not ${underWay} then 'complete' else g.drawn end,
          case when ${h('y')} % 3 = 0 then 'topup' else 'payout' end,
          ${transactionHash}, ${byNetwork('internal', 4)}, ${byNetwork('external', 64)},
          ${pick(COINS, 'k')}, round(${usd} / 0.9995, 8), g.network, 0.9995, round(${usd}, 2), 0,
          round(${usd}, 2), 1, ${usdWallet}, 'SET-' || lpad((${h('q')} % 100000000)::text, 8, '0')
        from (select g.i, ${pick(NETWORKS, 'n')} as network, ${pick(SETTLEMENT_STATUSES, 's')} as drawn from ${series}) g
        on conflict do nothing`.execute(db);
    } else if (table === 'fees') {
      // Fees lists what was taken from the balance, when it was taken (as the server books it, payment-changes.ts): the
      // fee of each of the partner's newest payments (pay out, taken when it is made) and completed collections (top up,
      // taken on completion), on the USD account (fees are charged in USD), 0.8% of the USD amount plus 0.25; and, for a
      // payment not completed, the fee given back (a row of its own, minus the fee, ten minutes later)
      await sql`
        insert into fees (partner_id, id, created_at, transaction_id, transaction_type, payment_method, amount_usd, fiat_wallet)
        select ${p}, md5(${o.seed} || ':fee:' || t.id)::uuid, t.created_at, t.id, t.kind, t.payment_method, round(t.converted_amount * 0.008 + 0.25, 2), t.fiat_wallet
        from (
          select id, created_at, payment_method, converted_amount, fiat_wallet, 'payout' as kind from payments where partner_id = ${p}
          union all
          select id, created_at, payment_method, converted_amount, fiat_wallet, 'topup' as kind from collections
          where partner_id = ${p} and status in ('complete', 'refunded')
        ) t
        where t.fiat_wallet is null or t.fiat_wallet = 'USD'
        order by t.created_at desc
        limit ${sql.lit(o.rows)}
        on conflict do nothing`.execute(db);
      await sql`
        insert into fees (partner_id, id, created_at, transaction_id, transaction_type, payment_method, amount_usd, fiat_wallet)
        select f.partner_id, md5(f.id::text || ':returned')::uuid, least(f.created_at + interval '10 minutes', now()), f.transaction_id, f.transaction_type,
          f.payment_method, -f.amount_usd, f.fiat_wallet
        from fees f join payments r on r.partner_id = f.partner_id and r.id = f.transaction_id
        where f.partner_id = ${p} and f.amount_usd > 0 and r.status in ('failed', 'expired', 'denied')
        on conflict do nothing`.execute(db);
    } else if (table === 'trades') {
      await sql`
        insert into trades (partner_id, id, created_at, trade_id, trade_locked_date, status, country, fiat_currency, crypto_currency, network,
          trade_type, crypto_transaction_type, effective_rate, quoted_rate, fee, crypto_amount, fiat_amount, crypto_bought, crypto_sold,
          fiat_sold, fiat_bought, fiat_wallet)
        select ${p}, ${id(table)}, ${created}, 'TRD-' || upper(substr(md5(${o.seed} || ':trade:' || g.i), 1, 10)), ${created} - interval '3 minutes',
          ${pick(SETTLEMENT_STATUSES, 's')}, (${arr(COUNTRIES)})[${country}], (${arr(CURRENCIES)})[${country}], ${pick(COINS, 'k')}, ${pick(NETWORKS, 'n')},
          case when ${h('y')} % 2 = 0 then 'sell' else 'buy' end, 'transfer',
          (${arr(USD_RATES)})[${country}] * 0.99, (${arr(USD_RATES)})[${country}], round(${usd} * 0.01, 2),
          round(${usd}, 8), round(${usd} * (${arr(USD_RATES)})[${country}], 2),
          case when ${h('y')} % 2 = 0 then 0 else round(${usd}, 8) end, case when ${h('y')} % 2 = 0 then round(${usd}, 8) else 0 end,
          case when ${h('y')} % 2 = 0 then 0 else round(${usd} * (${arr(USD_RATES)})[${country}], 2) end,
          case when ${h('y')} % 2 = 0 then round(${usd} * (${arr(USD_RATES)})[${country}] * 0.99, 2) else 0 end, ${wallet}
        from ${series}
        on conflict do nothing`.execute(db);
    } else {
      await sql`
        insert into initiated_payments (partner_id, id, created_at, status, country, local_currency, amount, amount_usd, payment_method,
          recipient_name, account_number, reference, fiat_wallet)
        select ${p}, ${id(table)}, ${createdOrRecent}, ${finalUnlessRecent}, (${arr(COUNTRIES)})[${country}], (${arr(CURRENCIES)})[${country}],
          round(${usd} * (${arr(USD_RATES)})[${country}], 2), round(${usd}, 2), ${pick(PAYMENT_METHODS, 'm')}, ${pick(DEMO_NAMES, 'p')},
          lpad((${h('n')} % 1000000000)::text, 10, '0'), 'INV-' || lpad(g.i::text, 6, '0'), ${wallet}
        from ${drawnSeries}
        on conflict do nothing`.execute(db);
    }
  }
}
