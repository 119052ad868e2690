import type { Executor } from './partners.repository.ts';

/** The stored payout schedule of a partner, as saved (the service reads it through the contract's schema). */
export async function findPayoutConfig(db: Executor, partnerId: string): Promise<unknown> {
  const row = await db.selectFrom('payout_configs').select('config').where('partner_id', '=', partnerId).executeTakeFirst();
  return row?.config;
}

export async function upsertPayoutConfig(db: Executor, partnerId: string, config: object, updatedBy: string | null, at: Date) {
  const values = { config: JSON.stringify(config), updated_by: updatedBy };
  await db
    .insertInto('payout_configs')
    .values({ partner_id: partnerId, ...values })
    .onConflict((oc) => oc.column('partner_id').doUpdateSet({ ...values, updated_at: at }))
    .execute();
}
