import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { createRateLimitRepository } from './db/rate-limit.repository.ts';
import { invalidateEverywhere, type CacheBus } from './lib/cache-bus.ts';
import type { FileStorage } from './lib/file-storage.ts';
import type { Keys } from './lib/keys.ts';
import type { LiveBus, LivePublisher } from './lib/live-bus.ts';
import { undeliveredMails } from './lib/mail-outbox.repository.ts';
import type { Mailer } from './lib/mailer.ts';
import type { MailQueue } from './lib/mail-relay.ts';
import { startCleanupJob } from './jobs/cleanup.ts';
import { oldestDueJobs } from './jobs/job-queue.repository.ts';
import { startReconcileJob } from './jobs/reconcile.ts';
import { ALLOWED_IPS_CACHE, API_KEY_CACHE, createAllowedIpsService, createApiKeysService, type ApiKeyCallReads } from './modules/api-keys/index.ts';
import { createPasswordResetService, createSessionsService, createSignInService, type SessionReads } from './modules/auth/index.ts';
import { createCoverageService } from './modules/coverage/index.ts';
import { createFiatWalletsService } from './modules/fiat-wallets/index.ts';
import { createOtpService, type OtpChecks } from './modules/otp/index.ts';
import {
  PARTNER_CACHE,
  createOperatorService,
  createDepositAddressService,
  createPartnerAccess,
  createTestPartners,
  createPartnerCache,
  createPartnerService,
  createPartnerSettingsService,
} from './modules/partners/index.ts';
import { createPaymentService, enqueuePaymentStep, startDemoLive, startPaymentWorker } from './modules/payments/index.ts';
import { createRatesService } from './modules/rates/index.ts';
import { createStartService } from './modules/start/index.ts';
import { createReportsService, startReportWorker } from './modules/reports/index.ts';
import { createWithdrawalService, enqueueWithdrawalStep, simulatedPayer, startWithdrawalWorker } from './modules/withdrawals/index.ts';
import { createNotificationsService, createNotifier } from './modules/notifications/index.ts';
import { createBalanceService, createLedger } from './modules/ledger/index.ts';
import { createSecurityService } from './modules/security/index.ts';
import { createPasskeysService } from './modules/passkeys/index.ts';
import { createInvitationService, createTeamService } from './modules/team/index.ts';
import { createTransactionsService } from './modules/transactions/index.ts';
import { createAnalyticsService } from './modules/analytics/index.ts';
import { blocklistScreener, createWalletDirectory, createWalletService, enqueueScreening, startWalletScreeningWorker } from './modules/wallets/index.ts';
import { createWebhooksService, startWebhookDelivery } from './modules/webhooks/index.ts';
// the ports the services are handed (their repositories) are built here, and only here: no module's face offers them
import { createAllowedIpsRepository, createApiKeysRepository } from './modules/api-keys/api-keys.repository.ts';
import { createPasswordResetRepository } from './modules/auth/password-reset.repository.ts';
import { createSessionsRepository } from './modules/auth/sessions.repository.ts';
import { createSignInRepository } from './modules/auth/sign-in.repository.ts';
import { createFiatWalletsRepository } from './modules/fiat-wallets/fiat-wallets.repository.ts';
import { createOtpRepository } from './modules/otp/otp.repository.ts';
import { createPasskeysRepository } from './modules/passkeys/passkeys.repository.ts';
import { createSecurityRepository } from './modules/security/security.repository.ts';
import { createTeamRepository } from './modules/team/team.repository.ts';
import { findPartner, findPartnerByAbbreviation } from './modules/partners/partners.repository.ts';
import { endpointHealth } from './modules/webhooks/webhooks.repository.ts';

/**
 * The composition root: every service is built here, once, from what the process runs on, and handed to the routes
 * (app.ts) and the workers (server.ts). A service asks for narrow ports (`Pick<OtpService, 'authorise'>`,
 * `PartnerAccess`); nothing else builds one, so this file is the one place where the modules are wired together.
 */
export type RuntimeDeps = {
  config: Config;
  database: Database;
  keys: Keys;
  mailer: Mailer;
  storage: FileStorage;
  cacheBus: CacheBus;
  liveBus: LiveBus;
  /** mails written in a change's transaction, sent once it commits (notifications) */
  mailQueue: MailQueue;
  clock: () => number;
  log: FastifyBaseLogger;
  /**
   * The job queue (payments, withdrawals, wallet screening, reports and webhooks need one). `null` is the explicit
   * choice of an app without background work (tests): what needs the queue then fails when it is used.
   */
  boss: PgBoss | null;
};

/** A dependency the composition root was not given: the server does not start. */
export class WiringError extends Error {
  override name = 'WiringError';
}

/** What each runtime dependency is for, named in the message when one is missing. */
const NEEDED_BY: Record<keyof RuntimeDeps, string> = {
  config: 'every service',
  database: 'every service',
  keys: 'sign-in, sessions, API keys, webhooks',
  mailer: 'one-time codes, invitations, password resets',
  storage: 'reports',
  cacheBus: 'sessions, the partner cache, API keys',
  liveBus: "the portal's live screens",
  mailQueue: 'notifications',
  clock: 'every service',
  log: 'workers',
  boss: 'payments, withdrawals, wallet screening, reports (pass null for an app without background work)',
};

/** Checks that every dependency is there before anything is built: a wiring mistake stops the start, with its name. */
export function checkWiring(deps: Partial<RuntimeDeps>): asserts deps is RuntimeDeps {
  const missing = (Object.keys(NEEDED_BY) as (keyof RuntimeDeps)[]).filter((name) => deps[name] === undefined);
  if (missing.length > 0) {
    throw new WiringError(`The server is not wired: ${missing.map((name) => `${name} is missing (needed by ${NEEDED_BY[name]})`).join('; ')}.`);
  }
}

/** Every service, built once. */
export function composeServices(deps: RuntimeDeps) {
  checkWiring(deps);
  const { config, database, keys, mailer, storage, cacheBus, liveBus: live, mailQueue, clock: now, boss } = deps;
  const db = database.db;
  const { publicUrl } = config;
  /** The queue, for work queued on use; an app built without one (null) refuses that work when it is asked for. */
  const queue = (work: string) => {
    if (!boss) throw new Error(`no job queue: ${work} (this app was built without one)`);
    return boss;
  };

  const partnerAccess = createPartnerAccess(db);
  // the partner's money: every module that reads a balance or books an entry is handed this port
  const ledger = createLedger(db);
  const testPartners = createTestPartners(db, ledger);
  // the partner's settlement wallets, as withdrawals read them
  const walletDirectory = createWalletDirectory(db);
  // tells the people a change concerns, in the change's transaction (every module that changes something tells through it)
  const notifier = createNotifier({ live, mail: mailQueue, publicUrl, ledger });
  const partnerCache = createPartnerCache(db);
  cacheBus.attach(PARTNER_CACHE, partnerCache.entries);
  // each change's check before a code is sent for it: filled in once the services that own the changes are built
  let checks: OtpChecks = {};
  const otp = createOtpService({ repo: createOtpRepository(db), rateLimits: createRateLimitRepository(db), mailer, now, checks: () => checks });
  const authorise = otp.authorise.bind(otp);

  const sessionsRepo = createSessionsRepository(db);
  const apiKeysRepo = createApiKeysRepository(db);
  const allowedIpsRepo = createAllowedIpsRepository(db);
  const sessions = createSessionsService({
    repo: sessionsRepo,
    keys,
    now,
    accessTokenSeconds: config.ACCESS_TOKEN_SECONDS,
    onSessionsEnded: (ids) => cacheBus.invalidate('session', ...ids),
  });
  const passwordReset = createPasswordResetService({
    repo: createPasswordResetRepository(db),
    sessions,
    mailer,
    now,
    publicUrl,
    live,
    mailQueue,
    log: deps.log,
  });
  const teamRepo = createTeamRepository(db);
  const invitations = createInvitationService({ repo: teamRepo, mailer, publicUrl, now, live });

  const signIn = createSignInService({ repo: createSignInRepository(db), sessions, keys, now });
  // passkeys are for the portal's own domain and origin (where its pages are served from: PUBLIC_URL)
  const portal = new URL(publicUrl);
  const passkeys = createPasskeysService({
    repo: createPasskeysRepository(db),
    rp: { id: portal.hostname, name: 'Partner Dashboard', origins: [portal.origin] },
    otp,
    signIn,
    now,
  });

  const services = {
    auth: { sessions, passwordReset, signIn, passkeys },
    passkeys: { passkeys },
    security: { service: createSecurityService({ repo: createSecurityRepository(db) }), sessions },
    /** what the live event stream reads of a session and its partner */
    sessionReads: sessionsRepo as SessionReads,
    otp,
    partners: {
      partners: createPartnerService({ partners: partnerCache, ledger }),
      settings: createPartnerSettingsService({ db, now, invalidatePartner: (partnerId) => cacheBus.invalidate(PARTNER_CACHE, partnerId), notifier }),
      addresses: createDepositAddressService({ db, config, now }),
    },
    partnerAccess,
    /** each account's test partner (the portal's test view, API keys made for test) */
    testPartners,
    /** what a partner-API call's authentication reads of its key and the partner's allowed addresses */
    apiKeyCalls: { keys: apiKeysRepo, allowedIps: allowedIpsRepo } satisfies ApiKeyCallReads as ApiKeyCallReads,
    apiKeys: {
      keys: createApiKeysService({
        repo: apiKeysRepo,
        partners: partnerAccess,
        testPartners,
        encryptionKey: keys.encryptionKey,
        now,
        invalidateKey: (apiKey) => cacheBus.invalidate(API_KEY_CACHE, apiKey),
        live,
        notifier,
      }),
      ips: createAllowedIpsService({
        repo: allowedIpsRepo,
        partners: partnerAccess,
        now,
        authorise,
        invalidate: (partnerId) => cacheBus.invalidate(ALLOWED_IPS_CACHE, partnerId),
        live,
        notifier,
      }),
    },
    transactions: createTransactionsService({ db, read: database.reader, key: keys.jwtSecret, now, partners: partnerAccess }),
    analytics: createAnalyticsService({ read: database.reader, ledger }),
    reports: createReportsService({ db, boss: boss ?? undefined, storage, partners: partnerAccess, now, activeLimit: config.REPORT_ACTIVE_LIMIT }),
    webhooks: createWebhooksService({
      db,
      encryptionKey: keys.encryptionKey,
      otp,
      partners: partnerAccess,
      now,
      production: config.NODE_ENV === 'production',
      rateLimits: createRateLimitRepository(db),
      live,
      notifier,
    }),
    wallets: createWalletService({
      db,
      otp,
      partners: partnerAccess,
      now,
      notifier,
      live,
      enqueueScreening: async (trx, job) => enqueueScreening(queue('wallets cannot be screened'), trx, job, config.WALLET_SCREENING_SECONDS),
    }),
    ledger,
    walletDirectory,
    balance: createBalanceService({
      ledger,
      partners: partnerAccess,
      now,
      testFunds: { testPartnerOf: (partnerId) => testPartners.testPartnerOf(partnerId), transaction: (work) => db.transaction().execute(work) },
    }),
    withdrawals: createWithdrawalService({
      db,
      now,
      maxAmount: config.WITHDRAWAL_MAX_USD,
      ledger,
      notifier,
      wallets: walletDirectory,
      enqueueProcessing: async (trx, job) =>
        enqueueWithdrawalStep(queue('withdrawals cannot be processed'), trx, { ...job, step: 'send' }, config.SETTLEMENT_PROCESSING_SECONDS),
    }),
    fiatWallets: createFiatWalletsService({ repo: createFiatWalletsRepository(db), ledger, now }),
    invitations,
    team: createTeamService({
      repo: teamRepo,
      invitations,
      sessions,
      passwordReset,
      now,
      invalidateUser: (partnerId, userId) => cacheBus.invalidate('user', `${partnerId}:${userId}`),
      live,
      notifier,
    }),
    rates: createRatesService({ db, authorise, partners: partnerAccess, now, notifier, live }),
    coverage: createCoverageService({ db }),
    notifications: createNotificationsService({ db, now }),
    notifier,
    /** what /metrics reads at each scrape besides the ledger (plugins/metrics.ts), one statement a metric family */
    monitoring: {
      oldestDueJobs: () => oldestDueJobs(db),
      webhookEndpoints: () => endpointHealth(db),
      mailOutbox: () => undeliveredMails(db),
    },
    payments: createPaymentService({
      db,
      now,
      live,
      notifier,
      ledger,
      partners: partnerAccess,
      enqueueStep: async (trx, job) => enqueuePaymentStep(queue('payments cannot be processed'), trx, job, config.PAYMENT_STEP_SECONDS),
    }),
  };
  const { wallets, webhooks, apiKeys, rates } = services;
  const start = createStartService({
    profile: (auth) => services.partners.partners.profile(auth),
    accounts: (auth) => services.partners.partners.accounts(auth),
    rates: (auth) => rates.list(auth),
    wallets: (auth) => wallets.list(auth),
    fiatWallets: (auth) => services.fiatWallets.list(auth),
    preferences: (auth) => services.team.preferences(auth),
    notifications: (auth, language) => services.notifications.list(auth, language),
  });
  checks = {
    'wallet.add': (auth, target) => wallets.checkAdd(auth, target),
    'wallet.enable': (auth, target) => wallets.checkEnable(auth, target),
    'wallet.delete': (auth, target) => wallets.checkDelete(auth, target),
    'ip.add': (auth, target) => apiKeys.ips.checkAdd(auth, target),
    'ip.update': (auth, target) => apiKeys.ips.checkUpdate(auth, target),
    'ip.delete': (auth, target) => apiKeys.ips.checkDelete(auth, target),
    'webhook.create': (auth, target) => webhooks.checkCreate(auth, target),
    'webhook.update': (auth, target) => webhooks.checkUpdate(auth, target),
    'webhook.delete': (auth, target) => webhooks.checkDelete(auth, target),
    'webhook.roll': (auth, target) => webhooks.checkRoll(auth, target),
    'country.status': (auth, target) => rates.checkRequest(auth, target),
    'passkey.add': (auth, target) => passkeys.checkAdd(auth, target),
  };
  return { ...services, start };
}

export type Services = ReturnType<typeof composeServices>;

/** What the workers run on: the runtime the services were built from, with its queue. */
export type WorkerDeps = Omit<RuntimeDeps, 'boss' | 'cacheBus' | 'clock' | 'mailQueue'> & { boss: PgBoss };

/**
 * The operator's tools (the CLI): creating partners and their flags, inviting their first admin, fiat wallets, deposit
 * addresses and the reconciliation, built here like every other service. Running servers hear of a partner's change
 * at once (its cached row is dropped everywhere through NOTIFY on a PostgreSQL server).
 */
export function composeOperatorTools(deps: { config: Config; database: Database; mailer: Mailer; live: LivePublisher }) {
  const { config, database, mailer, live } = deps;
  const db = database.db;
  const ledger = createLedger(db);
  const invitations = createInvitationService({ repo: createTeamRepository(db), mailer, publicUrl: config.publicUrl, now: Date.now, live });
  return {
    ledger,
    operator: createOperatorService({ db, invitations, ledger, invalidatePartner: (partnerId) => invalidateEverywhere(database, PARTNER_CACHE, partnerId) }),
    addresses: createDepositAddressService({ db, config, now: Date.now }),
    fiatWallets: createFiatWalletsService({ repo: createFiatWalletsRepository(db), ledger, now: Date.now }),
    /** a partner by its id or its abbreviation (ACME), or undefined */
    partnerByRef: (ref: string) => (/^[0-9a-f-]{36}$/i.test(ref) ? findPartner(db, ref) : findPartnerByAbbreviation(db, ref)),
  };
}

/**
 * Starts the background work of a server (server.ts) over the same services the routes use: report builders,
 * cleanup, webhook delivery, wallet screening, withdrawals and payments, and the demo's live payments when asked.
 * Returns what must stop before the queue does.
 */
export async function startWorkers(deps: WorkerDeps, services: Services) {
  const { boss, config, database, keys, storage, liveBus: live, log } = deps;
  const db = database.db;
  await startReportWorker({ boss, db, read: database.reader, storage, partners: services.partnerAccess, log, concurrency: config.REPORT_CONCURRENCY });
  await startCleanupJob({ boss, db, storage, log, now: Date.now, notifications: services.notifications, reports: services.reports });
  await startReconcileJob({ boss, ledger: services.ledger, log });
  const webhooks = await startWebhookDelivery({
    boss,
    database,
    encryptionKey: keys.encryptionKey,
    notifier: services.notifier,
    log,
    schedule: config.WEBHOOK_RETRY_SCHEDULE,
    concurrency: config.WEBHOOK_CONCURRENCY,
    allowPrivateTargets: config.NODE_ENV !== 'production',
    live,
  });
  await startWalletScreeningWorker({ boss, service: services.wallets, screener: blocklistScreener(config.WALLET_SCREENING_BLOCKLIST), log });
  await startWithdrawalWorker({
    boss,
    db,
    payer: simulatedPayer,
    timings: { processingSeconds: config.SETTLEMENT_PROCESSING_SECONDS, completionSeconds: config.SETTLEMENT_COMPLETION_SECONDS },
    log,
    notifier: services.notifier,
    ledger: services.ledger,
    wallets: services.walletDirectory,
  });
  await startPaymentWorker({
    boss,
    db,
    live,
    notifier: services.notifier,
    ledger: services.ledger,
    stepSeconds: config.PAYMENT_STEP_SECONDS,
    log,
    concurrency: config.PAYMENT_CONCURRENCY,
  });
  return { webhooks };
}

/** The demo's live payments (DEMO and DEMO_LIVE), made through the payment service. */
export function startDemoPayments(deps: Pick<WorkerDeps, 'config' | 'database' | 'log'>, services: Services) {
  return startDemoLive({
    db: deps.database.db,
    service: services.payments,
    coverage: services.coverage,
    seconds: deps.config.DEMO_LIVE_SECONDS,
    log: deps.log,
  });
}
