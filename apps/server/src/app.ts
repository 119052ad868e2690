import crypto from 'node:crypto';
import Fastify, { type FastifyServerOptions } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type PgBoss from 'pg-boss';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import type { Keys } from './lib/keys.ts';
import type { Mailer } from './lib/mailer.ts';
import { createMailer } from './lib/mailer.ts';
import { createMailRelay } from './lib/mail-relay.ts';
import { diskStorage, type FileStorage } from './lib/file-storage.ts';
import { createCacheBus } from './lib/cache-bus.ts';
import { createLiveBus } from './lib/live-bus.ts';
import { composeServices, type Services } from './composition.ts';
import { frameworkErrors, registerErrorHandler } from './plugins/error-handler.ts';
import { registerRequestDeadline } from './plugins/request-deadline.ts';
import { registerFairShare } from './plugins/fair-share.ts';
import { registerLanguage } from './plugins/language.ts';
import { registerAuth } from './plugins/auth.ts';
import { registerApiKeyAuth } from './plugins/api-key-auth.ts';
import { registerIdempotency } from './plugins/idempotency.ts';
import { cookieSecret, registerCsrf } from './plugins/csrf.ts';
import { registerMetrics } from './plugins/metrics.ts';
import { registerRateLimit } from './plugins/rate-limit.ts';
import { DOCS_CSP, registerSecurityHeaders } from './plugins/security-headers.ts';
import { registerPortal } from './plugins/portal.ts';
import { API_DESCRIPTION, SECURITY_SCHEMES, apiKeyRoutes, docsTransform } from './modules/api-keys/index.ts';
import { authRoutes } from './modules/auth/index.ts';
import { coverageRoutes } from './modules/coverage/index.ts';
import { fiatWalletRoutes } from './modules/fiat-wallets/index.ts';
import { healthRoutes } from './modules/health/index.ts';
import { otpRoutes } from './modules/otp/index.ts';
import { partnerRoutes } from './modules/partners/index.ts';
import { liveEventRoutes } from './modules/live/index.ts';
import { paymentRoutes } from './modules/payments/index.ts';
import { rateRoutes } from './modules/rates/index.ts';
import { reportRoutes } from './modules/reports/index.ts';
import { startRoutes } from './modules/start/index.ts';
import { withdrawalRoutes } from './modules/withdrawals/index.ts';
import { balanceRoutes } from './modules/ledger/index.ts';
import { securityRoutes } from './modules/security/index.ts';
import { passkeyRoutes } from './modules/passkeys/index.ts';
import { invitationRoutes, teamRoutes } from './modules/team/index.ts';
import { notificationRoutes } from './modules/notifications/index.ts';
import { transactionRoutes } from './modules/transactions/index.ts';
import { analyticsRoutes } from './modules/analytics/index.ts';
import { walletRoutes } from './modules/wallets/index.ts';
import { webhookRoutes } from './modules/webhooks/index.ts';
import type { App, DeclaredRoute } from './types/app.ts';

export type { App } from './types/app.ts';
/** The app as built: Fastify's instance with the services the composition root made for it (the workers use them). */
export type BuiltApp = App & { services: Services };

import { API_PREFIX } from './lib/constants.ts';

export type AppDeps = {
  config: Config;
  database: Database;
  keys: Keys;
  /** the job queue, started by the caller; null: an app without background work (tests), chosen explicitly */
  boss: PgBoss | null;
  mailer?: Mailer;
  storage?: FileStorage;
  logger?: FastifyServerOptions['logger'];
  clock?: () => number;
};

/** Builds the Fastify instance; starting it (listen, signals) is server.ts's job, so tests use app.inject. */
export async function buildApp(deps: AppDeps): Promise<BuiltApp> {
  const app = Fastify({
    logger: deps.logger ?? false,
    bodyLimit: deps.config.BODY_LIMIT,
    genReqId: () => crypto.randomUUID(),
    // the client address comes from X-Forwarded-For only when the nearest sender is a configured proxy (TRUST_PROXY)
    trustProxy: trustProxyOption(deps.config.TRUST_PROXY),
    return503OnClosing: true,
    frameworkErrors,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // every route as it is declared (before any plugin adds one), for the tests that walk them all
  const declaredRoutes: DeclaredRoute[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) declaredRoutes.push({ method, url: route.url, readOnly: route.config?.readOnly === true });
  });
  app.decorate('declaredRoutes', declaredRoutes);
  app.decorate('config', deps.config);
  app.decorate('database', deps.database);
  app.decorate('keys', deps.keys);
  app.decorate('boss', deps.boss ?? undefined);
  app.decorate('clock', deps.clock ?? Date.now);
  app.decorate('storage', deps.storage ?? diskStorage(deps.config.dataDir));
  app.decorate(
    'mailer',
    deps.mailer ??
      createMailer({ db: deps.database.db, smtpUrl: deps.config.SMTP_URL, from: deps.config.MAIL_FROM, log: app.log, logBodies: deps.config.demo }),
  );

  // once closing, a reply ends its keep-alive connection: the requests in flight finish, then nothing holds the close
  let closing = false;
  // eslint-disable-next-line @typescript-eslint/require-await -- an async hook: Fastify goes on when its promise settles, as before
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (request, reply) => {
    void reply.header('x-request-id', request.id);
    if (closing) void reply.header('connection', 'close');
  });

  const cacheBus = createCacheBus({ database: deps.database, onError: (err) => app.log.warn({ err }, 'cache notifications interrupted') });
  app.decorate('cacheBus', cacheBus);
  app.addHook('onReady', async () => {
    // an instance that cannot hear the others yet would serve stale users and sessions: wait (briefly) until it can
    await Promise.race([cacheBus.ready, new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
  });
  app.addHook('onClose', async () => cacheBus.close());
  const liveBus = createLiveBus({ database: deps.database, onError: (err) => app.log.warn({ err }, 'live event notifications interrupted') });
  app.decorate('liveBus', liveBus);
  app.addHook('onReady', async () => {
    await Promise.race([liveBus.ready, new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
  });
  app.addHook('onClose', async () => liveBus.close());
  const mailRelay = createMailRelay({ database: deps.database, mailer: app.mailer, log: app.log, now: app.clock });
  app.decorate('mailRelay', mailRelay);
  // eslint-disable-next-line @typescript-eslint/require-await -- an async hook: Fastify goes on when its promise settles
  app.addHook('onReady', async () => mailRelay.start());
  app.addHook('onClose', async () => mailRelay.stop());

  // every service, built once by the composition root (which refuses a missing dependency), handed to the routes
  const services = composeServices({
    config: deps.config,
    database: deps.database,
    keys: deps.keys,
    mailer: app.mailer,
    storage: app.storage,
    cacheBus,
    liveBus,
    mailQueue: mailRelay,
    clock: app.clock,
    log: app.log,
    boss: deps.boss,
  });
  app.decorate('services', services);

  registerErrorHandler(app);
  registerRequestDeadline(app, deps.config.REQUEST_DEADLINE_SECONDS);
  registerFairShare(app, { perPartner: deps.config.FAIR_SHARE_PER_PARTNER, waitSeconds: deps.config.FAIR_SHARE_WAIT_SECONDS });
  registerLanguage(app);
  await registerSecurityHeaders(app, { production: deps.config.NODE_ENV === 'production' });
  registerMetrics(app, { token: deps.config.METRICS_TOKEN, ledger: services.ledger, monitoring: services.monitoring });
  await app.register(fastifyCookie, { secret: cookieSecret(deps.keys.jwtSecret) });
  await registerRateLimit(app);
  registerAuth(app, services.sessionReads, services.testPartners);
  registerApiKeyAuth(app, services.apiKeyCalls);
  await registerCsrf(app);
  registerIdempotency(app);

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Partner Dashboard API', version: '1.0.0', description: API_DESCRIPTION },
      servers: [],
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transform: docsTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', transformStaticCSP: () => DOCS_CSP });

  await app.register(healthRoutes);
  await app.register(
    async (api) => {
      // eslint-disable-next-line @typescript-eslint/require-await -- an async handler: Fastify sends what its promise resolves to
      api.get('/', { schema: { hide: true } }, async () => ({ name: 'Partner Dashboard API', version: 'v1' }));
      await api.register(authRoutes, services.auth);
      await api.register(partnerRoutes, services.partners);
      await api.register(startRoutes, { service: services.start });
      await api.register(transactionRoutes, { service: services.transactions });
      await api.register(analyticsRoutes, { service: services.analytics });
      await api.register(reportRoutes, { service: services.reports });
      await api.register(otpRoutes, { service: services.otp });
      await api.register(apiKeyRoutes, services.apiKeys);
      await api.register(webhookRoutes, { service: services.webhooks });
      await api.register(walletRoutes, { service: services.wallets });
      await api.register(balanceRoutes, { service: services.balance });
      await api.register(withdrawalRoutes, { service: services.withdrawals });
      await api.register(fiatWalletRoutes, { service: services.fiatWallets });
      await api.register(teamRoutes, { service: services.team });
      await api.register(invitationRoutes, { invitations: services.invitations });
      await api.register(securityRoutes, services.security);
      await api.register(passkeyRoutes, services.passkeys);
      await api.register(notificationRoutes, { service: services.notifications });
      await api.register(rateRoutes, { service: services.rates });
      await api.register(coverageRoutes, { service: services.coverage });
      await api.register(paymentRoutes, { service: services.payments });
      await api.register(liveEventRoutes, { sessions: services.sessionReads });
    },
    { prefix: API_PREFIX },
  );

  await registerPortal(app, deps.config.webDist);
  return app as BuiltApp;
}

/** TRUST_PROXY for Fastify: the proxies' addresses, or a number of hops (the nearest n senders are proxies). */
function trustProxyOption(trusted: string[] | number | undefined): string[] | boolean | ((address: string, hop: number) => boolean) {
  if (trusted === undefined) return false;
  if (typeof trusted === 'number') return (_address, hop) => hop < trusted;
  return trusted;
}
