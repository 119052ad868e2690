/* eslint-disable @typescript-eslint/no-explicit-any -- the migrator works on any schema */
import { inspect } from 'node:util';
import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import * as core from './migrations/0001-core.ts';
import * as auth from './migrations/0002-auth.ts';
import * as partnerSettings from './migrations/0003-partner-settings.ts';
import * as transactions from './migrations/0004-transactions.ts';
import * as reportJobs from './migrations/0005-report-jobs.ts';
import * as searchIndexes from './migrations/0006-search-indexes.ts';
import * as sessions from './migrations/0007-sessions.ts';
import * as depositAddressSources from './migrations/0008-deposit-address-sources.ts';
import * as reportQueue from './migrations/0009-report-queue.ts';
import * as keyCheck from './migrations/0010-key-check.ts';
import * as emailOtps from './migrations/0011-email-otps.ts';
import * as settlementWallets from './migrations/0012-settlement-wallets.ts';
import * as settlementRequests from './migrations/0013-settlement-requests.ts';
import * as fiatWallets from './migrations/0014-fiat-wallets.ts';
import * as team from './migrations/0015-team.ts';
import * as apiKeys from './migrations/0016-api-keys.ts';
import * as allowedIpAddresses from './migrations/0017-allowed-ip-addresses.ts';
import * as webhooks from './migrations/0018-webhooks.ts';
import * as ratesAndCoverage from './migrations/0020-rates-and-coverage.ts';
import * as referenceData from './migrations/0021-reference-data.ts';
import * as searchWalletIndexes from './migrations/0022-search-wallet-indexes.ts';
import * as paymentOrders from './migrations/0023-payment-orders.ts';
import * as tradeIdSearch from './migrations/0025-trade-id-search.ts';
import * as liveEvents from './migrations/0026-live-events.ts';
import * as sessionEndReason from './migrations/0027-session-end-reason.ts';
import * as timeZones from './migrations/0028-time-zones.ts';
import * as notifications from './migrations/0029-notifications.ts';
import * as otpPurpose from './migrations/0030-otp-purpose.ts';
import * as ledgerEntriesByTime from './migrations/0031-ledger-entries-by-time.ts';
import * as webhookSecretRoll from './migrations/0032-webhook-secret-roll.ts';
import * as passwordHistory from './migrations/0033-password-history.ts';
import * as invitations from './migrations/0034-invitations.ts';
import * as securityHistory from './migrations/0035-security-history.ts';
import * as passkeys from './migrations/0036-passkeys.ts';
import * as userLanguage from './migrations/0037-user-language.ts';
import * as notificationTexts from './migrations/0038-notification-texts.ts';
import * as keptBalances from './migrations/0039-kept-balances.ts';
import * as reconciliationRuns from './migrations/0040-reconciliation-runs.ts';
import * as transactionAnalytics from './migrations/0041-transaction-analytics.ts';
import * as startScreen from './migrations/0042-start-screen.ts';
import * as analyticsRollups from './migrations/0043-analytics-rollups.ts';
import * as testMode from './migrations/0044-test-mode.ts';

/** Migrations are imported statically, so that the set is fixed at build time and identical on every database. */
const MIGRATIONS: Migrations = {
  '0001-core': core,
  '0002-auth': auth,
  '0003-partner-settings': partnerSettings,
  '0004-transactions': transactions,
  '0005-report-jobs': reportJobs,
  '0006-search-indexes': searchIndexes,
  '0007-sessions': sessions,
  '0008-deposit-address-sources': depositAddressSources,
  '0009-report-queue': reportQueue,
  '0010-key-check': keyCheck,
  '0011-email-otps': emailOtps,
  '0012-settlement-wallets': settlementWallets,
  '0013-settlement-requests': settlementRequests,
  '0014-fiat-wallets': fiatWallets,
  '0015-team': team,
  '0016-api-keys': apiKeys,
  '0017-allowed-ip-addresses': allowedIpAddresses,
  '0018-webhooks': webhooks,
  '0020-rates-and-coverage': ratesAndCoverage,
  '0021-reference-data': referenceData,
  '0022-search-wallet-indexes': searchWalletIndexes,
  '0023-payment-orders': paymentOrders,
  '0025-trade-id-search': tradeIdSearch,
  '0026-live-events': liveEvents,
  '0027-session-end-reason': sessionEndReason,
  '0028-time-zones': timeZones,
  '0029-notifications': notifications,
  '0030-otp-purpose': otpPurpose,
  '0031-ledger-entries-by-time': ledgerEntriesByTime,
  '0032-webhook-secret-roll': webhookSecretRoll,
  '0033-password-history': passwordHistory,
  '0034-invitations': invitations,
  '0035-security-history': securityHistory,
  '0036-passkeys': passkeys,
  '0037-user-language': userLanguage,
  '0038-notification-texts': notificationTexts,
  '0039-kept-balances': keptBalances,
  '0040-reconciliation-runs': reconciliationRuns,
  '0041-transaction-analytics': transactionAnalytics,
  '0042-start-screen': startScreen,
  '0043-analytics-rollups': analyticsRollups,
  '0044-test-mode': testMode,
};

/**
 * Releases change the schema in two steps (expand, then contract), so that the release before a migration runs on the
 * schema after it: a rollback of the code needs no rollback of the schema. A migration that adds (a table, a nullable
 * or defaulted column, an index) is an expand step. One that removes or changes what the release before it reads (a
 * column dropped, renamed or made required) is a contract step, shipped at the earliest one release after the code
 * stopped reading it, and its name ends in `-contract`: a release that does not know it will not start on it.
 */
const CONTRACT_SUFFIX = '-contract';

/** How long a migration waits for a table's lock before it gives up and tries again (a long read holds it meanwhile). */
const MIGRATION_LOCK_TIMEOUT_MS = 2000;

type Migrations = Record<string, Migration>;

/** Numbers are handed out ahead of time to work done side by side: a migration that lands late is applied, not refused. */
export function migrator(db: Kysely<any>, migrations: Migrations = MIGRATIONS) {
  return new Migrator({ db, provider: { getMigrations: () => Promise.resolve(migrations) }, allowUnorderedMigrations: true });
}

/** What the database's schema is to this release: migrations it has not run yet, and migrations of a newer release. */
async function schemaState(db: Kysely<any>, migrations: Migrations = MIGRATIONS): Promise<{ pending: string[]; newer: string[]; blocking: string[] }> {
  const applied = new Set<string>();
  const table = await sql<{ found: string | null }>`select to_regclass('kysely_migration')::text as found`.execute(db);
  if (table.rows[0]?.found) {
    const rows = await db.selectFrom('kysely_migration').select('name').execute();
    for (const row of rows as { name: string }[]) applied.add(row.name);
  }
  const newer = [...applied].filter((name) => !(name in migrations)).sort();
  return {
    pending: Object.keys(migrations).filter((name) => !applied.has(name)),
    newer,
    blocking: newer.filter((name) => name.endsWith(CONTRACT_SUFFIX)),
  };
}

/** A schema this release cannot run on, or may not change. */
export class SchemaError extends Error {}

/** Refuses a schema that a newer release contracted; answers the newer release's expand steps it runs beside. */
function checkNotContracted(state: { blocking: string[] }) {
  if (state.blocking.length > 0)
    throw new SchemaError(
      `The database's schema is of a newer release that removed what this one reads (${state.blocking.join(', ')}): run that release or a newer one`,
    );
}

type MigrateOptions = { migrations?: Migrations; lockTimeoutMs?: number; attempts?: number; pauseMs?: number };

/**
 * Applies the pending migrations. Each waits at most MIGRATION_LOCK_TIMEOUT_MS for a table's lock, so that a change
 * queued behind a long read never holds every other statement on that table behind it; then it is tried again, up
 * to `attempts` times. Migrations of a newer release are left as they are (the expand steps this release runs
 * beside, answered as `newer`); a contracted schema is refused.
 */
export async function applyMigrations(
  db: Kysely<any>,
  { migrations = MIGRATIONS, lockTimeoutMs = MIGRATION_LOCK_TIMEOUT_MS, attempts = 15, pauseMs = 1000 }: MigrateOptions = {},
): Promise<{ migrated: string[]; newer: string[] }> {
  const state = await schemaState(db, migrations);
  checkNotContracted(state);
  const { newer } = state;
  if (state.pending.length === 0) return { migrated: [], newer };
  // a newer release's migrations are known to this run too (they are in the database already), so that the migrator
  // does not call them missing; they are not run again
  const known: Migrations = { ...migrations, ...Object.fromEntries(newer.map((name) => [name, { up: async () => {} }])) };
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await db.connection().execute(async (conn) => {
      await sql.raw(`set lock_timeout = ${Math.round(lockTimeoutMs)}`).execute(conn);
      try {
        return await migrator(conn, known).migrateToLatest();
      } finally {
        await sql`reset lock_timeout`.execute(conn);
      }
    });
    if (!error) return { migrated: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName), newer };
    // lock_not_available: a long statement held the table; what ran before it stays applied
    if ((error as { code?: unknown }).code !== '55P03' || attempt >= attempts) {
      throw error instanceof Error ? error : new Error(typeof error === 'string' ? error : inspect(error));
    }
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
}

/** The migrations applied now (applyMigrations). */
export const migrateToLatest = async (db: Kysely<any>, options: MigrateOptions = {}): Promise<string[]> => (await applyMigrations(db, options)).migrated;

/**
 * What an instance that does not migrate checks at start: nothing of its own is pending, and no newer release has
 * contracted the schema. Answers the newer release's migrations it runs beside.
 */
export async function checkSchema(db: Kysely<any>, migrations: Migrations = MIGRATIONS): Promise<string[]> {
  const state = await schemaState(db, migrations);
  checkNotContracted(state);
  if (state.pending.length > 0)
    throw new SchemaError(
      `The database needs migrations this release brings (${state.pending.join(', ')}): run \`cli migrate\` as the role that owns the schema first (docs/deployment.md)`,
    );
  return state.newer;
}

export async function migrationStatus(db: Kysely<any>): Promise<{ applied: number; pending: number }> {
  const { pending } = await schemaState(db);
  return { applied: MIGRATION_COUNT - pending.length, pending: pending.length };
}

export const MIGRATION_COUNT = Object.keys(MIGRATIONS).length;

/** This release's migrations, by name. */
export const RELEASE_MIGRATIONS: Readonly<Migrations> = MIGRATIONS;
