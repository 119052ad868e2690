/* eslint-disable @typescript-eslint/no-explicit-any -- the migrator works on any schema */
import { inspect } from 'node:util';
import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
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

/** Migrations are imported statically, so that the set is fixed at build time and identical on every database. */
const MIGRATIONS: Record<string, Migration> = {
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
};

class StaticProvider implements MigrationProvider {
  getMigrations() {
    return Promise.resolve(MIGRATIONS);
  }
}

/**
 * Numbers are handed out ahead of time to work done side by side, so a migration may land after one with a higher
 * number has run somewhere: it is applied then rather than refused.
 */
export function migrator(db: Kysely<any>) {
  return new Migrator({ db, provider: new StaticProvider(), allowUnorderedMigrations: true });
}

export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const { error, results } = await migrator(db).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(typeof error === 'string' ? error : inspect(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

export async function migrationStatus(db: Kysely<any>): Promise<{ applied: number; pending: number }> {
  const all = await migrator(db).getMigrations();
  const applied = all.filter((m) => m.executedAt !== undefined).length;
  return { applied, pending: all.length - applied };
}

export const MIGRATION_COUNT = Object.keys(MIGRATIONS).length;
