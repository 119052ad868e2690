import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../db/schema.ts';

/** The live event log's statements (migration 0026). */

/** Writes an event in the change's transaction; its id, which the stream sends as the event's `id:`. */
export async function insertLiveEvent(trx: Transaction<DB>, partnerId: string, payload: unknown): Promise<number> {
  const row = await trx
    .insertInto('live_events')
    .values({ partner_id: partnerId, payload: JSON.stringify(payload) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Writes several events in one statement; each with its id and what was written (in no particular order). */
export async function insertLiveEvents(trx: Transaction<DB>, events: { partnerId: string; payload: unknown }[]) {
  if (events.length === 0) return [];
  const rows = await trx
    .insertInto('live_events')
    .values(events.map((e) => ({ partner_id: e.partnerId, payload: JSON.stringify(e.payload) })))
    .returning(['id', 'partner_id', 'payload'])
    .execute();
  return rows.map((r) => ({ id: Number(r.id), partnerId: r.partner_id, payload: r.payload }));
}

/**
 * The partner's events a stream that last saw `lastId` may have missed, oldest first: every later id, and the
 * events of the `overlapSeconds` before it (an id is taken before its transaction commits, so a smaller id may
 * commit after a larger one was sent). The overlap is measured from the partner's last event at or before `lastId`,
 * which is `lastId` itself unless that event is gone (a transaction lost in a failover: the stream saw it through
 * NOTIFY, the new primary never had it). Undefined when the partner has no event at or before `lastId` (older than
 * the log, or an id from elsewhere): then the stream cannot know what it missed.
 */
export async function liveEventsSince(db: Kysely<DB>, partnerId: string, lastId: number, overlapSeconds: number, limit: number) {
  const anchor = await db
    .selectFrom('live_events')
    .select('created_at')
    .where('partner_id', '=', partnerId)
    .where('id', '<=', lastId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!anchor) return undefined;
  const rows = await db
    .selectFrom('live_events')
    .select(['id', 'payload'])
    .where('partner_id', '=', partnerId)
    .where((eb) =>
      eb.or([eb('id', '>', lastId), eb('created_at', '>=', sql<Date>`${anchor.created_at}::timestamptz - make_interval(secs => ${overlapSeconds})`)]),
    )
    .where('id', '<>', lastId)
    .orderBy('id')
    .limit(limit + 1)
    .execute();
  return { events: rows.slice(0, limit).map((r) => ({ id: Number(r.id), payload: r.payload })), truncated: rows.length > limit };
}

/** Events older than `before` (the cleanup job). */
export async function deleteLiveEventsBefore(db: Kysely<DB>, before: Date): Promise<number> {
  const result = await db.deleteFrom('live_events').where('created_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
