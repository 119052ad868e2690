import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import { ringKeys, type KeyRing } from '../../lib/keys.ts';
import {
  MAX_EXPORT_ROWS,
  SCROLL_KEEP_ALIVE_SECONDS,
  REVERSED_RANGE_MESSAGE,
  parseIdSearch,
  visibleTables,
  type LocateResponse,
  type ScrollRequest,
  type ScrollResponse,
  type ScrollResponseOf,
  type SearchQuery,
  type SearchRequest,
  type SearchResponse,
  type SearchResponseOf,
  type SearchTable,
  type TransactionResponse,
  type TransactionRowOf,
  TRANSACTION_MESSAGES,
} from '@portal/contract/transactions';
import { partnerKind } from '@portal/contract/partner';
import type { DB } from '../../db/schema.ts';
import type { PartnerAccess } from '../partners/index.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { countAll, findById, hasIdMatch, scrollBatch, searchPage } from './transactions.repository.ts';
import { toRows } from './transactions.rows.ts';

/**
 * A query that cannot be searched is refused, with the message the portal shows before sending: text that cannot be
 * an id the table shows, and a date range that ends before it starts (never silently searched as no range).
 */
function checkQuery(query: SearchQuery) {
  const parsed = parseIdSearch(query.table, query.idFilter);
  if (!parsed.ok) throw badRequest(parsed.message, 'InvalidIdSearch');
  const { startDate, endDate } = query.range;
  if (startDate && endDate && endDate < startDate) throw badRequest(REVERSED_RANGE_MESSAGE, 'ReversedRange');
}

/**
 * A search's rows for a file that holds them all (a report, built in the background on the database it is handed):
 * how many there are, and the next batch after a (created_at, id) cursor, newest first.
 */
export const searchRows = { count: countAll, after: scrollBatch };

type ScrollState = { p: string; q: SearchQuery; after?: { createdAt: string; id: string }; n: number; exp: number };

/** A scroll id: the base64url state, a dot, the base64url HMAC-SHA256 of the state (43 characters). */
const SCROLL_ID = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{43})$/;

/**
 * Transaction search and the export scroll. The partner is always the caller's. A scroll id is the query, the
 * cursor and an expiry, signed with the server key: no state is kept between calls, and a scroll id cannot be
 * altered or used by another partner.
 */
export function createTransactionsService(deps: {
  db: Kysely<DB>;
  /** where searches and exports read: a replica that has caught up with the primary, else the primary */
  read?: () => Promise<Kysely<DB>>;
  key: KeyRing;
  now: () => number;
  partners: Pick<PartnerAccess, 'find'>;
}) {
  const read = deps.read ?? (() => Promise.resolve(deps.db));
  const sign = (body: string, key = deps.key.key) => crypto.createHmac('sha256', key).update(`scroll:${body}`).digest('base64url');
  // signed with the current key; one signed with a key still accepted (a rotation) is honoured
  const signedByRing = (body: string, mac: string) =>
    ringKeys(deps.key).some(({ key }) => crypto.timingSafeEqual(Buffer.from(mac, 'ascii'), Buffer.from(sign(body, key), 'ascii')));
  const encode = (state: ScrollState) => {
    const body = Buffer.from(JSON.stringify(state)).toString('base64url');
    return `${body}.${sign(body)}`;
  };
  const decode = (scrollId: string, partnerId: string): ScrollState => {
    const expired = () => badRequest(TRANSACTION_MESSAGES.scrollExpired, 'BadRequest');
    // the shape first: only ASCII reaches the comparison, so both sides have the same length in bytes
    const [, body, mac] = SCROLL_ID.exec(scrollId) ?? [];
    if (!body || !mac || !signedByRing(body, mac)) throw expired();
    const state = JSON.parse(Buffer.from(body, 'base64url').toString()) as ScrollState;
    if (state.p !== partnerId || state.exp < deps.now()) throw expired();
    return state;
  };

  // toRows types the rows by their table; that the table and the rows then agree is what TypeScript cannot follow
  // through the union of replies, hence the one cast each
  const searchReply = <T extends SearchTable>(table: T, reply: Omit<SearchResponseOf<T>, 'table' | 'data'> & { data: TransactionRowOf<T>[] }) =>
    ({ table, ...reply }) as SearchResponse;
  const scrollReply = <T extends SearchTable>(table: T, reply: Omit<ScrollResponseOf<T>, 'table' | 'hits'> & { hits: TransactionRowOf<T>[] }) =>
    ({ table, ...reply }) as ScrollResponse;

  return {
    /** One transaction by id (the partner API); 404 when the partner has none with that id in the table. */
    async byId(partnerId: string, table: SearchTable, id: string): Promise<TransactionResponse> {
      const row = await findById(deps.db, partnerId, table, id);
      if (!row) throw notFound(TRANSACTION_MESSAGES.notFound);
      return { table, data: toRows(table, [row])[0] } as TransactionResponse;
    },

    /**
     * The tables of the caller's screens (by the partner's kind, as the portal's guard decides) that hold a
     * transaction the id search finds; another partner's rows are never looked at. Text that is an id in no table
     * is found nowhere.
     */
    async locate(partnerId: string, id: string): Promise<LocateResponse> {
      const partner = await deps.partners.find(partnerId);
      if (!partner || id.trim() === '') return { found: [] };
      const tables = visibleTables(partnerKind(partner.productTypes, partner.whitelisted)).filter((t) => {
        const parsed = parseIdSearch(t, id);
        return parsed.ok && parsed.search.kind !== 'none';
      });
      const db = await read();
      const hits = await Promise.all(tables.map(async (t) => ((await hasIdMatch(db, partnerId, t, id)) ? t : undefined)));
      return { found: hits.filter((t): t is SearchTable => t !== undefined) };
    },

    async search(partnerId: string, request: SearchRequest): Promise<SearchResponse> {
      const { startIndex, size, anchor, ...query } = request;
      checkQuery(query);
      const page = await searchPage(await read(), partnerId, query, startIndex, size, anchor);
      return searchReply(query.table, { data: toRows(query.table, page.rows), total: page.total, totalRelation: page.totalRelation });
    },

    /** A batch of an export. A scroll id carries the query of the first call: its table and filters win. */
    async scroll(partnerId: string, request: ScrollRequest): Promise<ScrollResponse> {
      const { scrollSize, scrollId, ...query } = request;
      if (!scrollId) checkQuery(query);
      const state: ScrollState = scrollId ? decode(scrollId, partnerId) : { p: partnerId, q: query, n: 0, exp: 0 };
      const table = state.q.table;
      const size = Math.min(scrollSize, MAX_EXPORT_ROWS - state.n);
      if (size <= 0) return scrollReply(table, { scrollId: null, hits: [] });
      const rows = await scrollBatch(await read(), partnerId, state.q, state.after, size);
      const last = rows.at(-1);
      const n = state.n + rows.length;
      const more = rows.length === size && n < MAX_EXPORT_ROWS && last !== undefined;
      const next = more
        ? encode({
            p: partnerId,
            q: state.q,
            n,
            exp: deps.now() + SCROLL_KEEP_ALIVE_SECONDS * 1000,
            after: { createdAt: last.created_at.toISOString(), id: last.id },
          })
        : null;
      return scrollReply(table, { scrollId: next, hits: toRows(table, rows) });
    },
  };
}

export type TransactionsService = ReturnType<typeof createTransactionsService>;
