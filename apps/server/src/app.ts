import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyServerOptions } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import {
  jsonSchemaTransform,
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
import { registerErrorHandler } from './plugins/error-handler.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { partnerRoutes } from './modules/partners/partners.routes.ts';
import { transactionRoutes } from './modules/transactions/transactions.routes.ts';
import { reportRoutes } from './modules/reports/reports.routes.ts';
import { diskStorage, type FileStorage } from './lib/file-storage.ts';
import { registerAuth } from './plugins/auth.ts';
import { registerCsrf } from './plugins/csrf.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    keys: Keys;
    mailer: Mailer;
    boss: PgBoss | undefined;
    storage: FileStorage;
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
    trustProxy: false,
    return503OnClosing: true,
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
    deps.mailer ?? createMailer({ db: deps.database.db, smtpUrl: deps.config.SMTP_URL, from: deps.config.MAIL_FROM, log: app.log }),
  );

  app.addHook('onSend', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });

  registerErrorHandler(app);
  await app.register(fastifyCookie);
  await app.register(fastifyRateLimit, { global: false });
  registerAuth(app);
  registerCsrf(app);

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Partner Dashboard API', version: '1.0.0', description: 'The API behind the partner portal.' },
      servers: [],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  await app.register(healthRoutes);
  await app.register(
    async (api) => {
      api.get('/', { schema: { hide: true } }, async () => ({ name: 'Partner Dashboard API', version: 'v1' }));
      await api.register(authRoutes);
      await api.register(partnerRoutes);
      await api.register(transactionRoutes);
      await api.register(reportRoutes);
    },
    { prefix: API_PREFIX },
  );

  await registerPortal(app, deps.config);
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;

/** Serves the built portal from / with a history fallback, so that a reload on /transactions works. */
async function registerPortal(app: App, config: Config) {
  const webDist = config.webDist;
  const index = path.join(webDist, 'index.html');
  if (!fs.existsSync(index)) {
    app.log.warn({ webDist }, 'the portal is not built: run npm run build');
    return;
  }
  await app.register(fastifyStatic, {
    root: webDist,
    wildcard: false,
    index: false,
    setHeaders: (res, file) => {
      // hashed file names never change content: cache them for a year
      if (file.includes(`${path.sep}assets${path.sep}`)) void res.header('cache-control', 'public, max-age=31536000, immutable');
    },
  });
  // settings the portal reads at start (lib/portal-config.ts)
  const portalConfig = JSON.stringify({ idleWarningSeconds: config.IDLE_WARNING_SECONDS, idleLogoutSeconds: config.IDLE_LOGOUT_SECONDS });
  const html = fs
    .readFileSync(index, 'utf8')
    .replace('</head>', `  <meta name="portal-config" content='${portalConfig}' />\n  </head>`);
  const isApi = (url: string) => url.startsWith('/api/') || url === '/api' || url === '/healthz' || url === '/readyz';
  app.get('/', { schema: { hide: true } }, (_request, reply) => reply.type('text/html').header('cache-control', 'no-cache').send(html));
  app.get('/*', { schema: { hide: true } }, (request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    const looksLikeFile = path.extname(url) !== '';
    if (isApi(url) || looksLikeFile) {
      return reply.callNotFound();
    }
    return reply.type('text/html').header('cache-control', 'no-cache').send(html);
  });
}
