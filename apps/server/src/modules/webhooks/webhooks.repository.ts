import { sql, type Insertable, type Kysely, type Transaction, type Updateable } from 'kysely';
import { countPartnerRows } from '../../db/partner-rows.repository.ts';
import type { DB, WebhookAttemptsTable, WebhookEndpointsTable } from '../../db/schema.ts';

type Executor = Kysely<DB> | Transaction<DB>;

/** The channel a committed event is announced on, so that every server's relay queues it at once (PostgreSQL). */
export const WEBHOOK_OUTBOX_CHANNEL = 'webhook_outbox';

// ---- endpoints

export const listEndpoints = (db: Executor, partnerId: string) =>
  db.selectFrom('webhook_endpoints').selectAll().where('partner_id', '=', partnerId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();

export const findEndpoint = (db: Executor, partnerId: string, id: string) =>
  db.selectFrom('webhook_endpoints').selectAll().where('partner_id', '=', partnerId).where('id', '=', id).executeTakeFirst();

export const countEndpoints = (db: Executor, partnerId: string) => countPartnerRows(db, 'webhook_endpoints', partnerId);

/** Serialises a partner's endpoint changes (the count limit holds under parallel creates). */
export async function lockPartnerWebhooks(trx: Transaction<DB>, partnerId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`webhooks:${partnerId}`}, 0))`.execute(trx);
}

export const insertEndpoint = (trx: Executor, row: Insertable<WebhookEndpointsTable>) =>
  trx.insertInto('webhook_endpoints').values(row).returningAll().executeTakeFirstOrThrow();

export const updateEndpoint = (trx: Executor, partnerId: string, id: string, values: Updateable<WebhookEndpointsTable>) =>
  trx.updateTable('webhook_endpoints').set(values).where('partner_id', '=', partnerId).where('id', '=', id).returningAll().executeTakeFirst();

export const deleteEndpoint = (trx: Executor, partnerId: string, id: string) =>
  trx.deleteFrom('webhook_endpoints').where('partner_id', '=', partnerId).where('id', '=', id).returning('id').executeTakeFirst();

/** Marks an endpoint failing; its url when it was healthy until now (so that its admins are told once). */
export const markEndpointFailing = (trx: Executor, partnerId: string, id: string) =>
  trx
    .updateTable('webhook_endpoints')
    .set({ state: 'failing', failing_since: sql<Date>`now()` })
    .where('partner_id', '=', partnerId)
    .where('id', '=', id)
    .where('state', '<>', 'failing')
    .returning(['url'])
    .executeTakeFirst();

// ---- the outbox

/** Inserts an event; undefined when one with the same dedupe key was announced already. */
export const insertEvent = (trx: Executor, row: { partnerId: string; id: string; type: string; data: Record<string, unknown>; dedupeKey: string | null }) =>
  trx
    .insertInto('webhook_events')
    .values({ partner_id: row.partnerId, id: row.id, type: row.type, data: JSON.stringify(row.data), dedupe_key: row.dedupeKey })
    .onConflict((oc) => oc.columns(['partner_id', 'dedupe_key']).where('dedupe_key', 'is not', null).doNothing())
    .returning('id')
    .executeTakeFirst();

/** One delivery, due now, per active endpoint of the partner that subscribes to the event's type. */
export async function insertDeliveriesForSubscribers(trx: Executor, partnerId: string, eventId: string, type: string): Promise<number> {
  const result = await trx
    .insertInto('webhook_deliveries')
    .columns(['partner_id', 'id', 'event_id', 'endpoint_id', 'next_attempt_at'])
    .expression((eb) =>
      eb
        .selectFrom('webhook_endpoints')
        .select([
          'partner_id',
          sql<string>`gen_random_uuid()`.as('id'),
          sql<string>`${eventId}::uuid`.as('event_id'),
          'id as endpoint_id',
          sql<Date>`now()`.as('next_attempt_at'),
        ])
        .where('partner_id', '=', partnerId)
        .where('active', '=', true)
        .where(sql<boolean>`${type} = any(events)`),
    )
    .returning('id')
    .execute();
  return result.length;
}

/** One delivery of an event to one endpoint, due now (a test event). */
export const insertDelivery = (trx: Executor, row: { partnerId: string; id: string; eventId: string; endpointId: string; manual: boolean }) =>
  trx
    .insertInto('webhook_deliveries')
    .values({
      partner_id: row.partnerId,
      id: row.id,
      event_id: row.eventId,
      endpoint_id: row.endpointId,
      manual: row.manual,
      next_attempt_at: sql<Date>`now()`,
    })
    .execute();

/** Tells every server's relay, when the transaction commits, that deliveries are due. */
export async function notifyOutbox(trx: Executor): Promise<void> {
  await sql`select pg_notify(${WEBHOOK_OUTBOX_CHANNEL}, '')`.execute(trx);
}

// ---- the relay and the attempts

/**
 * Claims due deliveries that have no queue job yet and gives each a job id, in one statement; rows another server
 * is claiming are skipped. The caller queues jobs with these ids in the same transaction.
 */
export async function claimDueDeliveries(trx: Transaction<DB>, limit: number) {
  const { rows } = await sql<{ partner_id: string; id: string; job_id: string }>`
    update webhook_deliveries d
       set job_id = gen_random_uuid(), updated_at = now()
      from (
        select partner_id, id from webhook_deliveries
         where status = 'pending' and job_id is null and next_attempt_at <= now()
         order by next_attempt_at
         limit ${limit}
         for update skip locked
      ) due
     where d.partner_id = due.partner_id and d.id = due.id
    returning d.partner_id, d.id, d.job_id
  `.execute(trx);
  return rows;
}

export type DeliveryKey = { partnerId: string; deliveryId: string };
const keyArrays = (keys: DeliveryKey[]) => [keys.map((k) => k.partnerId), keys.map((k) => k.deliveryId)] as const;

/** What attempts need, in one query for a batch of jobs: each delivery, its event and its endpoint (sealed secret). */
export function loadAttempts(db: Executor, keys: DeliveryKey[]) {
  const [partners, ids] = keyArrays(keys);
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', (j) => j.onRef('e.partner_id', '=', 'd.partner_id').onRef('e.id', '=', 'd.event_id'))
    .innerJoin('webhook_endpoints as w', (j) => j.onRef('w.partner_id', '=', 'd.partner_id').onRef('w.id', '=', 'd.endpoint_id'))
    .select([
      'd.partner_id',
      'd.id',
      'd.status',
      'd.job_id',
      'e.id as event_id',
      'e.type',
      'e.data',
      'e.created_at as event_created_at',
      'w.id as endpoint_id',
      'w.url',
      'w.secret_encrypted',
      'w.previous_secret_encrypted',
      'w.previous_secret_expires_at',
      'w.active',
    ])
    .where(sql<boolean>`(d.partner_id, d.id) in (select * from unnest(${partners}::uuid[], ${ids}::uuid[]))`)
    .execute();
}
export type AttemptRow = Awaited<ReturnType<typeof loadAttempts>>[number];

/** Locks a batch of deliveries for the recording of their attempts; their state as it is now. */
export function lockDeliveries(trx: Transaction<DB>, keys: DeliveryKey[]) {
  const [partners, ids] = keyArrays(keys);
  return trx
    .selectFrom('webhook_deliveries')
    .select(['partner_id', 'id', 'status', 'job_id', 'manual', 'retry_step', 'attempt_count', 'endpoint_id'])
    .where(sql<boolean>`(partner_id, id) in (select * from unnest(${partners}::uuid[], ${ids}::uuid[]))`)
    .forUpdate()
    .execute();
}

export const insertAttempts = (trx: Executor, rows: Insertable<WebhookAttemptsTable>[]) =>
  rows.length === 0
    ? Promise.resolve()
    : trx
        .insertInto('webhook_attempts')
        .values(rows)
        .execute()
        .then(() => undefined);

/** A delivery's state after its attempts; `retryInSeconds` hands it back to the relay that long from now. */
export type DeliveryOutcome = DeliveryKey & { status: string; attemptCount: number; retryStep: number; retryInSeconds: number | null; note: string | null };

/** Writes the outcomes of a batch of attempts in one statement. */
export async function applyDeliveryOutcomes(trx: Executor, rows: DeliveryOutcome[]): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    update webhook_deliveries d
       set status = v.status,
           attempt_count = v.attempt_count,
           retry_step = v.retry_step,
           job_id = case when v.retry_in is null then d.job_id else null end,
           next_attempt_at = case when v.retry_in is null then d.next_attempt_at else now() + make_interval(secs => v.retry_in) end,
           note = v.note,
           updated_at = now()
      from unnest(
        ${rows.map((r) => r.partnerId)}::uuid[], ${rows.map((r) => r.deliveryId)}::uuid[], ${rows.map((r) => r.status)}::text[],
        ${rows.map((r) => r.attemptCount)}::int[], ${rows.map((r) => r.retryStep)}::int[], ${rows.map((r) => r.retryInSeconds)}::float8[],
        ${rows.map((r) => r.note)}::text[]
      ) as v(partner_id, id, status, attempt_count, retry_step, retry_in, note)
     where d.partner_id = v.partner_id and d.id = v.id
  `.execute(trx);
}

/** Marks endpoints healthy again after a delivery to them succeeded. */
export async function markEndpointsHealthy(trx: Executor, endpoints: { partnerId: string; endpointId: string }[]): Promise<void> {
  if (endpoints.length === 0) return;
  await sql`
    update webhook_endpoints w set state = 'healthy', failing_since = null
      from unnest(${endpoints.map((e) => e.partnerId)}::uuid[], ${endpoints.map((e) => e.endpointId)}::uuid[]) as v(partner_id, id)
     where w.partner_id = v.partner_id and w.id = v.id and w.state = 'failing'
  `.execute(trx);
}

/** Marks a delivery failed without an attempt (its endpoint is disabled). */
export const failDelivery = (trx: Executor, partnerId: string, id: string, note: string) =>
  trx
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', note, updated_at: sql<Date>`now()` })
    .where('partner_id', '=', partnerId)
    .where('id', '=', id)
    .execute();

/** Sends a finished delivery (succeeded or failed) again: one manual attempt, due now. Undefined when it is still pending. */
export const resetForResend = (trx: Executor, partnerId: string, id: string) =>
  trx
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', manual: true, job_id: null, note: null, next_attempt_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
    .where('partner_id', '=', partnerId)
    .where('id', '=', id)
    .where('status', '<>', 'pending')
    .returning('id')
    .executeTakeFirst();

// ---- the activity list

export type DeliveryFilter = { webhookId?: string; status?: string };

const deliveries = (db: Executor, partnerId: string, filter: DeliveryFilter) => {
  let q = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', (j) => j.onRef('e.partner_id', '=', 'd.partner_id').onRef('e.id', '=', 'd.event_id'))
    .innerJoin('webhook_endpoints as w', (j) => j.onRef('w.partner_id', '=', 'd.partner_id').onRef('w.id', '=', 'd.endpoint_id'))
    .where('d.partner_id', '=', partnerId);
  if (filter.webhookId) q = q.where('d.endpoint_id', '=', filter.webhookId);
  if (filter.status) q = q.where('d.status', '=', filter.status);
  return q;
};

/** A delivery as the activity list and its detail show it: the delivery, its endpoint's URL and its event. */
const DELIVERY_COLUMNS = [
  'd.id',
  'd.endpoint_id',
  'w.url',
  'd.event_id',
  'e.type',
  'e.data',
  'e.created_at as event_created_at',
  'd.status',
  'd.note',
  'd.next_attempt_at',
  'd.job_id',
  'd.created_at',
] as const;

export const listDeliveries = (db: Executor, partnerId: string, filter: DeliveryFilter & { offset: number; limit: number }) =>
  deliveries(db, partnerId, filter)
    .select(DELIVERY_COLUMNS)
    .orderBy('d.created_at', 'desc')
    .orderBy('d.id', 'desc')
    .offset(filter.offset)
    .limit(filter.limit)
    .execute();

export type DeliveryRow = Awaited<ReturnType<typeof listDeliveries>>[number];

export const findDelivery = (db: Executor, partnerId: string, id: string) =>
  deliveries(db, partnerId, {}).select(DELIVERY_COLUMNS).where('d.id', '=', id).executeTakeFirst();

/** The count of matching deliveries, up to `cap`. */
export async function countDeliveries(db: Executor, partnerId: string, filter: DeliveryFilter, cap: number): Promise<number> {
  const row = await db
    .selectFrom(deliveries(db, partnerId, filter).select('d.id').limit(cap).as('capped'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export const attemptsOf = (db: Executor, partnerId: string, deliveryIds: string[]) =>
  deliveryIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('webhook_attempts')
        .selectAll()
        .where('partner_id', '=', partnerId)
        .where('delivery_id', 'in', deliveryIds)
        .orderBy('delivery_id')
        .orderBy('n')
        .execute();

// ---- upkeep

/** Deletes events older than `before` none of whose deliveries is still pending (their deliveries and attempts go too). */
export async function deleteOldEvents(db: Executor, before: Date, batch = 5000): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    with old as (
      select e.partner_id, e.id from webhook_events e
       where e.created_at < ${before}
         and not exists (select 1 from webhook_deliveries d where d.partner_id = e.partner_id and d.event_id = e.id and d.status = 'pending')
       limit ${batch}
    ), gone as (
      delete from webhook_events e using old where e.partner_id = old.partner_id and e.id = old.id returning 1
    )
    select count(*)::int as n from gone
  `.execute(db);
  return rows[0]?.n ?? 0;
}

/**
 * Pending deliveries whose queue job was taken longer ago than `before` and never reported back (its retries spent
 * on database errors, its queue cleared) are handed back to the relay. A job that does run later finds another job
 * id on its delivery and does nothing.
 */
export async function requeueStuckDeliveries(db: Executor, before: Date): Promise<number> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ job_id: null, next_attempt_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
    .where('status', '=', 'pending')
    .where('job_id', 'is not', null)
    .where('updated_at', '<', before)
    .executeTakeFirst();
  return Number(result.numUpdatedRows ?? 0);
}

// ---- monitoring

/** How many of an endpoint's latest tried deliveries must all have failed for it to count as failing. */
const FAILING_ENDPOINT_DELIVERIES = 3;

/**
 * Enabled endpoints across partners, and how many of them are failing: their latest FAILING_ENDPOINT_DELIVERIES
 * automatic deliveries that have been tried (all of them when fewer) all failed at their last attempt, given up
 * (failed) or waiting for a retry (pending after a failed attempt). Deliveries not tried yet and manual ones (a
 * resend, a test event) do not count; an endpoint with no tried delivery is not failing. One statement: per enabled
 * endpoint, its latest deliveries along webhook_deliveries_endpoint_idx.
 */
export async function endpointHealth(db: Executor): Promise<{ enabled: number; failing: number }> {
  const row = await sql<{ enabled: number; failing: number }>`
    select count(*)::int as enabled, count(*) filter (where latest.tried > 0 and latest.failed = latest.tried)::int as failing
      from webhook_endpoints e
     cross join lateral (
       select count(*) as tried, count(*) filter (where d.status = 'failed' or (d.status = 'pending' and d.retry_step > 0)) as failed
         from (select status, retry_step from webhook_deliveries
                where partner_id = e.partner_id and endpoint_id = e.id and not manual and attempt_count > 0
                order by created_at desc, id desc
                limit ${FAILING_ENDPOINT_DELIVERIES}) d
     ) latest
     where e.active`.execute(db);
  return { enabled: Number(row.rows[0]?.enabled ?? 0), failing: Number(row.rows[0]?.failing ?? 0) };
}
