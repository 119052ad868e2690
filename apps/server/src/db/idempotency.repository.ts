import { sql, type Kysely } from 'kysely';
import type { DB } from './schema.ts';

export type IdempotencyRecord = { fingerprint: string; status_code: number | null; response_body: string | null; content_type: string | null };

/**
 * The replies kept for Idempotency-Key. A request claims its key with one statement before it runs: an insert that
 * takes over an existing row only when that row has expired, or when it was never finished and its lock has run
 * out (the server that held it stopped mid-request). Two parallel requests with one key cannot both claim it.
 */
export function createIdempotencyRepository(db: Kysely<DB>) {
  return {
    async claim(c: { partnerId: string; key: string; fingerprint: string; token: string; now: Date; lockedUntil: Date; expiresAt: Date }) {
      const claimed = await sql<{ key: string }>`
        insert into idempotency_keys as i (partner_id, key, fingerprint, claim_token, locked_until, expires_at, created_at)
        values (${c.partnerId}, ${c.key}, ${c.fingerprint}, ${c.token}, ${c.lockedUntil}::timestamptz, ${c.expiresAt}::timestamptz, ${c.now}::timestamptz)
        on conflict (partner_id, key) do update set
          fingerprint = excluded.fingerprint, claim_token = excluded.claim_token, status_code = null, response_body = null,
          content_type = null, locked_until = excluded.locked_until, expires_at = excluded.expires_at, created_at = excluded.created_at
        where i.expires_at <= ${c.now}::timestamptz or (i.status_code is null and i.locked_until <= ${c.now}::timestamptz)
        returning key`.execute(db);
      return claimed.rows.length === 1;
    },

    find: (partnerId: string, key: string): Promise<IdempotencyRecord | undefined> =>
      db
        .selectFrom('idempotency_keys')
        .select(['fingerprint', 'status_code', 'response_body', 'content_type'])
        .where('partner_id', '=', partnerId)
        .where('key', '=', key)
        .executeTakeFirst(),

    /** Stores the first reply, if this request still holds the claim. */
    complete: (partnerId: string, key: string, token: string, reply: { statusCode: number; body: string; contentType: string | null }) =>
      db
        .updateTable('idempotency_keys')
        .set({ status_code: reply.statusCode, response_body: reply.body, content_type: reply.contentType })
        .where('partner_id', '=', partnerId)
        .where('key', '=', key)
        .where('claim_token', '=', token)
        .execute(),

    /** Gives the key back (the request failed on the server's side: a retry with the same key may run it). */
    release: (partnerId: string, key: string, token: string) =>
      db.deleteFrom('idempotency_keys').where('partner_id', '=', partnerId).where('key', '=', key).where('claim_token', '=', token).execute(),

    async deleteExpired(now: Date): Promise<number> {
      const result = await db.deleteFrom('idempotency_keys').where('expires_at', '<=', now).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
