import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { accountBalance } from '../settlements/index.ts';

type Exec = Kysely<DB> | Transaction<DB>;

/** The fiat-wallets module's SQL: the stored wallets with the kept ledger balance of their currency. */
export function createFiatWalletsRepository(db: Kysely<DB>) {
  const withBalance = (exec: Exec, partnerId: string) =>
    exec
      .selectFrom('fiat_wallets as w')
      .leftJoin('currency_accounts as a', (j) => j.onRef('a.partner_id', '=', 'w.partner_id').onRef('a.currency', '=', 'w.currency'))
      .where('w.partner_id', '=', partnerId)
      .select((eb) => [
        'w.id',
        'w.currency',
        'w.country',
        'w.payment_enabled',
        'w.collection_enabled',
        eb.fn.coalesce('a.balance', eb.val('0')).$castTo<string>().as('balance'),
      ]);

  return {
    transaction: <T>(work: (trx: Transaction<DB>) => Promise<T>) => db.transaction().execute(work),

    /** Whether the partner has fiat wallets (undefined when there is no such partner). */
    fiatWalletsEnabled: async (partnerId: string) =>
      (await db.selectFrom('partners').select('fiat_wallets_enabled').where('id', '=', partnerId).executeTakeFirst())?.fiat_wallets_enabled,

    /** The partner's stored wallets, oldest first, each with its currency account's balance. */
    list: (partnerId: string) => withBalance(db, partnerId).orderBy('w.id').execute(),

    one: (exec: Exec, partnerId: string, id: number) => withBalance(exec, partnerId).where('w.id', '=', id).executeTakeFirst(),

    /** The available amount of one currency account: the ledger's balance as its account keeps it, or 0. */
    balance: (partnerId: string, currency: string) => accountBalance(db, partnerId, currency),

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

    /** A new wallet (operator set-up), its currency account opened when missing; undefined when the partner has one in that currency. */
    async insert(trx: Transaction<DB>, values: { partnerId: string; currency: string; country: string }) {
      await trx
        .insertInto('currency_accounts')
        .values({ partner_id: values.partnerId, currency: values.currency })
        .onConflict((oc) => oc.doNothing())
        .execute();
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
