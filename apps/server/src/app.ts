import crypto from 'node:crypto';
import Fastify, { type FastifyServerOptions } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type PgBoss from 'pg-boss';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import type { Keys } from './lib/keys.ts';
import type { Mailer } from './lib/mailer.ts';
import { createMailer } from './lib/mailer.ts';
import { frameworkErrors, registerErrorHandler } from './plugins/error-handler.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { partnerRoutes } from './modules/partners/partners.routes.ts';
import { transactionRoutes } from './modules/transactions/transactions.routes.ts';
import { reportRoutes } from './modules/reports/reports.routes.ts';
import { otpRoutes } from './modules/otp/otp.routes.ts';
import { apiKeyRoutes } from './modules/api-keys/api-keys.routes.ts';
import { API_DESCRIPTION, SECURITY_SCHEMES, docsTransform } from './modules/api-keys/api-docs.ts';
import { webhookRoutes } from './modules/webhooks/webhooks.routes.ts';
import { walletRoutes } from './modules/wallets/wallets.routes.ts';
import { settlementRoutes } from './modules/settlements/settlements.routes.ts';
import { fiatWalletRoutes } from './modules/fiat-wallets/fiat-wallets.routes.ts';
import { teamRoutes } from './modules/team/team.routes.ts';
import { rateRoutes } from './modules/rates/rates.routes.ts';
import { coverageRoutes } from './modules/coverage/coverage.routes.ts';
import { diskStorage, type FileStorage } from './lib/file-storage.ts';
import { registerAuth } from './plugins/auth.ts';
import { registerApiKeyAuth } from './plugins/api-key-auth.ts';
import { registerIdempotency } from './plugins/idempotency.ts';
import { cookieSecret, registerCsrf } from './plugins/csrf.ts';
import { registerMetrics } from './plugins/metrics.ts';
import { registerRateLimit } from './plugins/rate-limit.ts';
import { DOCS_CSP, registerSecurityHeaders } from './plugins/security-headers.ts';
import { registerPortal } from './plugins/portal.ts';
import { createCacheBus, type CacheBus } from './lib/cache-bus.ts';
import { createLiveBus, type LiveBus } from './lib/live-bus.ts';
import { paymentRoutes } from './modules/payments/payments.routes.ts';
import { liveEventRoutes } from './modules/payments/live-events.routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    keys: Keys;
    mailer: Mailer;
    boss: PgBoss | undefined;
    storage: FileStorage;
    /** keeps in-process caches coherent across server instances (lib/cache-bus.ts) */
    cacheBus: CacheBus;
    /** per-partner changes for the live event stream, heard by every instance (lib/live-bus.ts) */
    liveBus: LiveBus;
    /** milliseconds since the epoch; tests move it */
    clock: () => number;
  }
}

export { API_PREFIX } from './lib/constants.ts';
import { API_PREFIX } from './lib/constants.ts';

export type AppDeps = {
  config: Config;
  database: Database;
  keys: Keys;
  /** the job queue, started by the caller; undefined where a test needs none */
  boss?: PgBoss;
  mailer?: Mailer;
  storage?: FileStorage;
  logger?: FastifyServerOptions['logger'];
  clock?: () => number;
};

/** Builds the Fastify instance; starting it (listen, signals) is server.ts's job, so tests use app.inject. */
export async function buildApp(deps: AppDeps) {
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

  app.decorate('config', deps.config);
  app.decorate('database', deps.database);
  app.decorate('keys', deps.keys);
  app.decorate('boss', deps.boss);
  app.decorate('clock', deps.clock ?? Date.now);
  app.decorate('storage', deps.storage ?? diskStorage(deps.config.dataDir));
  app.decorate(
    'mailer',
    deps.mailer ?? createMailer({ db: deps.database.db, smtpUrl: deps.config.SMTP_URL, from: deps.config.MAIL_FROM, log: app.log, logBodies: deps.config.demo }),
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

  registerErrorHandler(app);
  await registerSecurityHeaders(app, { production: deps.config.NODE_ENV === 'production' });
  registerMetrics(app, { token: deps.config.METRICS_TOKEN });
  await app.register(fastifyCookie, { secret: cookieSecret(deps.keys.jwtSecret) });
  await registerRateLimit(app);
  registerAuth(app);
  registerApiKeyAuth(app);
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
      await api.register(authRoutes);
      await api.register(partnerRoutes);
      await api.register(transactionRoutes);
      await api.register(reportRoutes);
      await api.register(otpRoutes);
      await api.register(apiKeyRoutes);
      await api.register(webhookRoutes);
      await api.register(walletRoutes);
      await api.register(settlementRoutes);
      await api.register(fiatWalletRoutes);
      await api.register(teamRoutes);
      await api.register(rateRoutes);
      await api.register(coverageRoutes);
      await api.register(paymentRoutes);
      await api.register(liveEventRoutes);
    },
    { prefix: API_PREFIX },
  );

  await registerPortal(app, deps.config.webDist);
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;

/** TRUST_PROXY for Fastify: the proxies' addresses, or a number of hops (the nearest n senders are proxies). */
function trustProxyOption(trusted: string[] | number | undefined): string[] | boolean | ((address: string, hop: number) => boolean) {
  if (trusted === undefined) return false;
  if (typeof trusted === 'number') return (_address, hop) => hop < trusted;
  return trusted;
}
