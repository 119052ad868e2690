import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import { MAX_EXPORT_ROWS, SCROLL_KEEP_ALIVE_SECONDS, type SearchQuery, type SearchRequest } from '@portal/contract/transactions';
import type { DB } from '../../db/schema.ts';
import { badRequest } from '../../lib/errors.ts';
import { scrollBatch, searchPage, toDocument } from './transactions.repository.ts';

type ScrollState = { p: string; q: SearchQuery; after?: { createdAt: string; id: string }; n: number; exp: number };

/**
 * Transaction search and the export scroll. The partner is always the caller's. A scroll id is the query, the
 * cursor and an expiry, signed with the server key: no state is kept between calls, and a scroll id cannot be
 * altered or used by another partner.
 */
export function createTransactionsService(deps: { db: Kysely<DB>; key: Buffer; now: () => number }) {
  const sign = (body: string) => crypto.createHmac('sha256', deps.key).update(`scroll:${body}`).digest('base64url');
  const encode = (state: ScrollState) => {
    const body = Buffer.from(JSON.stringify(state)).toString('base64url');
    return `${body}.${sign(body)}`;
  };
  const decode = (scrollId: string, partnerId: string): ScrollState => {
    const [body, mac] = scrollId.split('.');
    const expired = () => badRequest('The scroll id is not valid or has expired; start the export again.', 'BadRequest');
    if (!body || !mac || mac.length !== 43 || !crypto.timingSafeEqual(Buffer.from(mac), Buffer.from(sign(body)))) throw expired();
    const state = JSON.parse(Buffer.from(body, 'base64url').toString()) as ScrollState;
    if (state.p !== partnerId || state.exp < deps.now()) throw expired();
    return state;
  };

  return {
    async search(partnerId: string, request: SearchRequest) {
      const { startIndex, size, ...query } = request;
      const page = await searchPage(deps.db, partnerId, query, startIndex, size);
      return { data: page.rows.map(toDocument), total: page.total, totalRelation: page.totalRelation };
    },

    async scroll(partnerId: string, request: SearchQuery & { scrollSize: number; scrollId?: string }) {
      const { scrollSize, scrollId, ...query } = request;
      const state: ScrollState = scrollId ? decode(scrollId, partnerId) : { p: partnerId, q: query, n: 0, exp: 0 };
      const size = Math.min(scrollSize, MAX_EXPORT_ROWS - state.n);
      if (size <= 0) return { scrollId: null, hits: [] };
      const rows = await scrollBatch(deps.db, partnerId, state.q, state.after, size);
      const last = rows.at(-1);
      const n = state.n + rows.length;
      const more = rows.length === size && n < MAX_EXPORT_ROWS && last !== undefined;
      const next = more
        ? encode({ p: partnerId, q: state.q, n, exp: deps.now() + SCROLL_KEEP_ALIVE_SECONDS * 1000, after: { createdAt: (last.created_at as Date).toISOString(), id: String(last.id) } })
        : null;
      return { scrollId: next, hits: rows.map(toDocument) };
    },
  };
}
