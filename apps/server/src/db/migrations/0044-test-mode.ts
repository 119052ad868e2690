import { sql, type Kysely } from 'kysely';

/**
 * Test mode (Stripe's): each partner may have one test partner, its twin (`live_partner_id` names the partner it is
 * the test side of). The twin holds the partner's test data in the same tables as any partner's (balances, ledger,
 * transactions, deposit addresses, API keys made for test), so that every wall between partners is also the wall
 * between a partner's live and test data. It is made when first needed (modules/partners/test-partners.ts), with a
 * copy of the partner's currency accounts (at zero), local wallets and countries; this trigger keeps its name, kind
 * and feature flags those of its live partner. Its abbreviation is the live one's with `.test` (abbreviations are
 * letters and digits: it never meets another partner's).
 *
 * Key ids name their mode (ak_live_..., ak_test_...); those made before (ak_ and 32 hex digits) stay valid and live.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table partners add column live_partner_id uuid references partners (id)
      constraint partners_live_partner_not_self check (live_partner_id <> id);
    create unique index partners_live_partner_key on partners (live_partner_id);

    create function partners_keep_test_twin() returns trigger language plpgsql as $$
    begin
      update partners
         set name = new.name, abbreviation = new.abbreviation || '.test', product_types = new.product_types,
             whitelisted = new.whitelisted, fiat_wallets_enabled = new.fiat_wallets_enabled,
             feature_flags = new.feature_flags, updated_at = new.updated_at
       where live_partner_id = new.id;
      return null;
    end $$;
    create trigger partners_keep_test_twin
      after update of name, abbreviation, product_types, whitelisted, fiat_wallets_enabled, feature_flags on partners
      for each row when (new.live_partner_id is null) execute function partners_keep_test_twin();

    alter table api_keys drop constraint api_keys_api_key_check;
    alter table api_keys add constraint api_keys_api_key_check check (api_key ~ '^ak_((live|test)_)?[0-9a-f]{32}$');
  `.execute(db);
}

/** Refused while any test partner exists: dropping the column would turn each into a live partner of its own. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    do $$ begin
      if exists (select 1 from partners where live_partner_id is not null) then
        raise exception 'test partners exist: delete their data before taking test mode away';
      end if;
    end $$;
    drop trigger partners_keep_test_twin on partners;
    drop function partners_keep_test_twin();
    drop index partners_live_partner_key;
    alter table partners drop column live_partner_id;
  `.execute(db);
}
