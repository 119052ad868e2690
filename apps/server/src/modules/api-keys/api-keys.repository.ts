import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { countPartnerRows } from '../../db/partner-rows.repository.ts';
import type { ApiKeysTable, DB } from '../../db/schema.ts';

/** The API keys module's SQL: keys, and a partner's allowed IP addresses. */

type Executor = Kysely<DB> | Transaction<DB>;
export type ApiKeyRow = Selectable<ApiKeysTable>;

export type NewApiKey = {
  partnerId: string;
  apiKey: string;
  publicKey: string;
  name: string;
  permissions: string[];
  secretEnc: string;
  secretHint: string;
  expiresAt: Date | null;
  createdBy: string;
  now: Date;
};

/** Locks the partner's row, then counts its rows of a table: changes that check a limit on them take turns. */
async function countUnderPartnerLock(trx: Transaction<DB>, table: 'api_keys' | 'allowed_ip_addresses', partnerId: string): Promise<number> {
  await trx.selectFrom('partners').select('id').where('id', '=', partnerId).forUpdate().execute();
  return countPartnerRows(trx, table, partnerId);
}

/**
 * The partner's own id and its test partner's (migration 0044): the keys of both modes are the account's, managed
 * together by its admins. `partnerId` is always the live partner's: the session's.
 */
const accountPartners = (partnerId: string) => sql<string>`(select id from partners where id = ${partnerId} or live_partner_id = ${partnerId})`;

export function createApiKeysRepository(db: Kysely<DB>) {
  return {
    transaction: <T>(work: (trx: Transaction<DB>) => Promise<T>) => db.transaction().execute(work),

    /** A partner's keys of both modes, the most recently changed first (portal-core §3). */
    list: (partnerId: string) =>
      db.selectFrom('api_keys').selectAll().where('partner_id', 'in', accountPartners(partnerId)).orderBy('updated_at', 'desc').orderBy('id', 'desc').execute(),

    find: (ex: Executor, partnerId: string, apiKey: string) =>
      ex.selectFrom('api_keys').selectAll().where('partner_id', 'in', accountPartners(partnerId)).where('api_key', '=', apiKey).executeTakeFirst(),

    /** Locks the partner's row for a change that counts its keys (so that parallel creations cannot pass the limit). */
    countForUpdate: (trx: Transaction<DB>, partnerId: string) => countUnderPartnerLock(trx, 'api_keys', partnerId),

    insert: (trx: Transaction<DB>, k: NewApiKey) =>
      trx
        .insertInto('api_keys')
        .values({
          partner_id: k.partnerId,
          api_key: k.apiKey,
          public_key: k.publicKey,
          name: k.name,
          permissions: k.permissions,
          status: 'active',
          secret_enc: k.secretEnc,
          secret_hint: k.secretHint,
          expires_at: k.expiresAt,
          created_by: k.createdBy,
          created_at: k.now,
          updated_at: k.now,
        })
        .returningAll()
        .executeTakeFirstOrThrow(),

    setStatus: (trx: Transaction<DB>, partnerId: string, apiKey: string, status: string, now: Date) =>
      trx
        .updateTable('api_keys')
        .set({ status, updated_at: now })
        .where('partner_id', 'in', accountPartners(partnerId))
        .where('api_key', '=', apiKey)
        .returningAll()
        .executeTakeFirst(),

    /** A new secret; the current one becomes the previous one until `previousUntil` (now or earlier: it stops at once). */
    roll: (trx: Transaction<DB>, partnerId: string, apiKey: string, next: { secretEnc: string; secretHint: string; previousUntil: Date; now: Date }) =>
      trx
        .updateTable('api_keys')
        .set((eb) => ({
          previous_secret_enc: next.previousUntil > next.now ? eb.ref('secret_enc') : null,
          previous_secret_expires_at: next.previousUntil > next.now ? next.previousUntil : null,
          secret_enc: next.secretEnc,
          secret_hint: next.secretHint,
          updated_at: next.now,
        }))
        .where('partner_id', 'in', accountPartners(partnerId))
        .where('api_key', '=', apiKey)
        .returningAll()
        .executeTakeFirst(),

    remove: (trx: Transaction<DB>, partnerId: string, apiKey: string) =>
      trx.deleteFrom('api_keys').where('partner_id', 'in', accountPartners(partnerId)).where('api_key', '=', apiKey).returningAll().executeTakeFirst(),

    /**
     * What a signed call needs to know of its key, read by the key id alone (the partner is not known yet): the key
     * and whether its partner may use the API now (B2B, API keys enabled).
     */
    findForCall: (apiKey: string) =>
      db
        .selectFrom('api_keys')
        .innerJoin('partners', 'partners.id', 'api_keys.partner_id')
        .selectAll('api_keys')
        .select(['partners.product_types', 'partners.feature_flags', 'partners.live_partner_id'])
        .where('api_keys.api_key', '=', apiKey)
        .executeTakeFirst(),

    /**
     * Records a use, unless one was recorded in the last minute (by this or another server); `recorded` runs in the
     * same transaction when it was (to announce it).
     */
    touchLastUsed: (partnerId: string, id: string, now: Date, recorded: (trx: Transaction<DB>) => Promise<void>) =>
      db.transaction().execute(async (trx) => {
        const result = await sql<{ id: string }>`update api_keys set last_used_at = ${now}::timestamptz
            where partner_id = ${partnerId} and id = ${id}
              and (last_used_at is null or last_used_at < ${now}::timestamptz - interval '1 minute')
            returning id`.execute(trx);
        if (result.rows.length > 0) await recorded(trx);
      }),
  };
}

export type ApiKeysRepository = ReturnType<typeof createApiKeysRepository>;

export function createAllowedIpsRepository(db: Kysely<DB>) {
  return {
    list: (partnerId: string) =>
      db.selectFrom('allowed_ip_addresses').selectAll().where('partner_id', '=', partnerId).orderBy('created_at', 'desc').orderBy('ip_address').execute(),

    /** The addresses only, for the check on every signed call. */
    addresses: async (partnerId: string) =>
      (await db.selectFrom('allowed_ip_addresses').select('ip_address').where('partner_id', '=', partnerId).execute()).map((r) => r.ip_address),

    countForUpdate: (trx: Transaction<DB>, partnerId: string) => countUnderPartnerLock(trx, 'allowed_ip_addresses', partnerId),

    /** Adds the address; undefined when the partner has it already. */
    insert: (trx: Transaction<DB>, row: { partnerId: string; ipAddress: string; createdBy: string; createdByEmail: string; now: Date }) =>
      trx
        .insertInto('allowed_ip_addresses')
        .values({ partner_id: row.partnerId, ip_address: row.ipAddress, created_by: row.createdBy, created_by_email: row.createdByEmail, created_at: row.now })
        .onConflict((oc) => oc.columns(['partner_id', 'ip_address']).doNothing())
        .returningAll()
        .executeTakeFirst(),

    /**
     * Whether the partner has this address: a check before a code is sent (the change checks again, in its
     * transaction, under the partner's lock: countForUpdate).
     */
    has: async (partnerId: string, ipAddress: string, ex: Executor = db) =>
      (await ex
        .selectFrom('allowed_ip_addresses')
        .select('ip_address')
        .where('partner_id', '=', partnerId)
        .where('ip_address', '=', ipAddress)
        .executeTakeFirst()) !== undefined,

    count: (partnerId: string) => countPartnerRows(db, 'allowed_ip_addresses', partnerId),

    /** Changes an address and/or its label in place (who added it and when stay); undefined when the partner has no such address. */
    change: (trx: Transaction<DB>, partnerId: string, from: string, to: { ipAddress: string; label?: string | null }) =>
      trx
        .updateTable('allowed_ip_addresses')
        .set({ ip_address: to.ipAddress, ...(to.label !== undefined ? { label: to.label } : {}) })
        .where('partner_id', '=', partnerId)
        .where('ip_address', '=', from)
        .returningAll()
        .executeTakeFirst(),

    remove: (trx: Transaction<DB>, partnerId: string, ipAddress: string) =>
      trx.deleteFrom('allowed_ip_addresses').where('partner_id', '=', partnerId).where('ip_address', '=', ipAddress).returningAll().executeTakeFirst(),
  };
}

export type AllowedIpsRepository = ReturnType<typeof createAllowedIpsRepository>;
