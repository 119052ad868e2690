import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.ts';

type Exec = Kysely<DB> | Transaction<DB>;

/** The fiat-wallets module's SQL: the stored wallets and their switches (their balances are the ledger's). */
export function createFiatWalletsRepository(db: Kysely<DB>) {
  const wallets = (exec: Exec, partnerId: string) =>
    exec
      .selectFrom('fiat_wallets as w')
      .where('w.partner_id', '=', partnerId)
      .select(['w.id', 'w.currency', 'w.country', 'w.payment_enabled', 'w.collection_enabled']);

  return {
    transaction: <T>(work: (trx: Transaction<DB>) => Promise<T>) => db.transaction().execute(work),

    /** Whether the partner has fiat wallets (undefined when there is no such partner). */
    fiatWalletsEnabled: async (partnerId: string) =>
      (await db.selectFrom('partners').select('fiat_wallets_enabled').where('id', '=', partnerId).executeTakeFirst())?.fiat_wallets_enabled,

    /** The partner's stored wallets, oldest first. */
    list: (partnerId: string) => wallets(db, partnerId).orderBy('w.id').execute(),

    one: (exec: Exec, partnerId: string, id: number) => wallets(exec, partnerId).where('w.id', '=', id).executeTakeFirst(),

    /** Locks the wallet row for a change; its switches as they are now, or undefined when the partner has no such wallet. */
    lock: (trx: Transaction<DB>, partnerId: string, id: number) =>
      trx
        .selectFrom('fiat_wallets')
        .select(['id', 'currency', 'payment_enabled', 'collection_enabled'])
        .where('partner_id', '=', partnerId)
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst(),

    update: (trx: Transaction<DB>, partnerId: string, id: number, changes: { payment_enabled?: boolean; collection_enabled?: boolean }, at: Date) =>
      trx
        .updateTable('fiat_wallets')
        .set({ ...changes, updated_at: at })
        .where('partner_id', '=', partnerId)
        .where('id', '=', id)
        .execute(),

    /** A new wallet (operator set-up); undefined when the partner has one in that currency. */
    async insert(trx: Transaction<DB>, values: { partnerId: string; currency: string; country: string }) {
      const row = await trx
        .insertInto('fiat_wallets')
        .values({ partner_id: values.partnerId, currency: values.currency, country: values.country })
        .onConflict((oc) => oc.columns(['partner_id', 'currency']).doNothing())
        .returning('id')
        .executeTakeFirst();
      return row?.id;
    },
  };
}

export type FiatWalletsRepository = ReturnType<typeof createFiatWalletsRepository>;
