import { sql, type Kysely } from 'kysely';

/**
 * Balances in constant time. Each currency account keeps its balance (the sum of its ledger entries) and what is
 * reserved but not finished: the debits of withdrawals still pending or processing, and the debits (amount and fee) of
 * disbursements not yet final. The database keeps them, in the transaction of each change, so that no path can forget:
 * - an entry added (or removed: the demo's opening balance set again, a demo reset) moves its account's balance, and
 *   its reservation when the withdrawal or disbursement it belongs to is under way (one statement-level trigger: a
 *   million entries of the seed are one update per account);
 * - a withdrawal or disbursement that leaves (or enters) its unfinished states moves its reservation.
 * The update takes the account's row lock until commit, as a withdrawal's `select ... for update` does: changes of one
 * account's money are serialised. Entries are only ever added: an update is refused. The sum of entries stays the check
 * (`reconcileAccounts`), run by the tests and daily.
 */
const UNDER_WAY_WITHDRAWAL = sql.raw(`('pending', 'processing')`);
const FINAL_DISBURSEMENT = sql.raw(
  `('complete', 'expired', 'failed', 'denied', 'refunded', 'cancelled', 'refund_failed', 'pending_refund', 'refund_processing')`,
);

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table currency_accounts
      add column balance numeric(38, 8) not null default 0,
      add column pending_withdrawals numeric(38, 8) not null default 0,
      add column pending_disbursements numeric(38, 8) not null default 0`.execute(db);

  // a ledger reference that names a row by its uuid (a withdrawal's, an order's), else null (no cast error)
  await sql`
    create function ledger_reference_uuid(reference text) returns uuid language sql immutable as $$
      select case when reference ~ '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' then reference::uuid end
    $$`.execute(db);

  // what a set of entries moves, per account: their sum, and the part that reserves for something under way
  const moves = (entries: string) => sql`
    select e.partner_id, e.currency, sum(e.amount) as total,
      coalesce(-sum(e.amount) filter (where e.kind = 'settlement' and s.status in ${UNDER_WAY_WITHDRAWAL}), 0) as withdrawals,
      coalesce(-sum(e.amount) filter (where e.kind in ('disbursement', 'disbursement_fee') and o.kind = 'disbursement'
        and o.status not in ${FINAL_DISBURSEMENT}), 0) as disbursements
    from ${sql.raw(entries)} e
    left join settlements s on e.kind = 'settlement' and s.partner_id = e.partner_id and s.id = ledger_reference_uuid(e.reference)
    left join payment_orders o on e.kind in ('disbursement', 'disbursement_fee') and o.partner_id = e.partner_id
      and o.id = ledger_reference_uuid(e.reference)
    group by e.partner_id, e.currency`;
  await sql`
    create function ledger_entries_keep_accounts() returns trigger language plpgsql as $$
    declare
      direction numeric := case when tg_op = 'INSERT' then 1 else -1 end;
    begin
      update currency_accounts a set
        balance = a.balance + direction * m.total,
        pending_withdrawals = a.pending_withdrawals + direction * m.withdrawals,
        pending_disbursements = a.pending_disbursements + direction * m.disbursements
      from (${moves('changed')}) m
      where a.partner_id = m.partner_id and a.currency = m.currency;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger ledger_entries_added after insert on ledger_entries referencing new table as changed
    for each statement execute function ledger_entries_keep_accounts()`.execute(db);
  await sql`
    create trigger ledger_entries_removed after delete on ledger_entries referencing old table as changed
    for each statement execute function ledger_entries_keep_accounts()`.execute(db);
  await sql`
    create function ledger_entries_refuse_update() returns trigger language plpgsql as $$
    begin
      raise exception 'ledger entries are only ever added: book a new entry instead of changing one';
    end $$`.execute(db);
  await sql`
    create trigger ledger_entries_append_only before update on ledger_entries
    for each row execute function ledger_entries_refuse_update()`.execute(db);

  // a withdrawal that leaves (or enters) pending/processing moves its debit out of (into) the reservation
  await sql`
    create function settlements_keep_reservation() returns trigger language plpgsql as $$
    declare
      was boolean := old.status in ${UNDER_WAY_WITHDRAWAL};
      is_now boolean := new.status in ${UNDER_WAY_WITHDRAWAL};
    begin
      if was = is_now then return null; end if;
      update currency_accounts a set pending_withdrawals = a.pending_withdrawals + case when is_now then -e.amount else e.amount end
      from ledger_entries e
      where e.partner_id = new.partner_id and e.kind = 'settlement' and e.reference = new.id::text
        and a.partner_id = e.partner_id and a.currency = e.currency;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger settlements_keep_reservation after update of status on settlements
    for each row execute function settlements_keep_reservation()`.execute(db);

  // a disbursement that becomes final (or not) moves its amount and fee debits out of (into) the reservation
  await sql`
    create function payment_orders_keep_reservation() returns trigger language plpgsql as $$
    declare
      was boolean := old.kind = 'disbursement' and old.status not in ${FINAL_DISBURSEMENT};
      is_now boolean := new.kind = 'disbursement' and new.status not in ${FINAL_DISBURSEMENT};
    begin
      if was = is_now then return null; end if;
      update currency_accounts a set pending_disbursements = a.pending_disbursements + case when is_now then -m.amount else m.amount end
      from (
        select e.partner_id, e.currency, sum(e.amount) as amount from ledger_entries e
        where e.partner_id = new.partner_id and e.kind in ('disbursement', 'disbursement_fee') and e.reference = new.id::text
        group by e.partner_id, e.currency
      ) m
      where a.partner_id = m.partner_id and a.currency = m.currency;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger payment_orders_keep_reservation after update of status on payment_orders
    for each row execute function payment_orders_keep_reservation()`.execute(db);

  // what is there today, once
  await sql`
    update currency_accounts a set balance = m.total, pending_withdrawals = m.withdrawals, pending_disbursements = m.disbursements
    from (${moves('ledger_entries')}) m
    where a.partner_id = m.partner_id and a.currency = m.currency`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger payment_orders_keep_reservation on payment_orders`.execute(db);
  await sql`drop trigger settlements_keep_reservation on settlements`.execute(db);
  await sql`drop trigger ledger_entries_append_only on ledger_entries`.execute(db);
  await sql`drop trigger ledger_entries_removed on ledger_entries`.execute(db);
  await sql`drop trigger ledger_entries_added on ledger_entries`.execute(db);
  await sql`
    drop function payment_orders_keep_reservation, settlements_keep_reservation, ledger_entries_refuse_update,
      ledger_entries_keep_accounts, ledger_reference_uuid`.execute(db);
  await sql`alter table currency_accounts drop column balance, drop column pending_withdrawals, drop column pending_disbursements`.execute(db);
}
