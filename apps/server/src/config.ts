import path from 'node:path';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./.data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().default('Partner Dashboard <no-reply@portal.local>'),
  PUBLIC_URL: z.string().url().optional(),
  /** HMAC key for access tokens, base64 of at least 32 bytes. Generated into DATA_DIR when absent (not in production). */
  JWT_SECRET: z.string().min(44, 'must be base64 of at least 32 bytes').optional(),
  /** AES-256-GCM key for secrets at rest, base64 of exactly 32 bytes. Generated like JWT_SECRET. */
  ENCRYPTION_KEY: z
    .string()
    .refine((v) => Buffer.from(v, 'base64').length === 32, 'must be base64 of exactly 32 bytes')
    .optional(),
  DEMO: bool.optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  /** Largest accepted request body in bytes. */
  BODY_LIMIT: z.coerce.number().int().positive().default(1_048_576),
  /** Seconds of inactivity before the portal warns, and before it logs out after the warning (portal-core §9). */
  IDLE_WARNING_SECONDS: z.coerce.number().int().positive().default(300),
  IDLE_LOGOUT_SECONDS: z.coerce.number().int().positive().default(10),
  /** Sign-in attempts (login, codes, password calls) per IP and route per minute. */
  LOGIN_RATE_LIMIT: z.coerce.number().int().positive().default(10),
});

export type Env = z.infer<typeof EnvSchema>;

export type Config = Env & {
  dataDir: string;
  webDist: string;
  demo: boolean;
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
    const missing = (['JWT_SECRET', 'ENCRYPTION_KEY'] as const).filter((k) => !e[k]);
    if (missing.length > 0) {
      throw new ConfigError(
        `Invalid configuration:\n${missing.map((k) => `  ${k}: required when NODE_ENV=production`).join('\n')}`,
      );
    }
  }
  const repoRoot = path.resolve(import.meta.dirname, '../../..');
  return {
    ...e,
    dataDir: path.resolve(e.DATA_DIR),
    webDist: path.resolve(e.WEB_DIST ?? path.join(repoRoot, 'apps/web/dist')),
    demo: e.DEMO ?? e.NODE_ENV !== 'production',
  };
}
