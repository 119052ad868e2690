import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import type PgBoss from 'pg-boss';
import { buildApp, type App, type BuiltApp } from '../src/app.ts';
import { createBoss } from '../src/jobs/boss.ts';
import { startReportWorker } from '../src/modules/reports/report-worker.ts';
import { startWebhookDelivery, type WebhookDeliveryDeps } from '../src/modules/webhooks/webhook-delivery.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { openDatabase, type Database } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { seedDemo } from '../src/db/seed/demo.ts';
import { randomKeys, type Keys } from '../src/lib/keys.ts';
import { createMailer, type Mail, type Mailer } from '../src/lib/mailer.ts';
import pino from 'pino';
import { smtpSink, type Sink } from './smtp-sink.ts';

export type DatabaseKind = 'pglite' | 'postgres';

/** Integration tests run on the embedded database always and on a real PostgreSQL server when TEST_DATABASE_URL is set. */
export const DATABASES: DatabaseKind[] = ['pglite', ...(process.env.TEST_DATABASE_URL ? (['postgres'] as const) : [])];

/** A new, empty database on the test server (TEST_DATABASE_URL), and how to drop it. */
export async function serverDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `portal_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(statement);
    await client.end();
  };
  await admin(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

/** A fresh, empty database: in-memory PGlite, or a new database on the test server that is dropped on close. */
export async function freshDatabase(kind: DatabaseKind): Promise<Database> {
  if (kind === 'pglite') return openDatabase({ kind: 'pglite' });
  const { url, drop } = await serverDatabase();
  const database = await openDatabase({ kind: 'postgres', url, max: 4 });
  return {
    ...database,
    async close() {
      await database.close();
      await drop();
    },
  };
}

const serverDir = path.resolve(import.meta.dirname, '..');

/**
 * An embedded database with every migration applied, as PGlite dumps its data directory: made once for a set of
 * migrations (the first test file that needs it writes it to the temporary directory) and loaded by each setup,
 * which then takes well under a second instead of some 4 (PGlite's initdb, then the migrations).
 */
async function migratedPgliteImage(): Promise<Blob> {
  const hash = crypto.createHash('sha256');
  const inputs = ['src/db/migrate.ts', 'src/db/migrations', 'src/db/reference', '../../node_modules/@electric-sql/pglite/package.json'];
  const addFile = (file: string) => {
    if (fs.statSync(file).isDirectory()) for (const entry of fs.readdirSync(file).sort()) addFile(path.join(file, entry));
    else hash.update(file).update(fs.readFileSync(file));
  };
  for (const input of inputs) addFile(path.join(serverDir, input));
  const file = path.join(os.tmpdir(), `portal-test-migrated-${hash.digest('hex').slice(0, 16)}.tar`);
  if (!fs.existsSync(file)) {
    const database = await openDatabase({ kind: 'pglite' });
    await migrateToLatest(database.db);
    const image = await database.dumpImage!();
    await database.close();
    // written aside, then renamed: a file that reads in parallel never sees half of it
    const partial = `${file}.${process.pid}.partial`;
    fs.writeFileSync(partial, Buffer.from(await image.arrayBuffer()));
    fs.renameSync(partial, file);
  }
  return new Blob([fs.readFileSync(file)]);
}

/** A database with every migration applied and nothing else: PGlite from the migrated image, or a new server database. */
export async function migratedDatabase(kind: DatabaseKind): Promise<Database> {
  if (kind === 'postgres') {
    const database = await freshDatabase(kind);
    await migrateToLatest(database.db);
    return database;
  }
  return openDatabase({ kind: 'pglite', image: await migratedPgliteImage() });
}

/**
 * Holds the database the way a stuck transaction would, until the returned release is called: on a PostgreSQL server,
 * `tables` (default: every table of the app) locked by another transaction; on the embedded database, its one session
 * taken (every query waits).
 */
export async function holdDatabase(database: Database, tables?: string[]): Promise<() => Promise<void>> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let held!: () => void;
  const holding = new Promise<void>((resolve) => (held = resolve));
  const done = database.db.transaction().execute(async (trx) => {
    if (database.kind === 'postgres') {
      const names =
        tables ?? (await sql<{ name: string }>`select tablename as name from pg_tables where schemaname = 'public'`.execute(trx)).rows.map((r) => r.name);
      await sql.raw(`lock table ${names.map((name) => `"${name.replaceAll('"', '""')}"`).join(', ')} in access exclusive mode`).execute(trx);
    } else {
      await sql`select 1`.execute(trx);
    }
    held();
    await gate;
  });
  await Promise.race([holding, done]);
  return async () => {
    release();
    await done;
  };
}

export const testKeys = randomKeys;

export function testConfig(overrides: Record<string, string> = {}): Config {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-test-'));
  return loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, WEB_DIST: '/nonexistent-web-dist', LOG_LEVEL: 'silent', ...overrides });
}

/** A mailer of the portal's over a test's database: over SMTP to `smtpUrl` when given, else logged in the outbox. */
export const testMailer = (t: Pick<TestContext, 'database'>, smtpUrl?: string) =>
  createMailer({ db: t.database.db, ...(smtpUrl ? { smtpUrl } : {}), from: 'Portal <no-reply@portal.test>', log: pino({ level: 'silent' }) });

/** Collects mail instead of sending it, for tests that read what was sent. */
export function memoryMailer(): Mailer & { sent: Mail[] } {
  const sent: Mail[] = [];
  return {
    sent,
    send: async (mail) => void sent.push(mail),
    transmit: async (mail) => {
      sent.push(mail);
      return 'logged';
    },
  };
}

export type TestContext = {
  /** the app, with the services the composition root built for it (`app.services`) */
  app: BuiltApp;
  /** the app's clock, in ms; tests move it */
  clock: { now: number };
  database: Database;
  keys: Keys;
  mailer: ReturnType<typeof memoryMailer>;
  close(): Promise<void>;
};

type SetupOptions = {
  seed?: boolean;
  transactions?: boolean;
  config?: Record<string, string>;
  extend?: (app: BuiltApp) => void;
  jobs?: boolean;
  smtpUrl?: string;
};

/** A migrated database with the demo data and an app over it. */
export async function setup(kind: DatabaseKind, options: SetupOptions = {}): Promise<TestContext> {
  const database = await migratedDatabase(kind);
  const keys = testKeys();
  // the demo transactions cost seconds: only the files that read them ask for them
  if (options.seed !== false) await seedDemo(database.db, keys.encryptionKey, { transactions: options.transactions ?? false });
  const mailer = memoryMailer();
  const clock = { now: Date.now() };
  // the job queue, for the files that need background work; started before the app so its routes can enqueue
  const boss = options.jobs ? createBoss(database) : undefined;
  await boss?.start();
  const config = testConfig(options.config);
  // with smtpUrl, mail goes over SMTP to a server the test runs (and reads), as in production
  const smtpMailer = options.smtpUrl
    ? createMailer({ db: database.db, smtpUrl: options.smtpUrl, from: config.MAIL_FROM, log: pino({ level: 'silent' }) })
    : undefined;
  // without `jobs` the app is built with no queue on purpose (boss: null): work that needs one fails when asked for
  const app = await buildApp({ config, database, keys, mailer: smtpMailer ?? mailer, boss: boss ?? null, clock: () => clock.now });
  options.extend?.(app);
  await app.ready();
  return testContext({ app, clock, database, keys, mailer, boss });
}

/** The report worker over a test's app (its queue, database, file storage and partners), as the composition root starts it. */
export const startTestReportWorker = (t: TestContext) =>
  startReportWorker({ boss: t.app.boss!, db: t.database.db, storage: t.app.storage, partners: t.app.services.partnerAccess, log: t.app.log });

/**
 * The webhook delivery workers over a test's app (its queue, database, keys, notifier and live bus), sending to receivers
 * on loopback; the rest as the test says.
 */
export function startTestWebhookDelivery(t: TestContext, options: Pick<WebhookDeliveryDeps, 'schedule' | 'concurrency' | 'timeoutMs'>) {
  return startWebhookDelivery({
    boss: t.app.boss!,
    database: t.database,
    encryptionKey: t.keys.encryptionKey,
    notifier: t.app.services.notifier,
    log: t.app.log,
    allowPrivateTargets: true,
    live: t.app.liveBus,
    ...options,
  });
}

/** What a test holds of one running app; closing it stops the app, its job queue and its database. */
function testContext(parts: Omit<TestContext, 'close'> & { boss: PgBoss | undefined }): TestContext {
  const { boss, ...context } = parts;
  return {
    ...context,
    async close() {
      await context.app.close();
      await boss?.stop({ graceful: false, wait: true });
      await context.database.close();
      // the app's data directory (testConfig made it), with the reports and files written there
      fs.rmSync(context.app.config.DATA_DIR, { recursive: true, force: true });
    },
  };
}

type InjectOptions = { headers?: Record<string, string>; payload?: unknown; token?: string; ip?: string };

/**
 * A browser-like caller: keeps its cookies, fetches the request-forgery token as the portal does (with its bearer
 * token: a token is bound to its session) and sends it on every mutating call, fetching a new one once when it is
 * refused (after a sign-in, or for another session), and sends a bearer token when given.
 */
export function browser(app: App) {
  const jar = new Map<string, string>();
  let csrf: string | undefined;
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const keep = (res: { cookies: { name: string; value: string; maxAge?: number; expires?: Date }[] }) => {
    for (const c of res.cookies) {
      if (c.value === '' || c.maxAge === 0 || (c.expires && c.expires.getTime() < Date.now())) jar.delete(c.name);
      else jar.set(c.name, c.value);
    }
  };
  const bearer = (options: InjectOptions): Record<string, string> => (options.token ? { authorization: `Bearer ${options.token}` } : {});
  async function freshCsrf(options: InjectOptions) {
    const res = await app.inject({ method: 'POST', url: '/api/v1/security/csrf', headers: { cookie: cookieHeader(), ...bearer(options) } });
    keep(res);
    csrf = res.json<{ csrf: string }>().csrf;
  }
  async function send(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, options: InjectOptions) {
    const headers: Record<string, string> = { cookie: cookieHeader(), ...(options.headers ?? {}) };
    if (method !== 'GET' && csrf) headers['x-csrf-token'] = csrf;
    Object.assign(headers, bearer(options));
    const res = await app.inject({
      method,
      url,
      headers,
      remoteAddress: options.ip ?? '127.0.0.1',
      ...(options.payload !== undefined ? { payload: options.payload as string } : {}),
    });
    keep(res);
    return res;
  }
  async function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, options: InjectOptions = {}) {
    if (method !== 'GET' && !csrf) await freshCsrf(options);
    const res = await send(method, url, options);
    // a test that sets its own x-csrf-token header is testing the check: no second try
    if (method === 'GET' || res.statusCode !== 403 || options.headers?.['x-csrf-token'] !== undefined) return res;
    if (res.json<{ code?: string }>().code !== 'CsrfTokenInvalid') return res;
    await freshCsrf(options);
    return send(method, url, options);
  }
  return {
    jar,
    get: (url: string, options?: InjectOptions) => call('GET', url, options),
    post: (url: string, payload?: unknown, options?: InjectOptions) => call('POST', url, { ...options, payload: payload ?? {} }),
    put: (url: string, payload?: unknown, options?: InjectOptions) => call('PUT', url, { ...options, payload: payload ?? {} }),
    delete: (url: string, options?: InjectOptions) => call('DELETE', url, options),
  };
}
export type Browser = ReturnType<typeof browser>;

/** Signs a demo user in with password and a code from its secret; moves the clock a step so codes never repeat. */
export async function signIn(t: TestContext, email: string, as: Browser = browser(t.app)) {
  const { DEMO_PASSWORD, DEMO_USERS } = await import('../src/db/seed/demo.ts');
  const { totpCode, currentStep, TOTP_PERIOD } = await import('../src/lib/totp.ts');
  const secret = DEMO_USERS.find((u) => u.email === email)?.totpSecret;
  if (!secret) throw new Error(`${email} has no demo authenticator`);
  t.clock.now += TOTP_PERIOD * 1000;
  const login = await as.post('/api/v1/users/login', { email, password: DEMO_PASSWORD });
  if (login.statusCode !== 200) throw new Error(`login ${email}: ${login.body}`);
  const { session } = login.json<{ session: string }>();
  const res = await as.post('/api/v1/users/challenge-response', {
    session,
    challengeName: 'SOFTWARE_TOKEN_MFA',
    username: email,
    userCode: totpCode(secret, currentStep(t.clock.now)),
  });
  if (res.statusCode !== 200) throw new Error(`challenge ${email}: ${res.body}`);
  const body = res.json<{ accessToken: string; refreshToken: string; user: { id: string; partnerId: string } }>();
  return { ...body, browser: as };
}

/** A demo user signed in: the tokens, the user, and the browser that holds the cookies. */
export type Session = Awaited<ReturnType<typeof signIn>>;

/** The calls a signed-in user's browser makes, each with the session's access token. */
export const signedInCalls = (session: Session) => ({
  get: (url: string) => session.browser.get(url, { token: session.accessToken }),
  post: (url: string, body: unknown) => session.browser.post(url, body, { token: session.accessToken }),
  put: (url: string, body: unknown) => session.browser.put(url, body, { token: session.accessToken }),
});

type SignedInOptions = SetupOptions & { beforeSignIn?: (t: TestContext) => Promise<unknown> };

/**
 * `setup` with sign-ins not rate-limited (a file signs many users in), then `beforeSignIn` (what the users' sessions
 * should already see), then `emails` signed in: the app, and each user's session by e-mail.
 */
export async function setupSignedIn(kind: DatabaseKind, emails: string[], { beforeSignIn, ...options }: SignedInOptions = {}) {
  const t = await setup(kind, { ...options, config: { LOGIN_RATE_LIMIT: '10000', ...options.config } });
  const s: Record<string, Session> = {};
  try {
    await beforeSignIn?.(t);
    for (const email of emails) s[email] = await signIn(t, email);
  } catch (err) {
    await t.close();
    throw err;
  }
  return { t, s };
}

/**
 * An SMTP server in this process for the app's mail, as in production: started before `start` (which gives its URL to
 * the app), and closed with the app `start` answers (or when `start` fails). The test reads the mail it received.
 */
export async function overSmtp<R extends { t: TestContext }>(start: (smtp: Sink) => Promise<R>): Promise<R & { smtp: Sink }> {
  const smtp = await smtpSink();
  try {
    const started = await start(smtp);
    const { t } = started;
    const close = async () => {
      await t.close();
      await smtp.close();
    };
    return { ...started, t: { ...t, close }, smtp };
  } catch (err) {
    await smtp.close();
    throw err;
  }
}

/** `setup` with the app's mail sent over SMTP to a server the test reads; closing the app closes that server too. */
export const setupOverSmtp = (kind: DatabaseKind, options: Omit<SetupOptions, 'smtpUrl'> = {}) =>
  overSmtp(async (smtp) => ({ t: await setup(kind, { ...options, smtpUrl: smtp.url }) }));

/** `setupSignedIn` with the app's mail sent over SMTP to a server the test reads; closing the app closes that server too. */
export const setupSignedInOverSmtp = (kind: DatabaseKind, emails: string[], options: Omit<SignedInOptions, 'smtpUrl'> = {}) =>
  overSmtp((smtp) => setupSignedIn(kind, emails, { ...options, smtpUrl: smtp.url }));

/**
 * Two server instances on one fresh PostgreSQL database, as behind a load balancer: each has its own connection pool,
 * caches, cache-bus listener and (with `jobs`) job queue; they share the keys, the clock and the data directory (report
 * files), as the architecture document asks of instances behind a load balancer. The demo data is seeded, then
 * `prepare` runs once.
 */
export async function twoInstances(options: { config?: Record<string, string>; jobs?: boolean; prepare?: (database: Database) => Promise<void> } = {}) {
  const { url, drop } = await serverDatabase();
  const keys = testKeys();
  const clock = { now: Date.now() };
  const config = testConfig(options.config);
  const instances: TestContext[] = [];
  for (let i = 0; i < 2; i++) {
    const database = await openDatabase({ kind: 'postgres', url, max: 4 });
    if (i === 0) {
      await migrateToLatest(database.db);
      await seedDemo(database.db, keys.encryptionKey, { transactions: false });
      await options.prepare?.(database);
    }
    const boss = options.jobs ? createBoss(database) : undefined;
    await boss?.start();
    const mailer = memoryMailer();
    const app = await buildApp({ config, database, keys, mailer, boss: boss ?? null, clock: () => clock.now });
    await app.ready();
    instances.push(testContext({ app, clock, database, keys, mailer, boss }));
  }
  const [a, b] = instances as [TestContext, TestContext];
  return {
    a,
    b,
    async close() {
      for (const instance of instances) await instance.close();
      await drop();
    },
  };
}
