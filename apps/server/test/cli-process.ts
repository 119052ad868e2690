import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serverDatabase, type DatabaseKind } from './harness.ts';

const serverDir = path.resolve(import.meta.dirname, '..');
const repoRoot = path.resolve(serverDir, '../..');
export const newKeys = () => ({ JWT_SECRET: crypto.randomBytes(32).toString('base64'), ENCRYPTION_KEY: crypto.randomBytes(32).toString('base64') });
export const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'portal-keycheck-'));

/** Where a test's database lives: a DATA_DIR of its own (embedded), or a new database on the test server. */
export async function databaseEnv(kind: DatabaseKind): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> {
  if (kind === 'pglite') return { env: { DATA_DIR: tempDir() }, drop: async () => {} };
  const { url, drop } = await serverDatabase();
  return { env: { DATA_DIR: tempDir(), DATABASE_URL: url }, drop };
}

/** The server or the operator CLI as a process of its own, run to its end (at most 60 s). */
export function run(script: 'server.ts' | 'cli.ts', args: string[], env: Record<string, string>) {
  const { DATABASE_URL: _ignored, JWT_SECRET: _j, ENCRYPTION_KEY: _e, ...inherited } = process.env;
  return spawnSync(process.execPath, ['--import', 'tsx', path.join(serverDir, 'src', script), ...args], {
    cwd: repoRoot,
    env: { ...inherited, NODE_ENV: 'development', LOG_LEVEL: 'silent', DEMO: 'false', PORT: '0', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
}
