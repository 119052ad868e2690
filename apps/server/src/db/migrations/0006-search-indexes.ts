import { sql, type Kysely } from 'kysely';

/**
 * Covering indexes for the search's capped count: the filter columns ride in the index, so counting up to 10,001
 * matches is an index-only scan. Country gets its own ordered index, for country filters without a status.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const t of ['payments', 'collections']) {
    await sql
      .raw(
        `
      drop index ${t}_recent_idx;
      create index ${t}_recent_idx on ${t} (partner_id, created_at desc, id desc) include (status, country, fiat_wallet, request_source);
      drop index ${t}_status_idx;
      create index ${t}_status_idx on ${t} (partner_id, status, created_at desc, id desc) include (country, fiat_wallet, request_source);
      create index ${t}_country_idx on ${t} (partner_id, country, created_at desc, id desc) include (status, fiat_wallet, request_source);
    `,
      )
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['payments', 'collections']) {
    await sql
      .raw(
        `
      drop index ${t}_country_idx;
      drop index ${t}_status_idx;
      create index ${t}_status_idx on ${t} (partner_id, status, created_at desc, id desc);
      drop index ${t}_recent_idx;
      create index ${t}_recent_idx on ${t} (partner_id, created_at desc, id desc);
    `,
      )
      .execute(db);
  }
}
