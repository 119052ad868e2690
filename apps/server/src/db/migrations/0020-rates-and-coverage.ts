import { sql, type Kysely } from 'kysely';

/**
 * Platform rates, the partners' rates (enabled countries, with the pending change and who asked for it), and the
 * coverage reference data: channels and payment networks. Platform rates, channels and networks are global
 * reference tables (the same for every partner); partner_rates leads with partner_id like every partner table.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table platform_rates (
      id uuid primary key,
      locale text not null,
      code text not null,
      buy numeric(38,8) not null check (buy > 0),
      sell numeric(38,8) not null check (sell > 0),
      updated_at timestamptz not null default now(),
      unique (locale, code)
    );

    create table partner_rates (
      partner_id uuid not null references partners (id),
      id uuid not null,
      platform_rate_id uuid not null references platform_rates (id),
      status text not null check (status in ('enabled','disabled','pending_enable','pending_disable')),
      -- the admin who asked for the pending change: only another admin may approve it
      requested_by uuid,
      requested_at timestamptz,
      reviewed_by uuid,
      reviewed_at timestamptz,
      updated_at timestamptz not null default now(),
      primary key (partner_id, id),
      unique (partner_id, platform_rate_id),
      check ((status in ('pending_enable','pending_disable')) = (requested_by is not null and requested_at is not null))
    );

    create table channels (
      id uuid primary key,
      vendor_id text not null,
      ramp_type text not null check (ramp_type in ('deposit','withdraw')),
      channel_type text not null,
      country text not null,
      currency text not null,
      status text not null check (status in ('active','inactive')),
      commercial_status text not null check (commercial_status in ('active','inactive')),
      fee_usd numeric(38,8) not null check (fee_usd >= 0),
      fee_local numeric(38,8) not null check (fee_local >= 0),
      min numeric(38,8) not null check (min >= 0),
      max numeric(38,8) not null,
      success_threshold numeric(5,4) not null check (success_threshold between 0 and 1),
      estimated_settlement_time integer not null check (estimated_settlement_time >= 0),
      settlement_type text not null check (settlement_type in ('instant','manual')),
      widget_status text not null check (widget_status in ('active','inactive')),
      api_status text not null check (api_status in ('active','inactive')),
      widget_min numeric(38,8) not null,
      widget_max numeric(38,8) not null,
      updated_at timestamptz not null default now(),
      check (min <= max),
      check (widget_min <= widget_max)
    );
    create index channels_country_idx on channels (country, ramp_type);

    create table payment_networks (
      id uuid primary key,
      code text not null,
      name text not null,
      country text not null,
      status text not null check (status in ('active','inactive')),
      channel_ids uuid[] not null default '{}',
      account_number_type text not null check (account_number_type in ('phone','bank','app')),
      feature_flag_enabled boolean not null default false,
      temp_disabled_for text[] not null default '{}',
      updated_at timestamptz not null default now(),
      unique (country, code)
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table payment_networks, channels, partner_rates, platform_rates`.execute(db);
}
