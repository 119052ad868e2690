import type { FastifyBaseLogger } from 'fastify';
import { buildApp } from './app.ts';
import { isDatabaseOutage, logFailure } from './db/outage.ts';
import { ConfigError, checkServing, loadConfig } from './config.ts';
import { demoTable, seedDemo } from './db/seed/demo.ts';
import { createBoss } from './jobs/boss.ts';
import { stopQueueWorkers } from './jobs/queue-worker.ts';
import { openRuntime } from './runtime.ts';
import { startDemoPayments, startWorkers } from './composition.ts';
import type { MailCatcher } from './lib/mail-catcher.ts';

const SHUTDOWN_DEADLINE_MS = 10_000;
/** Milliseconds running jobs get to finish on shutdown, within the deadline above. */
const JOB_SHUTDOWN_GRACE_MS = 4000;

/** A configuration the server cannot run with (a bad variable, keys that are not the database's): exit 78. */
async function orExitOnConfigError<T>(step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(78);
    }
    throw err;
  }
}

/**
 * A promise rejected with no one to catch it ends the process (Node's default), as a bug should. One kind is let
 * through: a lost database connection in a library's own background work, which ending the process for would turn a
 * blip into an outage. (Jobs are not such work any more: jobs/queue-worker.ts records their outcome itself.)
 */
function survivingDatabaseOutages(log: () => FastifyBaseLogger) {
  process.on('unhandledRejection', (reason) => {
    if (isDatabaseOutage(reason)) return logFailure(log(), reason, 'background database work lost its connection; it is tried again');
    console.error('Unhandled promise rejection:', reason);
    process.exit(1);
  });
}

async function main() {
  const started = performance.now();
  let config = await orExitOnConfigError(() => checkServing(loadConfig()));
  // outside production without SMTP_URL, mail goes over SMTP to a catcher with a web inbox (never to the log)
  let catcher: MailCatcher | undefined;
  if (config.mailCatcher) {
    try {
      // loaded only here: a production start never reads the catcher (nor its dependencies)
      const { startMailCatcher } = await import('./lib/mail-catcher.ts');
      catcher = await startMailCatcher({ smtpPort: config.MAIL_CATCHER_SMTP_PORT, webPort: config.MAIL_CATCHER_WEB_PORT });
      config = { ...config, SMTP_URL: catcher.smtpUrl };
    } catch (err) {
      console.warn(`The development mail catcher could not start (${err instanceof Error ? err.message : String(err)}); mail goes to the outbox table only.`);
    }
  }
  const { database, keys, newer } = await orExitOnConfigError(() => openRuntime(config, { migrate: config.migrateAtStart }));
  // a rollback: this release runs beside the expand steps of the newer one it replaced
  if (newer.length > 0) console.warn(`The schema has migrations of a newer release (${newer.join(', ')}): this release runs beside them.`);
  survivingDatabaseOutages(() => app.log);
  const boss = createBoss(database);
  boss.on('error', (err) => logFailure(app.log, err, 'job queue error'));
  await boss.start();

  const app = await buildApp({
    config,
    database,
    keys,
    boss,
    logger: {
      level: config.LOG_LEVEL,
      ...(process.stdout.isTTY && config.NODE_ENV !== 'production'
        ? { transport: { target: 'pino-pretty', options: { ignore: 'pid,hostname', translateTime: 'HH:MM:ss' } } }
        : {}),
    },
  });
  // webhook delivery starts after the app; it stops (its attempts finishing) before the queue does
  const running: { webhooks?: { stop(): Promise<void> } } = {};
  app.addHook('onClose', async () => {
    const step = async (name: string, work: () => Promise<unknown> | undefined) => {
      const at = performance.now();
      await work();
      app.log.info({ ms: Math.round(performance.now() - at) }, `shutdown: ${name}`);
    };
    await step('webhook attempts finished', () => running.webhooks?.stop());
    // running jobs get until then to finish; those still running are handed back to the queue (failed, so retried)
    await step('jobs under way finished', () => stopQueueWorkers(boss, JOB_SHUTDOWN_GRACE_MS));
    await step('job queue stopped', () => boss.stop({ graceful: true, wait: true, timeout: JOB_SHUTDOWN_GRACE_MS }));
    await step('database closed', () => database.close());
    await step('mail catcher stopped', () => catcher?.stop());
  });

  // the workers run on the services the routes use (the composition root built them with the app)
  const workers = await startWorkers(
    { boss, config, database, keys, mailer: app.mailer, storage: app.storage, liveBus: app.liveBus, log: app.log },
    app.services,
  );
  running.webhooks = workers.webhooks;

  if (config.demo) {
    const { created } = await seedDemo(database.db, keys.encryptionKey);
    if (created) app.log.info('demo data created');
  }
  if (config.demo && config.demoLive) {
    const live = startDemoPayments({ config, database, log: app.log }, app.services);
    // eslint-disable-next-line @typescript-eslint/require-await -- an async hook: Fastify goes on when its promise settles, as before
    app.addHook('preClose', async () => live.stop());
  }

  await app.listen({ port: config.PORT, host: config.HOST });
  const url = `http://${config.HOST === '127.0.0.1' || config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${config.PORT}`;
  if (config.demo) console.log(`\n${demoTable()}\n`);
  if (catcher) console.log(`Mail (invitations, one-time codes) is caught by the development mail catcher: ${catcher.webUrl}\n`);
  console.log(
    `Partner Dashboard ready at ${url} (${database.kind === 'pglite' ? 'embedded database' : 'PostgreSQL'}, ` +
      `${Math.round(performance.now() - started)} ms)\n`,
  );

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const deadline = setTimeout(() => {
      app.log.error('shutdown took longer than 10 s; exiting');
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    deadline.unref();
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error('The server could not start:', err);
  process.exit(1);
});
