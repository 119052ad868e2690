import type { Transaction } from 'kysely';
import type { SettlementStatus } from '@portal/contract/settlements';
import type { DB } from '../../db/schema.ts';
import { auditChange } from '../../lib/audit.repository.ts';
import { recordEvent, settlementEvent } from '../webhooks/index.ts';
import { findSettlement, updateSettlementStatus, type SettlementRow } from './settlements.repository.ts';

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
};

/**
 * The one place where a settlement changes state, inside the change's transaction: the status moves (only from the
 * status expected, so a job that runs twice changes nothing), the audit event is written and the webhook event of the
 * new status (SETTLEMENT.<status>) goes into the outbox, all in the same transaction, so that no event is lost or sent
 * for a change that rolled back. Undefined when the settlement was not in `from`.
 */
export async function recordSettlementChange(trx: Transaction<DB>, change: SettlementChange): Promise<SettlementRow | undefined> {
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
  return row;
}
