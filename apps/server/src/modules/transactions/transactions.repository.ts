import { dayRangeInZone } from '@portal/contract/time-zone';
import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import {
  AMOUNT_RANGE,
  LOWERCASED_FILTERS,
  MAX_RESULT_WINDOW,
  TABLE_FILTERS,
  type SearchAnchor,
  parseIdSearch,
  type FilterKey,
  type SearchQuery,
  type SearchTable,
} from '@portal/contract/transactions';
import { DEFAULT_FIAT_WALLET } from '@portal/contract/fiat-wallets';
import { statusList } from '@portal/contract/status-groups';
import type { DB } from '../../db/schema.ts';

/** An instant as PostgreSQL reads it: ISO 8601, with a year past 9999 written plainly (`10000-01-01`, not `+010000-01-01`). */
const sqlInstant = (d: Date) => d.toISOString().replace(/^\+0*/, '');

/** The database table behind each search table but the combined one. */
const TABLE_NAME = {
  payments: 'payments',
  collections: 'collections',
  settlements: 'settlements',
  fees: 'fees',
  trades: 'trades',
  'initiate-payments': 'initiated_payments',
} as const satisfies Record<Exclude<SearchTable, 'all'>, keyof DB>;

/** A row of the combined table: a payment's or a collection's (one shape), with its transaction type. */
type CombinedTableRow = Selectable<DB['collections']> & { transaction_type: 'payout' | 'topup' };
/** A row of a search table as the database gives it (snake_case columns, Date times, decimal strings). */
export type TableRowOf<T extends SearchTable> = T extends keyof typeof TABLE_NAME ? Selectable<DB[(typeof TABLE_NAME)[T]]> : CombinedTableRow;

/** The column each filter compares, where the table has it. */
const FILTER_COLUMN: Partial<Record<SearchTable, Partial<Record<FilterKey, string>>>> = {
  trades: { country: 'country', cryptoCurrency: 'crypto_currency', fiatCurrency: 'fiat_currency', amount: 'crypto_amount' },
  payments: { status: 'status', country: 'country' },
  collections: { status: 'status', country: 'country', requestSource: 'request_source' },
  settlements: { status: 'status' },
  fees: { paymentMethod: 'payment_method', transactionType: 'transaction_type' },
  'initiate-payments': { localCurrency: 'local_currency', status: 'status' },
  all: { country: 'country', status: 'status', paymentMethod: 'payment_method', transactionType: 'transaction_type', requestSource: 'request_source' },
};

const uuidBound = (hex32: string) => `${hex32.slice(0, 8)}-${hex32.slice(8, 12)}-${hex32.slice(12, 16)}-${hex32.slice(16, 20)}-${hex32.slice(20)}`;

/** Uuid prefixes this short match 1/16 or 1/256 of a partner's rows: a page of them walks the newest-first index. */
const WIDE_PREFIX_DIGITS = 2;

/**
 * The condition of an id search by the id the table shows (contract `parseIdSearch`), or undefined without one. A
 * uuid's first digits are a range on the id's B-tree (no text cast); a trade id's first characters a range on
 * `trades_trade_id_idx` (text_pattern_ops, byte order: the operators below are that class's). Text that is no id
 * matches nothing (the service refuses it before).
 *
 * `forPage`: the condition of a page's keys (newest first, 10 of them). PostgreSQL has no estimate for a range of
 * uuids inside one bucket of its histogram (uuid has no scalar conversion): it guesses one row for any prefix and
 * takes the primary key's range, reading the heap row of every match to sort them by time (3,900 rows for a 2-digit
 * prefix of a partner with 1,000,000: 123 ms cold, 4 ms warm). For a prefix of 1 or 2 digits the range is written
 * so that no index can take it (`is true`): the page then walks the newest-first index, whose keys hold the id,
 * until it has its rows (about 2,600 index entries, no heap, for 2 digits). Longer prefixes match few enough rows
 * (244 at 1,000,000) for the range; a count always takes the range (index-only on the primary key).
 */
export function idPredicate(table: SearchTable, idFilter: string, forPage = false): RawBuilder<unknown> | undefined {
  const parsed = parseIdSearch(table, idFilter);
  if (!parsed.ok) return sql`false`;
  const id = parsed.search;
  if (id.kind === 'uuid') {
    if (id.hex.length === 32) return sql`id = ${uuidBound(id.hex)}::uuid`;
    const range = sql`id between ${uuidBound(id.hex.padEnd(32, '0'))}::uuid and ${uuidBound(id.hex.padEnd(32, 'f'))}::uuid`;
    return forPage && id.hex.length <= WIDE_PREFIX_DIGITS ? sql`(${range}) is true` : range;
  }
  if (id.kind === 'tradeId') {
    // trade ids are TRD- and upper-case hex digits: every id starting with the prefix sorts below prefix + '~'
    return sql`trade_id ~>=~ ${id.prefix} and trade_id ~<~ ${`${id.prefix}~`}`;
  }
  return undefined;
}

/**
 * The WHERE conditions of a search (transaction-data §5, §7), always starting with the caller's partner. An id
 * search is a range on the id's B-tree (no text cast); it ignores the date range, as the earlier system did.
 */
export function conditions(partnerId: string, q: SearchQuery, forPage = false): RawBuilder<unknown>[] {
  const where: RawBuilder<unknown>[] = [sql`partner_id = ${partnerId}`];
  const columns = FILTER_COLUMN[q.table] ?? {};
  for (const key of TABLE_FILTERS[q.table]) {
    const raw = q.filters[key]?.trim();
    const column = columns[key];
    if (!raw || !column) continue; // an empty filter adds nothing
    if (key === 'amount') {
      // a range "min-max" of the amount (the request schema checked its form): min included, max excluded
      const [, min, max] = AMOUNT_RANGE.exec(raw) ?? [];
      if (min === undefined) continue;
      where.push(sql`${sql.ref(column)} >= ${min}::numeric`);
      if (max !== undefined) where.push(sql`${sql.ref(column)} < ${max}::numeric`);
      continue;
    }
    if (key === 'status') {
      // one status or several (`failed,refund_failed`): `status in (...)`, which the status indexes answer
      const statuses = statusList(raw);
      if (statuses.length === 0) continue;
      where.push(statuses.length === 1 ? sql`status = ${statuses[0]}` : sql`status in (${sql.join(statuses)})`);
      continue;
    }
    let value = raw;
    if (LOWERCASED_FILTERS.includes(key)) value = raw.toLowerCase();
    else if (key === 'localCurrency') value = raw.toUpperCase(); // case-insensitive: stored as upper-case codes
    where.push(sql`${sql.ref(column)} = ${value}`);
  }
  if (q.fiatWallet && q.fiatWallet !== 'all') {
    // a row without a wallet belongs to the default USD wallet (the portal shows it as USD); written as the wallet
    // indexes of 0022-search-wallet-indexes spell it, so that they answer
    where.push(sql`coalesce(fiat_wallet, ${sql.lit(DEFAULT_FIAT_WALLET.currency)}) = ${q.fiatWallet}`);
  }

  const id = idPredicate(q.table, q.idFilter, forPage);
  if (id) {
    where.push(id);
  } else if (q.range.startDate && q.range.endDate) {
    // start of the first day to the end of the last, in the zone of the request (UTC unless it names one); the
    // instants are computed here, not by the database, so PGlite and PostgreSQL agree (and daylight saving is Intl's)
    const { from, to } = dayRangeInZone(q.range.startDate, q.range.endDate, q.timeZone ?? 'UTC');
    where.push(sql`created_at >= ${sqlInstant(from)}::timestamptz`);
    where.push(sql`created_at < ${sqlInstant(to)}::timestamptz`);
  }
  return where;
}

/**
 * The relation a search reads, named `alias` (the table's own name unless given). The combined table is payments and
 * collections as one relation (their columns are the same: `like collections`), each row with its transaction type;
 * PostgreSQL pushes the conditions into both halves (a transaction type filter leaves one) and merges their
 * newest-first index scans, so that a page reads no more rows than one of a single table.
 */
export function tableRef(table: SearchTable, alias?: string) {
  if (table === 'all') {
    return sql`(select 'payout' as transaction_type, p.* from payments p union all select 'topup' as transaction_type, c.* from collections c) as ${sql.ref(alias ?? 'combined')}`;
  }
  return alias ? sql`${sql.table(TABLE_NAME[table])} as ${sql.ref(alias)}` : sql`${sql.table(TABLE_NAME[table])}`;
}

/** Where a page starts: `offset` rows into the search, or `offset` rows past a keyset anchor (the row itself excluded). */
type PageStart = { offset: number; after?: { id: string; direction: 'older' | 'newer' } };

/**
 * The statement of a page's rows. Its keys come first, from an index-only scan that skips the offset without reading
 * rows; then only those rows are read. From an anchor the scan starts at the anchor's (created_at, id) in the index:
 * `older` pages go on newest first, `newer` ones (a page before the anchor) read upwards and are put back in order.
 */
export function pageStatement<T extends SearchTable>(partnerId: string, q: SearchQuery & { table: T }, size: number, start: PageStart) {
  const where = conditions(partnerId, q, true);
  const a = start.after;
  // the anchor's own created_at, exactly (the client's has milliseconds; the column may hold microseconds)
  const anchorTime = a && sql`(select created_at from ${tableRef(q.table)} where partner_id = ${partnerId} and id = ${a.id}::uuid)`;
  if (a && a.direction === 'older') where.push(sql`(created_at, id) < (${anchorTime}, ${a.id}::uuid)`);
  if (a && a.direction === 'newer') where.push(sql`(created_at, id) > (${anchorTime}, ${a.id}::uuid)`);
  const order = a?.direction === 'newer' ? sql`order by created_at, id` : sql`order by created_at desc, id desc`;
  return sql<TableRowOf<T>>`
    select t.* from ${tableRef(q.table, 't')}
    join (select id from ${tableRef(q.table)} where ${sql.join(where, sql` and `)} ${order} limit ${size} offset ${start.offset}) page
      on t.partner_id = ${partnerId} and t.id = page.id
    order by t.created_at desc, t.id desc`;
}

/** The statement of the capped total: exact up to 10,000; beyond, "at least 10,000" (counting every row is what makes big searches slow). */
export function totalStatement(partnerId: string, q: SearchQuery) {
  return sql<{ n: number }>`
    select count(*)::int as n from (select 1 from ${tableRef(q.table)} where ${sql.join(conditions(partnerId, q), sql` and `)} limit ${MAX_RESULT_WINDOW + 1}) capped`;
}

/**
 * Where the page at startIndex starts, given a keyset anchor (a row the client was shown at position `index`): past
 * the anchor when the page begins after it, before it when the page ends before it; undefined when the page holds
 * the anchor itself (the offset is as cheap there).
 */
export function anchoredStart(startIndex: number, size: number, anchor: SearchAnchor): PageStart | undefined {
  if (startIndex > anchor.index) return { offset: startIndex - anchor.index - 1, after: { id: anchor.id, direction: 'older' } };
  if (startIndex + size <= anchor.index) return { offset: anchor.index - startIndex - size, after: { id: anchor.id, direction: 'newer' } };
  return undefined;
}

/**
 * Whether the anchor is a row of this search: the caller's partner, every condition of the query, and the createdAt
 * the client was shown (to the millisecond). A row of another partner, another query or a made-up one is not.
 */
async function anchorMatches(db: Kysely<DB>, partnerId: string, q: SearchQuery, anchor: SearchAnchor) {
  const where = conditions(partnerId, q);
  const { rows } = await sql<{ ok: number }>`
    select 1 as ok from ${tableRef(q.table)}
    where ${sql.join(where, sql` and `)} and id = ${anchor.id}::uuid
      and created_at >= ${anchor.createdAt}::timestamptz and created_at < ${anchor.createdAt}::timestamptz + interval '1 millisecond'`.execute(db);
  return rows.length > 0;
}

export async function searchPage<T extends SearchTable>(
  db: Kysely<DB>,
  partnerId: string,
  q: SearchQuery & { table: T },
  startIndex: number,
  size: number,
  anchor?: SearchAnchor,
) {
  const page = async () => {
    const fromAnchor = anchor && anchoredStart(startIndex, size, anchor);
    if (fromAnchor && anchor && (await anchorMatches(db, partnerId, q, anchor))) {
      return { rows: (await pageStatement(partnerId, q, size, fromAnchor).execute(db)).rows, via: 'keyset' as const };
    }
    return { rows: (await pageStatement(partnerId, q, size, { offset: startIndex }).execute(db)).rows, via: 'offset' as const };
  };
  // the page and the capped total are independent: on a pool they run side by side
  const [rows, counted] = await Promise.all([page(), totalStatement(partnerId, q).execute(db)]);
  const n = Number(counted.rows[0]?.n ?? 0);
  return { rows: rows.rows, via: rows.via, total: Math.min(n, MAX_RESULT_WINDOW), totalRelation: n > MAX_RESULT_WINDOW ? ('gte' as const) : ('eq' as const) };
}

/** Every row the search holds, counted (a report's file holds them all; a screen's total is capped instead). */
export async function countAll(db: Kysely<DB>, partnerId: string, q: SearchQuery): Promise<number> {
  const counted = await sql<{ n: number }>`select count(*)::int as n from ${tableRef(q.table)} where ${sql.join(conditions(partnerId, q), sql` and `)}`.execute(
    db,
  );
  return Number(counted.rows[0]?.n ?? 0);
}

/** The next batch after a (created_at, id) cursor, newest first: a keyset page, whatever the depth. */
export async function scrollBatch<T extends SearchTable>(
  db: Kysely<DB>,
  partnerId: string,
  q: SearchQuery & { table: T },
  after: { createdAt: string; id: string } | undefined,
  size: number,
) {
  const where = conditions(partnerId, q);
  // the cursor row's own created_at, exactly: the one in the scroll id has milliseconds, the column microseconds, and
  // older rows of the same millisecond would be skipped (the cursor's own time stays the fallback should the row go)
  if (after) {
    const exact = sql`coalesce((select created_at from ${tableRef(q.table)} where partner_id = ${partnerId} and id = ${after.id}::uuid), ${after.createdAt}::timestamptz)`;
    where.push(sql`(created_at, id) < (${exact}, ${after.id}::uuid)`);
  }
  const rows = await sql<TableRowOf<T>>`
    select * from ${tableRef(q.table)} where ${sql.join(where, sql` and `)}
    order by created_at desc, id desc
    limit ${size}`.execute(db);
  return rows.rows;
}

/** Whether the partner has a row in the table that the id search finds (the first one is enough). */
export async function hasIdMatch(db: Kysely<DB>, partnerId: string, table: SearchTable, idFilter: string) {
  const id = idPredicate(table, idFilter);
  if (!id) return false;
  const { rows } = await sql<{ ok: number }>`select 1 as ok from ${tableRef(table)} where partner_id = ${partnerId} and ${id} limit 1`.execute(db);
  return rows.length > 0;
}

/** One row of a table by its id, the partner's only. */
export async function findById<T extends SearchTable>(db: Kysely<DB>, partnerId: string, table: T, id: string) {
  const rows = await sql<TableRowOf<T>>`select * from ${tableRef(table)} where partner_id = ${partnerId} and id = ${id}::uuid`.execute(db);
  return rows.rows[0];
}
