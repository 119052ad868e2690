import type { Transaction } from 'kysely';
import type { SettlementStatus } from '@portal/contract/settlements';
import type { DB } from '../../db/schema.ts';
import { auditChange } from '../../lib/audit.repository.ts';
import type { Notifier } from '../notifications/index.ts';
import { recordEvent, settlementEvent } from '../webhooks/index.ts';
import { findRequestBySettlement, findSettlement, updateSettlementStatus, type SettlementRow } from './withdrawals.repository.ts';

export type SettlementChange = {
  partnerId: string;
  settlementId: string;
  /** null when the settlement was created just now (its row inserted in this transaction) */
  from: SettlementStatus | null;
  to: SettlementStatus;
  actor: { userId: string | null; name: string };
  transactionHash?: string;
  internalWalletAddress?: string;
  reason?: string;
  /** when it changed (the notifications say it) */
  at: Date;
};

/**
 * The one place where a settlement changes state, inside the change's transaction: the status moves (only from the
 * status expected, so a job that runs twice changes nothing), the audit event is written and the webhook event of the
 * new status (SETTLEMENT.<status>) goes into the outbox, all in the same transaction, so that no event is lost or sent
 * for a change that rolled back. Undefined when the settlement was not in `from`.
 */
export async function recordWithdrawalChange(
  trx: Transaction<DB>,
  change: SettlementChange,
  notifier: Pick<Notifier, 'notify' | 'who'>,
): Promise<SettlementRow | undefined> {
  let row: SettlementRow | undefined;
  if (change.from !== null) {
    row = await updateSettlementStatus(trx, change.partnerId, change.settlementId, [change.from], change.to, {
      ...(change.transactionHash ? { transaction_hash: change.transactionHash } : {}),
      ...(change.internalWalletAddress ? { internal_wallet_address: change.internalWalletAddress } : {}),
    });
    if (!row) return undefined;
  }
  await auditChange(trx, {
    partnerId: change.partnerId,
    actorUserId: change.actor.userId,
    actor: change.actor.name,
    action: `settlement.${change.to}`,
    target: change.settlementId,
    details: {
      from: change.from,
      to: change.to,
      ...(change.transactionHash ? { transactionHash: change.transactionHash } : {}),
      ...(change.reason ? { reason: change.reason } : {}),
    },
  });
  const settled = row ?? (await findSettlement(trx, change.partnerId, change.settlementId));
  if (settled) await recordEvent(trx, settlementEvent(settled));
  if (change.to === 'pending' || change.to === 'complete' || change.to === 'failed') await tellWithdrawal(trx, notifier, change);
  return row;
}

/**
 * Tells the partner's admins and whoever asked that a withdrawal was requested, and how it ended (complete, or
 * failed with the amount given back). Nothing is told of the steps between (processing).
 */
async function tellWithdrawal(trx: Transaction<DB>, notifier: Pick<Notifier, 'notify' | 'who'>, change: SettlementChange) {
  const w = await findRequestBySettlement(trx, change.partnerId, change.settlementId);
  if (!w) return;
  const s = w.settlement;
  const requester = await notifier.who(trx, change.partnerId, w.requested_by);
  const facts = { requester, amount: w.amount, wallet: { coins: s.crypto_currency, network: s.network, address: s.external_wallet_address } };
  await notifier.notify(trx, {
    partnerId: change.partnerId,
    topic: 'withdrawals',
    to: { roles: ['admin'], userIds: [w.requested_by] },
    notice: (t) =>
      change.to === 'pending'
        ? t.notices.withdrawalRequested({ ...facts, coinAmount: s.crypto_amount, coin: s.crypto_currency })
        : change.to === 'complete'
          ? t.notices.withdrawalCompleted({ ...facts, hash: s.transaction_hash })
          : t.notices.withdrawalFailed({ ...facts, reason: change.reason }),
    link: `/transactions?tab=3&id=${s.id}`,
    at: change.at,
  });
}
