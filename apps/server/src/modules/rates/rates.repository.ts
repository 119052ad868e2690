import type { Kysely, Transaction } from 'kysely';
import type { PendingRateStatus, SettledRateStatus } from '@portal/contract/rates';
import type { DB } from '../../db/schema.ts';

/** The rates module's SQL: platform rates (global) and each partner's status for them (partner_rates). */

export type Executor = Kysely<DB> | Transaction<DB>;

/**
 * A partner rate's id: the same partner and platform rate always give the same id, so that a country a partner
 * never touched has its id before it has a row (a row is written by its first change).
 */
export { partnerRateId } from '../../db/reference/markets.ts';
import { partnerRateId } from '../../db/reference/markets.ts';

/** Every platform rate with the partner's row for it, when it has one (and the name of who asked for a pending change). */
export function listPartnerRates(db: Executor, partnerId: string) {
  return db
    .selectFrom('platform_rates as r')
    .leftJoin('partner_rates as pr', (j) => j.onRef('pr.platform_rate_id', '=', 'r.id').on('pr.partner_id', '=', partnerId))
    .leftJoin('users as u', (j) => j.onRef('u.id', '=', 'pr.requested_by').on('u.partner_id', '=', partnerId))
    .select([
      'r.id as rate_id',
      'r.locale',
      'r.code',
      'r.buy',
      'r.sell',
      'pr.id',
      'pr.status',
      'pr.requested_by',
      'pr.requested_at',
      'u.name as requested_by_name',
    ])
    .orderBy('r.locale')
    .orderBy('r.code')
    .execute();
}

export function findPlatformRate(db: Executor, id: string) {
  return db.selectFrom('platform_rates').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findPartnerRate(db: Executor, partnerId: string, id: string) {
  return db.selectFrom('partner_rates').selectAll().where('partner_id', '=', partnerId).where('id', '=', id).executeTakeFirst();
}

type Request = { partnerId: string; id: string; platformRateId: string; from: SettledRateStatus; to: PendingRateStatus; userId: string; at: Date };

/**
 * Asks for a change in one statement that holds only while the rate is still in the status the caller saw (a
 * country never touched is disabled): of two requests at once, one changes the row and the other gets undefined.
 */
export async function requestChange(trx: Transaction<DB>, r: Request) {
  const pending = { status: r.to, requested_by: r.userId, requested_at: r.at, reviewed_by: null, reviewed_at: null, updated_at: r.at };
  if (r.from === 'disabled') {
    // the first change of a country writes its row; a request racing it waits for it here, then finds it pending
    const inserted = await trx
      .insertInto('partner_rates')
      .values({ partner_id: r.partnerId, id: r.id, platform_rate_id: r.platformRateId, ...pending })
      .onConflict((oc) => oc.doNothing())
      .returning(['id', 'status'])
      .executeTakeFirst();
    if (inserted) return inserted;
  }
  return trx
    .updateTable('partner_rates')
    .set(pending)
    .where('partner_id', '=', r.partnerId)
    .where('id', '=', r.id)
    .where('status', '=', r.from)
    .returning(['id', 'status'])
    .executeTakeFirst();
}

type Review = {
  partnerId: string;
  id: string;
  from: PendingRateStatus;
  to: SettledRateStatus;
  reviewerId: string;
  at: Date;
  /** approval: only when someone else asked */ approval: boolean;
};

/**
 * Approves or denies a pending change in one conditional statement: it holds only while the change the reviewer
 * saw is still pending, and (for an approval) was asked for by someone else. Of two reviewers at once, one settles
 * the rate and the other gets undefined.
 */
export function settleChange(trx: Transaction<DB>, r: Review) {
  let query = trx
    .updateTable('partner_rates')
    .set({ status: r.to, requested_by: null, requested_at: null, reviewed_by: r.reviewerId, reviewed_at: r.at, updated_at: r.at })
    .where('partner_id', '=', r.partnerId)
    .where('id', '=', r.id)
    .where('status', '=', r.from);
  if (r.approval) query = query.where('requested_by', '<>', r.reviewerId);
  return query.returning(['id', 'status']).executeTakeFirst();
}

/** Demo data: the partner's countries enabled from the start. */
export async function enableRates(db: Executor, partnerId: string, platformRateIds: string[]) {
  if (platformRateIds.length === 0) return;
  await db
    .insertInto('partner_rates')
    .values(platformRateIds.map((rateId) => ({ partner_id: partnerId, id: partnerRateId(partnerId, rateId), platform_rate_id: rateId, status: 'enabled' })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}
