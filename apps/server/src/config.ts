import path from 'node:path';
import { z } from 'zod';
import { parseIpAddress } from '@portal/contract/ip-address';
import { checkConnectionString } from './db/hosts.ts';
import { ExtendedKeyError, parseExtendedPublicKey, type XpubFamily } from './lib/deposit-addresses.ts';

const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');

/** An operator's account-level extended public key for a family of chains; a private key is refused. */
const xpub = (family: XpubFamily) =>
  z
    .string()
    .trim()
    .superRefine((value, ctx) => {
      try {
        parseExtendedPublicKey(family, value);
      } catch (err) {
        if (!(err instanceof ExtendedKeyError)) throw err;
        ctx.addIssue({ code: 'custom', message: err.message });
      }
    })
    .optional();

/** A comma-separated list of base64 keys, each of a length `fits` accepts. */
const keyList = (message: string, fits: (bytes: number) => boolean) =>
  z
    .string()
    .refine((v) => v.split(',').every((k) => k.trim() === '' || fits(Buffer.from(k.trim(), 'base64').length)), message)
    .optional();

const postgresUrl = z.string().superRefine((value, ctx) => {
  try {
    checkConnectionString(value);
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: `must be a postgres:// URL (${err instanceof Error ? err.message : String(err)})` });
  }
});

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./.data'),
  /**
   * The PostgreSQL server (unset: the embedded database under DATA_DIR). May go through a transaction pooler
   * (PgBouncer). One host: an address that always leads to the primary, never a list to choose from.
   */
  DATABASE_URL: postgresUrl.optional(),
  /**
   * A direct (session) connection for what a transaction pooler cannot serve: LISTEN/NOTIFY, the migrations. One
   * address that leads to the primary. Unset: DATABASE_URL.
   */
  DATABASE_DIRECT_URL: postgresUrl.optional(),
  /**
   * A streaming replica for reads that may be a moment behind (searches, exports, reports). A read uses it only once
   * it has replayed every write committed before the read started, and the primary when it lags or is down.
   */
  DATABASE_READ_URL: postgresUrl.optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().default('Partner Dashboard <no-reply@portal.local>'),
  /**
   * A development mail catcher (SMTP plus a web inbox a person opens) that takes the mail when SMTP_URL is unset:
   * on by default with NODE_ENV=development, never in production.
   */
  MAIL_CATCHER: bool.optional(),
  MAIL_CATCHER_SMTP_PORT: z.coerce.number().int().min(0).max(65535).default(1025),
  MAIL_CATCHER_WEB_PORT: z.coerce.number().int().min(0).max(65535).default(1080),
  PUBLIC_URL: z.string().url().optional(),
  /** HMAC key for access tokens, base64 of at least 32 bytes. Generated into DATA_DIR when absent (not in production). */
  JWT_SECRET: z.string().min(44, 'must be base64 of at least 32 bytes').optional(),
  /** AES-256-GCM key for secrets at rest, base64 of exactly 32 bytes. Generated like JWT_SECRET. */
  ENCRYPTION_KEY: z
    .string()
    .refine((v) => Buffer.from(v, 'base64').length === 32, 'must be base64 of exactly 32 bytes')
    .optional(),
  /**
   * During a rotation (docs/deployment.md): further keys, comma-separated, that verify tokens and open secrets but
   * never sign or seal: the key being retired, or the one coming next.
   */
  JWT_SECRET_ACCEPTED: keyList('each must be base64 of at least 32 bytes', (n) => n >= 32),
  ENCRYPTION_KEY_ACCEPTED: keyList('each must be base64 of exactly 32 bytes', (n) => n === 32),
  DEMO: bool.optional(),
  /**
   * Whether a server applies its release's migrations when it starts. Default: yes, but in production with
   * PostgreSQL, where the migrations are a release step of their own (`cli migrate`, as the role that owns the
   * schema) and an instance only checks that the schema is one it runs on.
   */
  MIGRATE_AT_START: bool.optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  /** Largest accepted request body in bytes. */
  BODY_LIMIT: z.coerce.number().int().positive().default(1_048_576),
  /**
   * Money-moving and heavy calls (searches, exports, statements, withdrawals, payments) one partner runs at once on an
   * instance (the pool has 10 connections); more wait their turn up to FAIR_SHARE_WAIT_SECONDS, then 429. 0 turns it
   * off.
   */
  FAIR_SHARE_PER_PARTNER: z.coerce.number().int().min(0).max(1000).default(5),
  FAIR_SHARE_WAIT_SECONDS: z.coerce.number().min(0).max(60).default(4),
  /**
   * Seconds an API call may go without an answer before it is answered 503 with Retry-After (the database cut off,
   * a lock held): no call but the live stream (and the routes marked `deadline: false`) waits longer. 0 turns it off.
   */
  REQUEST_DEADLINE_SECONDS: z.coerce.number().min(0).max(600).default(5),
  /** Seconds of inactivity before the portal warns, and before it logs out after the warning (portal-core §9). */
  IDLE_WARNING_SECONDS: z.coerce.number().int().positive().default(300),
  IDLE_LOGOUT_SECONDS: z.coerce.number().int().positive().default(10),
  /**
   * Life of an access token in seconds (15 minutes; the portal renews it before it ends). Shorter only for tests that
   * cross many renewals: at least 10 s.
   */
  ACCESS_TOKEN_SECONDS: z.coerce
    .number()
    .int()
    .min(10)
    .max(3600)
    .default(15 * 60),
  /** Where partners ask for help: the About screen's support link (a mailto:). */
  SUPPORT_EMAIL: z.string().trim().email().default('support@partner-dashboard.example'),
  /** Sign-in attempts (login, codes, password calls) per IP and route per minute. */
  LOGIN_RATE_LIMIT: z.coerce.number().int().positive().default(10),
  /**
   * Refreshes (POST users/refresh) per IP per minute. Counted apart from the sign-in calls: every tab of the portal
   * refreshes, and a new tab signs itself in with a refresh when it opens.
   */
  REFRESH_RATE_LIMIT: z.coerce.number().int().positive().default(120),
  /**
   * Partner API calls per API key per API_KEY_RATE_WINDOW_SECONDS, counted across all instances; more are refused
   * with 429 and Retry-After. 1,000 a minute: about 16 a second sustained, and a burst may use the whole minute's.
   */
  API_KEY_RATE_LIMIT: z.coerce.number().int().positive().default(1000),
  API_KEY_RATE_WINDOW_SECONDS: z.coerce.number().int().positive().default(60),
  /**
   * Deposit addresses outside the demo: the operator's account-level extended public keys, one per chain family.
   * Addresses are derived from them (`<key>/0/<index>`); networks without one take addresses from the imported pool.
   */
  DEPOSIT_XPUB_EVM: xpub('EVM'),
  DEPOSIT_XPUB_TRON: xpub('TRON'),
  DEPOSIT_XPUB_BTC: xpub('BTC'),
  /** Reports each server builds at the same time. */
  REPORT_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(2),
  /** Reports a partner may have queued or being built at once; one more is refused with 429. */
  REPORT_ACTIVE_LIMIT: z.coerce.number().int().positive().default(5),
  /**
   * The waits between a webhook delivery's attempts after the first one fails (network error, timeout, 408, 429,
   * 5xx): durations with a unit (s, m, h; a bare number is seconds), comma separated. The default spreads seven
   * retries over about 27 hours; then the delivery is failed and the endpoint marked failing.
   */
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .default('5s,5m,30m,2h,5h,10h,10h')
    .transform((value, ctx) => {
      const steps = value.split(',').map((part) => parseDuration(part.trim()));
      if (steps.length === 0 || steps.length > 50 || steps.some((s) => s === undefined)) {
        ctx.addIssue({ code: 'custom', message: 'must be durations like 5s,5m,2h (at most 50), comma separated' });
        return z.NEVER;
      }
      return steps as number[];
    }),
  /** Webhook attempts each server makes at the same time. */
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(32),
  /** Seconds between a wallet's approval and its screening (the screening job's delay). */
  WALLET_SCREENING_SECONDS: z.coerce.number().int().min(0).max(86_400).default(30),
  /** Addresses that fail screening (comma or space separated), on top of the screener's own list. */
  WALLET_SCREENING_BLOCKLIST: z.string().optional(),
  /** Seconds a withdrawal stays pending before it is sent (pending → processing). */
  SETTLEMENT_PROCESSING_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  /** Seconds a sent withdrawal takes to settle (processing → complete or failed). */
  SETTLEMENT_COMPLETION_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
  /** Seconds each state of a sandbox collection or disbursement lasts (0: the next step runs at once). */
  PAYMENT_STEP_SECONDS: z.coerce.number().min(0).max(86_400).default(4),
  /** Sandbox payment workers per server. */
  PAYMENT_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  /** Event streams (GET events) one user may hold open on one server; one more is refused (429). */
  LIVE_STREAMS_PER_USER: z.coerce.number().int().min(1).max(100_000).default(20),
  /**
   * Seconds between two reads of an open event stream's session, besides the one each change of it (a logout, a
   * removal, a role change) triggers at once: the backstop against a lost notification.
   */
  LIVE_SESSION_CHECK_SECONDS: z.coerce.number().min(1).max(3600).default(60),
  /** The demo's live generator: new collections and disbursements for the demo partners (default: on in the demo outside tests). */
  DEMO_LIVE: bool.optional(),
  /** Seconds between two payments of the demo's live generator. */
  DEMO_LIVE_SECONDS: z.coerce.number().min(1).max(86_400).default(20),
  /** The largest single withdrawal, in USD. */
  WITHDRAWAL_MAX_USD: z
    .string()
    .regex(/^\d{1,15}(\.\d{1,2})?$/, 'must be an amount in USD such as 250000.00')
    .default('250000.00'),
  /**
   * When set, GET /metrics needs `Authorization: Bearer <METRICS_TOKEN>`; unset, /metrics is open, which the server
   * allows outside production only (a production server will not start without it).
   */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /**
   * The reverse proxies whose X-Forwarded-For is believed (Fastify's trustProxy): addresses or CIDR ranges (and
   * proxy-addr's names loopback, linklocal, uniquelocal), comma-separated, or a number of hops. Unset: none, the
   * client address is the socket's. The allowed IP addresses of API keys are checked against that address.
   */
  TRUST_PROXY: z.string().trim().transform(trustedProxies).optional(),
});

const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function trustedProxies(text: string, ctx: z.RefinementCtx): string[] | number {
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops >= 1 && hops <= 10) return hops;
    ctx.addIssue({ code: 'custom', message: 'a number of proxy hops is 1 to 10' });
    return z.NEVER;
  }
  if (/^(true|\*|all|0\.0\.0\.0\/0|::\/0)$/i.test(text)) {
    ctx.addIssue({ code: 'custom', message: "name the proxies' addresses (or a hop count): trusting every sender would let any client choose its address" });
    return z.NEVER;
  }
  const entries = text
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  const out: string[] = [];
  for (const entry of entries) {
    if (PROXY_NAMES.includes(entry)) {
      out.push(entry);
      continue;
    }
    const parsed = parseIpAddress(entry);
    if (!parsed.ok) {
      ctx.addIssue({ code: 'custom', message: `${entry} is not an address, a CIDR range, loopback, linklocal or uniquelocal` });
      return z.NEVER;
    }
    out.push(parsed.value.canonical);
  }
  if (out.length === 0) {
    ctx.addIssue({ code: 'custom', message: 'name at least one proxy address' });
    return z.NEVER;
  }
  return out;
}

export type Env = z.infer<typeof EnvSchema>;

/** Seconds in "5s", "5m", "2h" or "30" (seconds); undefined when it is none of these. */
function parseDuration(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*(s|m|h)?$/.exec(text);
  if (!match) return undefined;
  const seconds = Number(match[1]) * { s: 1, m: 60, h: 3600 }[(match[2] ?? 's') as 's' | 'm' | 'h'];
  return seconds > 0 && seconds <= 7 * 86400 ? seconds : undefined;
}

export type Config = Env & {
  dataDir: string;
  webDist: string;
  demo: boolean;
  /** start the development mail catcher and send the mail there */
  mailCatcher: boolean;
  /** apply the migrations at start (MIGRATE_AT_START), else check the schema */
  migrateAtStart: boolean;
  /** the demo's live payment generator runs (DEMO_LIVE, default: demo data on and not a test) */
  demoLive: boolean;
  /** where the portal is reached, for links in mail: PUBLIC_URL, else this machine's PORT */
  publicUrl: string;
};

export class ConfigError extends Error {}

/** Reads and validates the environment; a bad variable is named in the error. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.NODE_ENV === 'production') {
    // without SMTP, invitations and codes would go nowhere; without the keys, every restart would lose sessions and secrets
    const missing = (['JWT_SECRET', 'ENCRYPTION_KEY', 'SMTP_URL'] as const).filter((k) => !e[k]);
    const problems = missing.map((k) => `  ${k}: required when NODE_ENV=production`);
    if (e.MAIL_CATCHER) problems.push('  MAIL_CATCHER: the development mail catcher cannot run when NODE_ENV=production');
    if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  }
  const databaseOnly = (['DATABASE_DIRECT_URL', 'DATABASE_READ_URL'] as const).filter((k) => e[k] && !e.DATABASE_URL);
  if (databaseOnly.length > 0) throw new ConfigError(`Invalid configuration:\n${databaseOnly.map((k) => `  ${k}: needs DATABASE_URL`).join('\n')}`);
  const repoRoot = path.resolve(import.meta.dirname, '../../..');
  return {
    ...e,
    dataDir: path.resolve(e.DATA_DIR),
    webDist: path.resolve(e.WEB_DIST ?? path.join(repoRoot, 'apps/web/dist')),
    demo: e.DEMO ?? e.NODE_ENV !== 'production',
    demoLive: e.DEMO_LIVE ?? ((e.DEMO ?? e.NODE_ENV !== 'production') && e.NODE_ENV !== 'test'),
    mailCatcher: e.MAIL_CATCHER ?? (e.NODE_ENV === 'development' && !e.SMTP_URL),
    migrateAtStart: e.MIGRATE_AT_START ?? !(e.NODE_ENV === 'production' && e.DATABASE_URL),
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
  };
}

/**
 * What only a server (not the operator CLI) needs of its configuration: in production, a token for /metrics, which
 * would otherwise tell anyone who reaches an instance its traffic, its pool and its errors.
 */
export function checkServing(config: Config) {
  if (config.NODE_ENV === 'production' && !config.METRICS_TOKEN) {
    throw new ConfigError('Invalid configuration:\n  METRICS_TOKEN: required when NODE_ENV=production (GET /metrics is open without it)');
  }
  return config;
}
