import fs from 'node:fs';
import path from 'node:path';
import { sql, type Kysely, type Transaction } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import type { DB } from '../src/db/schema.ts';
import { MIGRATION_COUNT, migrateToLatest } from '../src/db/migrate.ts';
import { createBoss } from '../src/jobs/boss.ts';
import { DATABASES, freshDatabase } from './harness.ts';

/**
 * Co-location (docs/scale.md). Under Citus the partner-owned tables (those with a `partner_id` column) are distributed
 * by `partner_id`, and Citus accepts only keys that it can check on one shard:
 * - a partner-owned table has a primary key, and `partner_id` is one of its plain key columns;
 * - every other unique index, unique constraint or exclusion constraint of it has `partner_id` among its key columns
 *   (a column only INCLUDEd, or inside an expression, does not count);
 * - a foreign key between two partner-owned tables pairs `partner_id` with `partner_id`;
 * - a table without `partner_id` (a reference or coordinator-local table) has no foreign key to a partner-owned table.
 *
 * The migrations are read by running them on a fresh database and reading the catalog (pg_class, pg_index,
 * pg_constraint), so that raw SQL, the schema builder and later ALTERs all count as PostgreSQL sees them. pg-boss's
 * own schema is not ours and is left out.
 */

/** pg-boss's schema (jobs/boss.ts): its tables stay local to the coordinator, whatever their columns. */
const BOSS_SCHEMA = 'pgboss';

/**
 * Violations that are known and accepted for now, by table and key name. Each must still exist and still be a
 * violation (the test fails otherwise), so the list cannot outlive what it excuses. Migration numbers are proposals
 * (the next free numbers after 0026); docs/scale.md has the full plan.
 */
const ALLOWED: { table: string; key: string; reason: string }[] = [
  // ── global by design: the column records which partner a row went to; the table is not partner data ──
  {
    table: 'wallet_address_owners',
    key: 'wallet_address_owners_pkey',
    reason: 'global by design: an address belongs to one partner across all partners; a reference table under Citus',
  },
  {
    table: 'deposit_address_pool',
    key: 'deposit_address_pool_pkey',
    reason: "global by design: the operator's stock of imported addresses, partner_id null until one is given out; a coordinator-local table under Citus",
  },
  {
    table: 'deposit_address_pool',
    key: 'deposit_address_pool_address_key',
    reason: 'global by design: an imported address is in the pool once, whoever it was given to',
  },
  // ── ids unique on their own although every query names the partner: nothing relies on it ──
  {
    table: 'users',
    key: 'users_id_key',
    reason: 'to fix in migration 0027: drop the index; no foreign key or query uses id without partner_id',
  },
  {
    table: 'auth_sessions',
    key: 'auth_sessions_id_key',
    reason: 'to fix in migration 0027: drop the index; sessions are always read with the partner of the token (pid, sid)',
  },
  {
    table: 'api_keys',
    key: 'api_keys_public_key_key',
    reason: 'to fix in migration 0027: replace with (partner_id, public_key); the server never looks a key up by it',
  },
  // ── looked up before the partner is known: the token must carry the partner first ──
  {
    table: 'refresh_tokens',
    key: 'refresh_tokens_id_key',
    reason: 'to fix in migration 0028: drop the index once refresh tokens name their partner and every token of the old form has expired',
  },
  {
    table: 'passkey_ceremonies',
    key: 'passkey_ceremonies_pkey',
    reason:
      'to fix with the passkey directory: a sign-in ceremony has no partner until its passkey answers; keep sign-in ceremonies coordinator-local (or name the partner in the ceremony of an add)',
  },
  {
    table: 'auth_challenges',
    key: 'auth_challenges_session_hash_key',
    reason: 'to fix in migration 0028: unique (partner_id, session_hash) once the challenge session names its partner',
  },
  // ── uniqueness across partners that must move to a directory table ──
  {
    table: 'users',
    key: 'users_email_key',
    reason: 'to fix in migration 0029: an e-mail belongs to one user across all partners; move the rule and the sign-in lookup to a user_emails directory',
  },
  {
    table: 'passkeys',
    key: 'passkeys_credential_id_key',
    reason: 'to fix with a passkey_credentials directory: a passkey sign-in finds its passkey (and so its partner) by the credential id',
  },
  {
    table: 'api_keys',
    key: 'api_keys_api_key_key',
    reason: 'to fix in migration 0029: a signed call finds its key before its partner; move the lookup to an api_key_directory',
  },
  {
    table: 'deposit_addresses',
    key: 'deposit_addresses_address_key',
    reason: 'to fix in migration 0029: an address is credited to one partner only; move the rule to a deposit_address_owners directory',
  },
  {
    table: 'deposit_addresses',
    key: 'deposit_addresses_derivation_key',
    reason:
      'to fix in migration 0029: an operator key index is handed out once; move the check to the directory (the counter already hands each index out once)',
  },
];

/** Fewer partner-owned tables than this means the inspection is not seeing the schema (34 before 0026 added live_events). */
const MIN_PARTNER_TABLES = 34;

type Rule = 'primary key' | 'unique key' | 'foreign key' | 'foreign key from a global table';
type Violation = { table: string; key: string; rule: Rule; definition: string };
type Inspection = { partnerTables: string[]; otherTables: string[]; violations: Violation[] };

const qualified = (schema: string, name: string) => (schema === 'public' ? name : `${schema}.${name}`);

/** Reads the tables, keys and foreign keys of every schema but the system ones and pg-boss's, and applies the rules. */
async function inspect(db: Kysely<DB> | Transaction<DB>): Promise<Inspection> {
  const tables = await sql<{ oid: string; schema: string; name: string; partner_owned: boolean }>`
    select c.oid::text as oid, n.nspname as schema, c.relname as name,
           exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'partner_id' and a.attnum > 0 and not a.attisdropped) as partner_owned
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where c.relkind in ('r', 'p') and not c.relispartition
       and n.nspname not in ('pg_catalog', 'information_schema', ${BOSS_SCHEMA})
       and n.nspname not like 'pg\\_toast%' and n.nspname not like 'pg\\_temp%'`.execute(db);
  const byOid = new Map(tables.rows.map((t) => [t.oid, { ...t, label: qualified(t.schema, t.name) }]));

  // every unique or exclusion index, with whether partner_id is one of its key columns (not INCLUDE, not an expression)
  const keys = await sql<{ table_oid: string; name: string; is_primary: boolean; definition: string; has_partner_id: boolean }>`
    select i.indrelid::text as table_oid, ic.relname as name, i.indisprimary as is_primary,
           coalesce(pg_get_constraintdef(con.oid), pg_get_indexdef(i.indexrelid)) as definition,
           exists (
             select 1 from unnest(i.indkey::int2[]) with ordinality k(attnum, ord)
               join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
              where k.ord <= i.indnkeyatts and a.attname = 'partner_id'
           ) as has_partner_id
      from pg_index i
      join pg_class ic on ic.oid = i.indexrelid
      left join pg_constraint con on con.conindid = i.indexrelid and con.conrelid = i.indrelid and con.contype in ('p', 'u', 'x')
     where i.indisunique or i.indisexclusion`.execute(db);

  // every foreign key, with whether it pairs partner_id of one side with partner_id of the other
  const fks = await sql<{ table_oid: string; ref_oid: string; name: string; definition: string; pairs_partner_id: boolean }>`
    select con.conrelid::text as table_oid, con.confrelid::text as ref_oid, con.conname as name, pg_get_constraintdef(con.oid) as definition,
           exists (
             select 1 from unnest(con.conkey, con.confkey) k(src, dst)
               join pg_attribute sa on sa.attrelid = con.conrelid and sa.attnum = k.src
               join pg_attribute da on da.attrelid = con.confrelid and da.attnum = k.dst
              where sa.attname = 'partner_id' and da.attname = 'partner_id'
           ) as pairs_partner_id
      from pg_constraint con
     where con.contype = 'f'`.execute(db);

  const violations: Violation[] = [];
  const partnerOwned = [...byOid.values()].filter((t) => t.partner_owned);
  for (const t of partnerOwned) {
    const own = keys.rows.filter((k) => k.table_oid === t.oid);
    if (!own.some((k) => k.is_primary)) violations.push({ table: t.label, key: '(none)', rule: 'primary key', definition: 'no primary key' });
    for (const k of own) {
      if (!k.has_partner_id) violations.push({ table: t.label, key: k.name, rule: k.is_primary ? 'primary key' : 'unique key', definition: k.definition });
    }
  }
  for (const fk of fks.rows) {
    const from = byOid.get(fk.table_oid);
    const to = byOid.get(fk.ref_oid);
    if (!from || !to || !to.partner_owned) continue; // a key to a global table (partners, platform_rates) is a key to a reference table
    if (!from.partner_owned) violations.push({ table: from.label, key: fk.name, rule: 'foreign key from a global table', definition: fk.definition });
    else if (!fk.pairs_partner_id) violations.push({ table: from.label, key: fk.name, rule: 'foreign key', definition: fk.definition });
  }
  return {
    partnerTables: partnerOwned.map((t) => t.label).sort(),
    otherTables: [...byOid.values()]
      .filter((t) => !t.partner_owned)
      .map((t) => t.label)
      .sort(),
    violations: violations.sort((a, b) => `${a.table} ${a.key}`.localeCompare(`${b.table} ${b.key}`)),
  };
}

const line = (v: Violation) =>
  v.key === '(none)' ? `${v.table}: has no primary key` : `${v.table}: ${v.rule} ${v.key} does not hold partner_id as the rule asks — ${v.definition}`;
const isAllowed = (v: Violation) => ALLOWED.some((a) => a.table === v.table && a.key === v.key);

/** Thrown to roll back the self-check's transaction, carrying what it read. */
class Rollback extends Error {
  constructor(readonly inspection: Inspection) {
    super('rollback');
  }
}

describe.each(DATABASES)('co-location of partner-owned tables on %s', (kind) => {
  let database: Database;
  let applied: string[];
  let found: Inspection;

  beforeAll(async () => {
    database = await freshDatabase(kind);
    applied = await migrateToLatest(database.db);
    // pg-boss creates its schema on start, as in production: the inspection must leave it out
    const boss = createBoss(database);
    await boss.start();
    await boss.stop({ graceful: false, wait: true });
    found = await inspect(database.db);
  });
  afterAll(async () => {
    await database?.close();
  });

  it('ran every migration file there is', () => {
    const dir = path.resolve(import.meta.dirname, '../src/db/migrations');
    const files = fs
      .readdirSync(dir)
      .filter((f) => /^\d{4}-.*\.ts$/.test(f))
      .map((f) => f.replace(/\.ts$/, ''));
    expect(applied.sort()).toEqual(files.sort());
    expect(applied).toHaveLength(MIGRATION_COUNT);
  });

  it('sees the partner-owned tables, the global ones, and not pg-boss', async () => {
    expect(found.partnerTables.length).toBeGreaterThanOrEqual(MIN_PARTNER_TABLES);
    expect(found.partnerTables).toEqual(expect.arrayContaining(['users', 'ledger_entries', 'payments', 'payment_orders', 'webhook_attempts']));
    expect(found.otherTables).toEqual(
      expect.arrayContaining(['partners', 'platform_rates', 'channels', 'payment_networks', 'mail_outbox', 'rate_limit_counters']),
    );
    const boss = await sql<{
      n: number;
    }>`select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = ${BOSS_SCHEMA} and c.relkind in ('r', 'p')`.execute(
      database.db,
    );
    expect(boss.rows[0]!.n).toBeGreaterThan(0);
    expect([...found.partnerTables, ...found.otherTables].filter((t) => t.startsWith(`${BOSS_SCHEMA}.`))).toEqual([]);
  });

  it('finds no violation outside the allow-list', () => {
    expect(found.violations.filter((v) => !isAllowed(v)).map(line)).toEqual([]);
  });

  it('allows nothing that is no longer there or no longer a violation', () => {
    const stale = ALLOWED.filter((a) => !found.violations.some((v) => v.table === a.table && v.key === a.key));
    expect(stale.map((a) => `${a.table}: ${a.key} (${a.reason})`)).toEqual([]);
    expect(new Set(ALLOWED.map((a) => `${a.table} ${a.key}`)).size).toBe(ALLOWED.length);
  });

  it('catches deliberately bad tables and passes good ones (self-check, rolled back)', async () => {
    let probed: Inspection | undefined;
    try {
      await database.db.transaction().execute(async (trx) => {
        await sql`
          create table colocation_probe_parent (
            partner_id uuid not null, id uuid not null,
            primary key (partner_id, id)
          );
          create unique index colocation_probe_parent_id_key on colocation_probe_parent (id);
          create table colocation_probe_child (
            partner_id uuid not null,
            id uuid not null constraint colocation_probe_child_pkey primary key,
            parent_id uuid not null,
            email text not null,
            constraint colocation_probe_child_email_key unique (email) include (partner_id),
            constraint colocation_probe_child_parent_fkey foreign key (parent_id) references colocation_probe_parent (id),
            constraint colocation_probe_child_crossed_fkey foreign key (parent_id, partner_id) references colocation_probe_parent (partner_id, id)
          );
          create unique index colocation_probe_child_lower_email on colocation_probe_child (lower(email)) where email <> '';
          create table colocation_probe_nokey (partner_id uuid not null, note text);
          create table colocation_probe_global (
            id uuid primary key, owner uuid, parent_id uuid,
            constraint colocation_probe_global_fkey foreign key (owner, parent_id) references colocation_probe_parent (partner_id, id)
          );
          create table colocation_probe_good (
            partner_id uuid not null, id uuid not null, parent_id uuid, code text,
            primary key (partner_id, id),
            unique (partner_id, code),
            foreign key (partner_id, parent_id) references colocation_probe_parent (partner_id, id)
          );
          create unique index colocation_probe_good_live_key on colocation_probe_good (lower(code), partner_id) where code is not null;
          create table ${sql.table(`${BOSS_SCHEMA}.colocation_probe_ignored`)} (partner_id uuid, id uuid primary key);
        `.execute(trx);
        throw new Rollback(await inspect(trx));
      });
    } catch (err) {
      if (!(err instanceof Rollback)) throw err;
      probed = err.inspection;
    }
    expect(probed).toBeDefined();
    const before = new Set(found.violations.map(line));
    const added = probed!.violations.filter((v) => !before.has(line(v))).map((v) => `${v.table} ${v.rule} ${v.key}`);
    expect(added.sort()).toEqual(
      [
        'colocation_probe_parent unique key colocation_probe_parent_id_key',
        'colocation_probe_child primary key colocation_probe_child_pkey',
        'colocation_probe_child unique key colocation_probe_child_email_key',
        'colocation_probe_child unique key colocation_probe_child_lower_email',
        'colocation_probe_child foreign key colocation_probe_child_parent_fkey',
        'colocation_probe_child foreign key colocation_probe_child_crossed_fkey',
        'colocation_probe_nokey primary key (none)',
        'colocation_probe_global foreign key from a global table colocation_probe_global_fkey',
      ].sort(),
    );
    expect(probed!.partnerTables.length).toBe(found.partnerTables.length + 4);
    expect(probed!.otherTables).toContain('colocation_probe_global');
    // rolled back: the database is as the migrations left it
    expect(await inspect(database.db)).toEqual(found);
  });
});
