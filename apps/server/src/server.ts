import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { demoTable, seedDemo } from './db/seed/demo.ts';
import { createBoss } from './jobs/boss.ts';
import { openRuntime } from './runtime.ts';
import { startReportWorker } from './jobs/report-worker.ts';

const SHUTDOWN_DEADLINE_MS = 10_000;

async function main() {
  const started = performance.now();
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(78);
    }
    throw err;
  }
  const { database, keys } = await openRuntime(config);
  const boss = createBoss(database);
  boss.on('error', (err) => app.log.error({ err }, 'job queue error'));
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
  app.addHook('onClose', async () => {
    await boss.stop({ graceful: true, wait: true, timeout: 5000 });
    await database.close();
  });

  await startReportWorker({ boss, db: database.db, storage: app.storage, log: app.log });

  if (config.demo) {
    const { created } = await seedDemo(database.db, keys.encryptionKey);
    if (created) app.log.info('demo data created');
  }

  await app.listen({ port: config.PORT, host: config.HOST });
  const url = `http://${config.HOST === '127.0.0.1' || config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${config.PORT}`;
  if (config.demo) console.log(`\n${demoTable()}\n`);
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
