import { sql, type Kysely } from 'kysely';

/**
 * What the Overview reads of a collection or payment besides the table's columns: the operator it went through (the
 * order's payment network), when it completed and why it failed. Rows mirrored from an order take them from the
 * order and its timeline; older rows have none (the Overview counts them, without an operator or a completion time).
 * The columns are added without a default: no table rewrite.
 */

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [table, kind] of [
    ['collections', 'collection'],
    ['payments', 'disbursement'],
  ] as const) {
    await sql
      .raw(
        `
      alter table ${table} add column operator text, add column completed_at timestamptz, add column failure_reason text;
      update ${table} t set operator = o.network_name, failure_reason = o.failure_reason,
        completed_at = (select e.at from payment_order_events e where e.partner_id = o.partner_id and e.order_id = o.id and e.status = 'complete')
      from payment_orders o where o.partner_id = t.partner_id and o.id = t.id and o.kind = '${kind}';
    `,
      )
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['collections', 'payments']) {
    await sql.raw(`alter table ${table} drop column operator, drop column completed_at, drop column failure_reason`).execute(db);
  }
}
