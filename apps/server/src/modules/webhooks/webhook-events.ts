import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Selectable, Transaction } from 'kysely';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT, webhookEventType, type WebhookEventType } from '@portal/contract/webhooks';
import type { DB, SettlementsTable } from '../../db/schema.ts';
import { insertDeliveriesForSubscribers, insertEvent, notifyOutbox } from './webhooks.repository.ts';

export type WebhookEventInput = {
  partnerId: string;
  type: WebhookEventType | typeof WEBHOOK_TEST_EVENT;
  /** the object as the partner reads it (camelCase fields, money as decimal strings) */
  data: Record<string, unknown>;
  /**
   * Announcing the same change twice is a no-op when both carry the same key. Default: `<type>:<data.id>` when the
   * data has an id (an object reaches each state once); null announces every time.
   */
  key?: string | null;
};

export type RecordedEvent = { eventId: string; deliveries: number; duplicate: boolean };

const KNOWN = new Set<string>(WEBHOOK_EVENT_TYPES);

/**
 * Announces a change to the partner's webhooks, inside the transaction of the change (the outbox): the event and one
 * delivery per active endpoint subscribed to its type are written with the change or not at all, and the relay
 * (webhook-delivery.ts) queues them once committed. Call it where the change is made, with the change's `trx`.
 */
export async function recordEvent(trx: Transaction<DB>, event: WebhookEventInput): Promise<RecordedEvent> {
  if (!KNOWN.has(event.type) && event.type !== WEBHOOK_TEST_EVENT) throw new Error(`unknown webhook event type ${event.type}`);
  const key = event.key !== undefined ? event.key : typeof event.data.id === 'string' ? `${event.type}:${event.data.id}` : null;
  const id = crypto.randomUUID();
  const inserted = await insertEvent(trx, { partnerId: event.partnerId, id, type: event.type, data: event.data, dedupeKey: key });
  if (!inserted) return { eventId: id, deliveries: 0, duplicate: true };
  const deliveries = await insertDeliveriesForSubscribers(trx, event.partnerId, id, event.type);
  if (deliveries > 0) await notifyOutbox(trx);
  return { eventId: id, deliveries, duplicate: false };
}

/**
 * The event of a settlement reaching its status (SETTLEMENT.PENDING, .PROCESSING, .COMPLETE, .FAILED), with the
 * settlement's fields of transaction-data §3. Where a settlement changes state:
 *
 *     await recordEvent(trx, settlementEvent(settlement));
 */
export function settlementEvent(s: Selectable<SettlementsTable>): WebhookEventInput {
  return {
    partnerId: s.partner_id,
    type: webhookEventType('SETTLEMENT', s.status),
    data: {
      id: s.id,
      status: s.status,
      type: s.type,
      sequenceId: s.sequence_id,
      transactionHash: s.transaction_hash,
      cryptoCurrency: s.crypto_currency,
      cryptoAmount: s.crypto_amount,
      network: s.network,
      internalWalletAddress: s.internal_wallet_address,
      externalWalletAddress: s.external_wallet_address,
      cryptoRate: s.crypto_rate,
      fiatAmountUSD: s.fiat_amount_usd,
      fiatAmount: s.fiat_amount,
      fiatRate: s.fiat_rate,
      fiatWallet: s.fiat_wallet,
      walletBalanceUSD: s.wallet_balance_usd,
      createdAt: new Date(s.created_at).toISOString(),
    },
  };
}

// A nudge to this process's relay after a change committed here (a resend, a test event); other servers hear the
// database notification the outbox sends, and every relay also looks on its own every few hundred milliseconds.
const signal = new EventEmitter();
signal.setMaxListeners(0);
export const onOutboxNudge = (listener: () => void) => {
  signal.on('nudge', listener);
  return () => void signal.off('nudge', listener);
};
export const nudgeOutbox = () => void signal.emit('nudge');
