import type { Transaction } from 'kysely';
import { addDecimal, compareDecimal, normalise, subtractDecimal } from '@portal/contract/decimal';
import { webhookEventType } from '@portal/contract/webhooks';
import type { CollectionInstructions, Payment, PaymentKind, PaymentStatus } from '@portal/contract/payments';
import type { DB } from '../../db/schema.ts';
import type { LiveBus } from '../../lib/live-bus.ts';
import type { Ledger } from '../ledger/index.ts';
import type { Notifier } from '../notifications/index.ts';
import { recordEvent } from '../webhooks/index.ts';
import { insertFeeReturn, insertFeeRow, moveOrder, type OrderRow } from './payments.repository.ts';

/** The partner's balance account: collections and disbursements settle in USD (the default fiat wallet). */
export const PAYMENT_CURRENCY = 'USD';

const iso = (d: Date | string) => new Date(d).toISOString();

/** An order as the partner reads it (the API's reply and the webhook's data); the timeline when read by id. */
export function toPayment(o: OrderRow, timeline: { status: string; at: Date | string }[] = []): Payment {
  const kind = o.kind as PaymentKind;
  return {
    id: o.id,
    kind,
    status: o.status as PaymentStatus,
    sequenceId: o.sequence_id,
    country: o.country,
    currency: o.currency,
    amount: normalise(o.amount, 2),
    rate: o.rate,
    amountUsd: normalise(o.amount_usd, 2),
    feeUsd: normalise(o.fee_usd, 2),
    totalUsd: totalUsd(kind, o.amount_usd, o.fee_usd),
    channelId: o.channel_id,
    channelType: o.channel_type,
    paymentMethod: o.payment_method,
    networkId: o.network_id,
    networkName: o.network_name,
    accountNumber: o.account_number,
    accountType: o.account_type,
    counterpartyName: o.counterparty_name,
    reference: o.reference,
    source: o.source,
    instructions: (o.instructions ?? null) as CollectionInstructions | null,
    failureReason: o.failure_reason,
    timeline: timeline.map((t) => ({ status: t.status as PaymentStatus, at: iso(t.at) })),
    createdAt: iso(o.created_at),
    updatedAt: iso(o.updated_at),
  };
}

/** What a disbursement takes from the balance (amount and fee), or what a collection brings (amount less fee). */
export function totalUsd(kind: PaymentKind, amountUsd: string, feeUsd: string): string {
  return normalise(kind === 'disbursement' ? addDecimal(amountUsd, feeUsd) : subtractDecimal(amountUsd, feeUsd), 2);
}

const neg = (amount: string) => (amount.startsWith('-') ? amount.slice(1) : `-${amount}`);
const nonZero = (amount: string) => compareDecimal(amount, '0') !== 0;

const REASONS: Partial<Record<PaymentStatus, string>> = {
  failed: 'The receiving network refused the payment (sandbox test amount ending in 1)',
  expired: 'The payment was not completed in time (sandbox test amount ending in 2)',
  denied: 'The payment was denied by compliance review (sandbox test amount ending in 4)',
};

/** The webhook object of an order: PAYMENT.<STATUS> for a disbursement, COLLECTION.<STATUS> for a collection. */
export const webhookObject = (kind: string) => (kind === 'collection' ? 'COLLECTION' : 'PAYMENT');
export const tableOf = (kind: string) => (kind === 'collection' ? ('collections' as const) : ('payments' as const));

/** An order's fee as Fees lists it: a payout's or a collection's (a top-up of the balance), in USD, on its wallet. */
export const feeOf = (o: OrderRow, fiatWallet: string | null, at: Date) => ({
  partnerId: o.partner_id,
  orderId: o.id,
  transactionType: o.kind === 'collection' ? 'topup' : 'payout',
  paymentMethod: o.payment_method,
  amountUsd: o.fee_usd,
  fiatWallet,
  at,
});

/** The money an order's new state moves on the ledger, each entry unique by (partner, kind, reference); whether any moved. */
async function bookState(trx: Transaction<DB>, ledger: Pick<Ledger, 'book'>, o: OrderRow, at: Date): Promise<boolean> {
  let moved = false;
  const entry = async (kind: string, amount: string) => {
    if (!nonZero(amount)) return;
    await ledger.book(trx, { partnerId: o.partner_id, currency: PAYMENT_CURRENCY, amount, kind, reference: o.id, at });
    moved = true;
  };
  if (o.kind === 'disbursement') {
    // the reservation made at creation comes back whole when the money never left: the amount, and the fee (a fee row
    // of its own in Fees, as the fee charged was)
    if (o.status === 'failed' || o.status === 'expired' || o.status === 'denied') {
      await entry('disbursement_reversal', o.amount_usd);
      if (nonZero(o.fee_usd)) {
        await entry('disbursement_fee_reversal', o.fee_usd);
        await insertFeeReturn(trx, o.partner_id, o.id, at);
      }
    }
    // a completed disbursement sent back by the recipient's side returns the amount; the fee was earned
    if (o.status === 'refunded') await entry('disbursement_refund', o.amount_usd);
  } else {
    if (o.status === 'complete') {
      await entry('collection', o.amount_usd);
      await entry('collection_fee', neg(o.fee_usd));
      // Fees lists the fee when it is taken from the balance, at the same moment; on the wallet of the collection's row,
      // which a collection is made without (payments.service.ts, book): the default USD one
      if (nonZero(o.fee_usd)) await insertFeeRow(trx, feeOf(o, null, at));
    }
    // the payer gets the collected amount back; the fee was earned
    if (o.status === 'refunded') await entry('collection_refund', neg(o.amount_usd));
  }
  return moved;
}

/** Announces an order's state: the webhook event (outbox) and the live event stream, in the change's transaction. */
export async function announce(trx: Transaction<DB>, live: LiveBus, o: OrderRow, at: Date) {
  await recordEvent(trx, { partnerId: o.partner_id, type: webhookEventType(webhookObject(o.kind), o.status), data: toPayment(o) });
  await live.publish(trx, { partnerId: o.partner_id, table: tableOf(o.kind), kind: o.kind, id: o.id, status: o.status, at: at.toISOString() });
}

/**
 * The one place where an order changes state after its creation, inside one transaction: the status (only from the
 * status expected, so a step that runs twice changes nothing), its mirrors and timeline, the ledger entries and fee
 * row of the new state, the webhook event and the live event. Undefined when the order was not in `from`.
 */
export async function recordPaymentChange(
  trx: Transaction<DB>,
  ports: { live: LiveBus; notifier: Pick<Notifier, 'checkLowBalance'>; ledger: Pick<Ledger, 'book'> },
  change: { partnerId: string; id: string; from: string; to: PaymentStatus; at: Date },
) {
  const row = await moveOrder(trx, change.partnerId, change.id, change.from, change.to, change.at, REASONS[change.to] ?? null);
  if (!row) return undefined;
  if (await bookState(trx, ports.ledger, row, change.at)) await ports.notifier.checkLowBalance(trx, change.partnerId, change.at);
  await announce(trx, ports.live, row, change.at);
  return row;
}
