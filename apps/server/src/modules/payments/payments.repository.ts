import { sql, type Insertable, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { DB, PaymentOrdersTable } from '../../db/schema.ts';

/** Collections' and disbursements' SQL: reference lookups, the order, its mirrors in the transaction tables, its timeline. */

export type Executor = Kysely<DB> | Transaction<DB>;
export type OrderRow = Selectable<PaymentOrdersTable>;

/** The channel of `id` whatever its status (the service says why it is refused). */
export function findChannel(db: Executor, id: string) {
  return db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findNetwork(db: Executor, id: string) {
  return db.selectFrom('payment_networks').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Active networks of a country reached through an active channel `channelId` (a collection's default bank). */
export function networksOfChannel(db: Executor, country: string, channelId: string) {
  return db
    .selectFrom('payment_networks')
    .selectAll()
    .where('country', '=', country)
    .where('status', '=', 'active')
    .where(sql<boolean>`${channelId}::uuid = any(channel_ids)`)
    .orderBy('name')
    .execute();
}

/** The platform rate (local currency per USD) of a market. */
export function marketRate(db: Executor, country: string, currency: string) {
  return db.selectFrom('platform_rates').select(['id', 'buy', 'sell']).where('locale', '=', country).where('code', '=', currency).executeTakeFirst();
}

/** The markets the partner serves now (the rule of countryEnabled): country and currency of its enabled rates. */
export function enabledMarkets(db: Executor, partnerId: string) {
  return db
    .selectFrom('partner_rates')
    .innerJoin('platform_rates', 'platform_rates.id', 'partner_rates.platform_rate_id')
    .select(['platform_rates.locale as country', 'platform_rates.code as currency'])
    .where('partner_rates.partner_id', '=', partnerId)
    .where('partner_rates.status', 'in', ['enabled', 'pending_disable'])
    .orderBy('platform_rates.locale')
    .orderBy('platform_rates.code')
    .execute();
}

/** Whether the partner serves the country now: its rate is enabled (or still enabled while a disable waits for review). */
export async function countryEnabled(db: Executor, partnerId: string, platformRateId: string) {
  const row = await db
    .selectFrom('partner_rates')
    .select('status')
    .where('partner_id', '=', partnerId)
    .where('platform_rate_id', '=', platformRateId)
    .where('status', 'in', ['enabled', 'pending_disable'])
    .executeTakeFirst();
  return row !== undefined;
}

/** Inserts the order unless its sequenceId was used; undefined when it was (the caller reads the first one). */
export function insertOrder(trx: Transaction<DB>, order: Insertable<PaymentOrdersTable>) {
  return trx
    .insertInto('payment_orders')
    .values(order)
    .onConflict((oc) => oc.columns(['partner_id', 'kind', 'sequence_id']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

export function findOrder(db: Executor, partnerId: string, id: string) {
  return db.selectFrom('payment_orders').selectAll().where('partner_id', '=', partnerId).where('id', '=', id).executeTakeFirst();
}

export function findOrderBySequence(db: Executor, partnerId: string, kind: string, sequenceId: string) {
  return db
    .selectFrom('payment_orders')
    .selectAll()
    .where('partner_id', '=', partnerId)
    .where('kind', '=', kind)
    .where('sequence_id', '=', sequenceId)
    .executeTakeFirst();
}

export function timeline(db: Executor, partnerId: string, orderId: string) {
  return db
    .selectFrom('payment_order_events')
    .select(['status', 'at'])
    .where('partner_id', '=', partnerId)
    .where('order_id', '=', orderId)
    .orderBy('seq')
    .execute();
}

export async function insertTimelineEntry(trx: Transaction<DB>, partnerId: string, orderId: string, status: string, at: Date) {
  await trx
    .insertInto('payment_order_events')
    .values({ partner_id: partnerId, order_id: orderId, status, at })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

const mirrorTable = (kind: string) => (kind === 'collection' ? 'collections' : 'payments');

/** The rows the transaction tables show for an order: collections or payments, and initiated_payments. */
export async function insertMirrors(trx: Transaction<DB>, o: OrderRow, fiatWallet: string | null) {
  // the columns both rows take from the order as they are
  const shared = {
    partner_id: o.partner_id,
    id: o.id,
    created_at: o.created_at,
    status: o.status,
    country: o.country,
    amount: o.amount,
    payment_method: o.payment_method,
    account_number: o.account_number ?? '',
    fiat_wallet: fiatWallet,
  };
  await trx
    .insertInto(mirrorTable(o.kind))
    .values({
      ...shared,
      currency: o.currency,
      converted_amount: o.amount_usd,
      rate: o.rate,
      request_source: o.source,
      sequence_id: o.sequence_id,
      session_id: null,
      account_type: o.account_type ?? '',
      counterparty_name: o.counterparty_name,
      operator: o.network_name,
    })
    .execute();
  await trx
    .insertInto('initiated_payments')
    .values({ ...shared, local_currency: o.currency, amount_usd: o.amount_usd, recipient_name: o.counterparty_name, reference: o.reference })
    .execute();
}

/**
 * Moves an order from `from` to `to` with its mirrors; undefined when it is no longer in `from` (the step ran
 * already): the one guard that makes a step that runs twice change nothing.
 */
export async function moveOrder(trx: Transaction<DB>, partnerId: string, id: string, from: string, to: string, at: Date, failureReason: string | null) {
  const row = await trx
    .updateTable('payment_orders')
    .set({ status: to, updated_at: at, ...(failureReason ? { failure_reason: failureReason } : {}) })
    .where('partner_id', '=', partnerId)
    .where('id', '=', id)
    .where('status', '=', from)
    .returningAll()
    .executeTakeFirst();
  if (!row) return undefined;
  await trx
    .updateTable(mirrorTable(row.kind))
    .set({ status: to, ...(to === 'complete' ? { completed_at: at } : {}), ...(failureReason ? { failure_reason: failureReason } : {}) })
    .where('partner_id', '=', partnerId)
    .where('id', '=', id)
    .execute();
  await trx.updateTable('initiated_payments').set({ status: to }).where('partner_id', '=', partnerId).where('id', '=', id).execute();
  await insertTimelineEntry(trx, partnerId, id, to, at);
  return row;
}

export async function insertFeeRow(
  trx: Transaction<DB>,
  fee: { partnerId: string; orderId: string; transactionType: string; paymentMethod: string; amountUsd: string; fiatWallet: string | null; at: Date },
) {
  await trx
    .insertInto('fees')
    .values({
      partner_id: fee.partnerId,
      // one fee per order: the fee's id is derived from the order's (the primary key refuses a second)
      id: fee.orderId,
      created_at: fee.at,
      transaction_id: fee.orderId,
      transaction_type: fee.transactionType,
      payment_method: fee.paymentMethod,
      amount_usd: fee.amountUsd,
      fiat_wallet: fee.fiatWallet,
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/**
 * The return of an order's fee (a payment not completed): a row of its own in Fees, dated when it is given back, for
 * minus the fee charged, on the same wallet. Its id is derived from the charged fee's, so a second is refused.
 */
export async function insertFeeReturn(trx: Transaction<DB>, partnerId: string, orderId: string, at: Date) {
  await sql`
    insert into fees (partner_id, id, created_at, transaction_id, transaction_type, payment_method, amount_usd, fiat_wallet)
    select partner_id, md5(id::text || ':returned')::uuid, ${at}, transaction_id, transaction_type, payment_method, -amount_usd, fiat_wallet
    from fees where partner_id = ${partnerId} and id = ${orderId}
    on conflict do nothing`.execute(trx);
}

/** Orders not finished whose last change is older than `before` (their job may be gone): the sweep queues them again. */
export function unfinishedOrders(db: Executor, before: Date, limit = 500) {
  return db
    .selectFrom('payment_orders')
    .select(['partner_id', 'id', 'status'])
    .where('status', 'not in', ['complete', 'failed', 'expired', 'refunded', 'denied', 'cancelled', 'refund_failed'])
    .where('updated_at', '<', before)
    .orderBy('updated_at')
    .limit(limit)
    .execute();
}
