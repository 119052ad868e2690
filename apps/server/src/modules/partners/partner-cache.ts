import type { Kysely } from 'kysely';
import type { DB, PartnerRow } from '../../db/schema.ts';
import { TtlCache } from '../../lib/ttl-cache.ts';
import { AUTH_CACHE_MS } from '../../lib/constants.ts';
import { findPartner } from './partners.repository.ts';

/** The name the partner-row cache has on the cache bus (`lib/cache-bus.ts`): `NOTIFY portal_cache 'partner|<id>'`. */
export const PARTNER_CACHE = 'partner';

/** Drops a partner's cached row, here and on every other instance; called after the change is committed. */
export type InvalidatePartner = (partnerId: string) => Promise<void>;

/**
 * The partner row, read on most requests, reused for at most AUTH_CACHE_MS. `entries` is what the cache bus
 * attaches, so that a change made anywhere (this instance, another one, the operator CLI) drops it at once; the
 * time-to-live bounds what a lost notification can cost.
 */
export function createPartnerCache(db: Kysely<DB>) {
  const entries = new TtlCache<PartnerRow | undefined>(AUTH_CACHE_MS);
  return {
    entries,
    get: (partnerId: string) => entries.get(partnerId, () => findPartner(db, partnerId)),
  };
}
export type PartnerCache = ReturnType<typeof createPartnerCache>;
