import { sql, type Insertable, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { DB, SettlementRequestsTable, SettlementsTable } from '../../db/schema.ts';

/** Withdrawals' SQL: the settlement row and its request (their ledger entries are the ledger module's). */

type Executor = Kysely<DB> | Transaction<DB>;
export type SettlementRow = Selectable<SettlementsTable>;
export type RequestRow = Selectable<SettlementRequestsTable>;
export type WithdrawalRow = RequestRow & { settlement: SettlementRow };

/**
 * After the account's lock, in one statement: the withdrawal's settlement row and its request row, unless its
 * sequenceId was booked already (by a copy of the request that held the lock first). Whether it was inserted now.
 */
export async function insertWithdrawal(
  trx: Transaction<DB>,
  s: Insertable<SettlementsTable> & { created_at: Date; sequence_id: string },
  r: Omit<Insertable<SettlementRequestsTable>, 'failure_reason' | 'settlement_id' | 'partner_id' | 'sequence_id' | 'created_at'>,
): Promise<boolean> {
  const result = await sql<{ id: string }>`
    with ins_settlement as (
      insert into settlements (partner_id, id, created_at, status, type, transaction_hash, internal_wallet_address, external_wallet_address,
        crypto_currency, crypto_amount, network, crypto_rate, fiat_amount_usd, wallet_balance_usd, fiat_amount, fiat_rate, fiat_wallet, sequence_id)
      select ${s.partner_id}, ${s.id}, ${s.created_at}, ${s.status}, ${s.type}, null, ${s.internal_wallet_address}, ${s.external_wallet_address},
        ${s.crypto_currency}, ${s.crypto_amount}, ${s.network}, ${s.crypto_rate}, ${s.fiat_amount_usd}, ${s.wallet_balance_usd}, ${s.fiat_amount ?? null},
        ${s.fiat_rate ?? null}, ${s.fiat_wallet ?? null}, ${s.sequence_id}
      where not exists (select 1 from settlement_requests where partner_id = ${s.partner_id} and sequence_id = ${s.sequence_id})
      returning id
    )
    insert into settlement_requests (partner_id, sequence_id, settlement_id, fingerprint, wallet_id, requested_by, amount, currency, fee_amount, wallet_tag,
      travel_rule_name, travel_rule_registration_number, failure_reason, created_at)
    select ${s.partner_id}, ${s.sequence_id}, ins_settlement.id, ${r.fingerprint}, ${r.wallet_id}, ${r.requested_by}, ${r.amount}, ${r.currency}, ${r.fee_amount},
      ${r.wallet_tag ?? null}, ${r.travel_rule_name ?? null}, ${r.travel_rule_registration_number ?? null}, null, ${s.created_at}
    from ins_settlement
    returning settlement_id as id`.execute(trx);
  return result.rows.length > 0;
}

/** The request whose `column` is `value`, with its settlement. */
async function findRequestWhere(db: Executor, partnerId: string, column: 'sequence_id' | 'settlement_id', value: string): Promise<WithdrawalRow | undefined> {
  const request = await db.selectFrom('settlement_requests').selectAll().where('partner_id', '=', partnerId).where(column, '=', value).executeTakeFirst();
  if (!request) return undefined;
  const settlement = await findSettlement(db, partnerId, request.settlement_id);
  return settlement ? { ...request, settlement } : undefined;
}

/** The request of a sequenceId, with its settlement. */
export const findRequest = (db: Executor, partnerId: string, sequenceId: string) => findRequestWhere(db, partnerId, 'sequence_id', sequenceId);

export const findRequestBySettlement = (db: Executor, partnerId: string, settlementId: string) =>
  findRequestWhere(db, partnerId, 'settlement_id', settlementId);

export function findSettlement(db: Executor, partnerId: string, id: string) {
  return db.selectFrom('settlements').selectAll().where('partner_id', '=', partnerId).where('id', '=', id).executeTakeFirst();
}

/** Moves a settlement from one of `from` to `to`; undefined when it is in another status (a job ran twice). */
export function updateSettlementStatus(
  trx: Transaction<DB>,
  partnerId: string,
  id: string,
  from: readonly string[],
  to: string,
  changes: Partial<Pick<SettlementsTable, 'transaction_hash' | 'internal_wallet_address'>> = {},
) {
  return trx
    .updateTable('settlements')
    .set({ ...changes, status: to })
    .where('partner_id', '=', partnerId)
    .where('id', '=', id)
    .where('status', 'in', [...from])
    .returningAll()
    .executeTakeFirst();
}

export async function setFailureReason(trx: Transaction<DB>, partnerId: string, settlementId: string, reason: string) {
  await trx
    .updateTable('settlement_requests')
    .set({ failure_reason: reason })
    .where('partner_id', '=', partnerId)
    .where('settlement_id', '=', settlementId)
    .execute();
}

/** Withdrawals still pending or processing that were requested before `before` (their jobs may be gone). */
export async function unfinishedWithdrawals(db: Executor, before: Date, limit = 500) {
  return db
    .selectFrom('settlement_requests as r')
    .innerJoin('settlements as s', (j) => j.onRef('s.partner_id', '=', 'r.partner_id').onRef('s.id', '=', 'r.settlement_id'))
    .select(['r.partner_id', 'r.settlement_id', 's.status'])
    .where('s.status', 'in', ['pending', 'processing'])
    .where('r.created_at', '<', before)
    .orderBy('r.created_at')
    .limit(limit)
    .execute();
}
