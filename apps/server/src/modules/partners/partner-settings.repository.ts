import type { Executor } from './partners.repository.ts';

/**
 * The stored payout schedule of a partner, as saved (the service reads it through the contract's schema), and when
 * it was saved (a repeat frequency above 1 counts its periods from then).
 */
export async function findPayoutConfig(db: Executor, partnerId: string): Promise<{ config: unknown; savedAt: Date } | undefined> {
  const row = await db.selectFrom('payout_configs').select(['config', 'updated_at']).where('partner_id', '=', partnerId).executeTakeFirst();
  return row && { config: row.config, savedAt: row.updated_at };
}

export async function upsertPayoutConfig(db: Executor, partnerId: string, config: object, updatedBy: string | null, at: Date) {
  const values = { config: JSON.stringify(config), updated_by: updatedBy };
  await db
    .insertInto('payout_configs')
    .values({ partner_id: partnerId, ...values, updated_at: at })
    .onConflict((oc) => oc.column('partner_id').doUpdateSet({ ...values, updated_at: at }))
    .execute();
}
