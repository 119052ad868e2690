import { sql, type Kysely } from 'kysely';

/**
 * The wallet filter from an index (issue 16). A row without a wallet belongs to the default USD wallet, so the search
 * compares `coalesce(fiat_wallet, 'USD')` and the indexes lead with that expression: one equality, in created_at
 * order. On payments and collections: the wallet alone (with a date range or a status riding in the index), and the
 * wallet with a country (a country outside the wallet's currency answers at once instead of scanning the wallet).
 * The other four tables get their filter columns and the wallet in their newest-first index, so that a capped count
 * with any of their filters is an index-only scan too.
 *
 * A plain CREATE INDEX holds off writes to the table while it builds (about 25 s a table at 5,000,000 rows on the
 * benchmark machine); on a large production table, build the two indexes first with CREATE INDEX CONCURRENTLY and the
 * same names and definitions: this migration then leaves them as they are.
 */
const TABLES = ['payments', 'collections'];
const OTHERS: Record<string, string> = {
  settlements: 'status, fiat_wallet',
  fees: 'payment_method, transaction_type, fiat_wallet',
  trades: 'country, crypto_currency, fiat_currency, fiat_wallet',
  initiated_payments: 'local_currency, status, fiat_wallet',
};

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const t of TABLES) {
    await sql
      .raw(
        `
      create index if not exists ${t}_wallet_idx on ${t} (partner_id, (coalesce(fiat_wallet, 'USD')), created_at desc, id desc)
        include (status, country, request_source, fiat_wallet);
      create index if not exists ${t}_wallet_country_idx on ${t} (partner_id, (coalesce(fiat_wallet, 'USD')), country, created_at desc, id desc)
        include (status, request_source, fiat_wallet);
    `,
      )
      .execute(db);
  }
  for (const [t, columns] of Object.entries(OTHERS)) {
    await sql
      .raw(
        `
      drop index ${t}_recent_idx;
      create index ${t}_recent_idx on ${t} (partner_id, created_at desc, id desc) include (${columns});
    `,
      )
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of TABLES) await sql.raw(`drop index ${t}_wallet_country_idx; drop index ${t}_wallet_idx;`).execute(db);
  for (const t of Object.keys(OTHERS)) {
    await sql.raw(`drop index ${t}_recent_idx; create index ${t}_recent_idx on ${t} (partner_id, created_at desc, id desc);`).execute(db);
  }
}
