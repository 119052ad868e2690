// Start-up: the time from a process's start to its first GET /readyz 200 (the database answers, migrations current),
// a few runs each, on existing data:
//   - the release (npm run release, installed with npm ci --omit=dev in a temporary folder) started as production
//     starts it, on a scratch database of the PostgreSQL server of BENCH_DATABASE_URL that a first start migrated
//     (budget 2 s on a quiet machine);
//   - the same server from its TypeScript sources through tsx, on the same database (how every instance started before
//     the release existed);
//   - `npm start` as a newcomer runs it (embedded database, demo data made by a first start; budget 5 s).
// BENCH_STARTUP_RUNS runs each (default 5). Prints figures; asserts nothing.
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../apps/server/test/server-process.ts';
import { benchServerUrl, withAdminClient as admin } from './support.ts';
import { installRelease } from '../scripts/release.mjs';

const root = path.resolve(import.meta.dirname, '..');
const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 5);
const line = (name: string, value: string) => console.log(`${name.padEnd(60)} ${value}`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const load = () =>
  os
    .loadavg()
    .map((v) => v.toFixed(2))
    .join(' ');

/** npm's own variables (the package being run) stay out of the processes this starts. */
const baseEnv = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_package_') && !k.toLowerCase().startsWith('npm_lifecycle_')),
);

/**
 * Starts a command in a process group of its own, measures the time to the first /readyz 200 (polled every 20 ms),
 * then stops the group (SIGTERM) and waits for it to exit.
 */
async function timeToReady(command: string, args: string[], { cwd, env, port }: { cwd: string; env: NodeJS.ProcessEnv; port: number }) {
  const started = performance.now();
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${command} ${args.join(' ')} exited before it was ready:\n${output}`);
      const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) return performance.now() - started;
      if (performance.now() - started > 120_000) throw new Error(`${command} ${args.join(' ')} not ready in 120 s:\n${output}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // gone already
    }
    await exited;
    // the group's last processes (npm start's server) may outlive its leader by a moment; wait for the port
    for (
      let i = 0;
      i < 200 &&
      (await fetch(`http://127.0.0.1:${port}/healthz`).then(
        () => true,
        () => false,
      ));
      i++
    ) {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** `RUNS` starts, one after the other: each run and the median, min and max. */
async function runs(name: string, budget: string, start: () => Promise<number>) {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(await start());
  const sorted = [...times].sort((a, b) => a - b);
  line(`${name}: runs`, times.map(seconds).join(', '));
  line(`  median (min, max), ${budget}`, `${seconds(sorted[Math.floor(sorted.length / 2)]!)} (${seconds(sorted[0]!)}, ${seconds(sorted.at(-1)!)})`);
  line('  load average (1, 5, 15 min) after', load());
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-startup-'));
const name = `portal_bench_startup_${crypto.randomBytes(4).toString('hex')}`;
console.log(`── start-up to /readyz 200, ${RUNS} runs each ──`);
line('machine: cores, load average (1, 5, 15 min) at start', `${os.availableParallelism()}, ${load()}`);
await admin((c) => c.query(`create database ${name}`));
try {
  // the artifact, installed as a production host installs it
  let at = performance.now();
  const made = spawnSync(process.execPath, ['scripts/release.mjs', '--out', path.join(work, 'out')], { cwd: root, env: baseEnv, encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`npm run release failed:\n${made.stdout}${made.stderr}`);
  line('npm run release (the portal built only if it changed)', seconds(performance.now() - at));
  const tarball = fs.readdirSync(path.join(work, 'out')).find((f) => f.endsWith('.tgz'))!;
  at = performance.now();
  const folder = await installRelease(path.join(work, 'out', tarball), path.join(work, 'install'));
  line(`unpacked and npm ci --omit=dev (npm's cache warm): ${tarball}`, seconds(performance.now() - at));

  const url = new URL(benchServerUrl);
  url.pathname = `/${name}`;
  const port = await freePort();
  const production = {
    ...baseEnv,
    NODE_ENV: 'production',
    JWT_SECRET: crypto.randomBytes(32).toString('base64'),
    ENCRYPTION_KEY: crypto.randomBytes(32).toString('base64'),
    METRICS_TOKEN: crypto.randomBytes(24).toString('base64url'),
    SMTP_URL: `smtp://127.0.0.1:${await freePort()}`,
    DATABASE_URL: url.toString(),
    // the first start migrates the empty database itself (a deployment runs `cli migrate` first instead)
    MIGRATE_AT_START: 'true',
    DATA_DIR: path.join(work, 'data'),
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
  };
  const release = () => timeToReady(process.execPath, ['apps/server/dist/server.js'], { cwd: folder, env: production, port });
  line('release: first start (migrates an empty database)', seconds(await release()));
  await runs('release: node apps/server/dist/server.js, PostgreSQL', 'budget 2 s', release);
  await runs('sources through tsx (as before), PostgreSQL', 'for comparison', () =>
    timeToReady(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], { cwd: root, env: production, port }),
  );

  // npm start as a newcomer runs it: the embedded database under a data directory of its own
  const newcomerPort = await freePort();
  const newcomer = {
    ...baseEnv,
    NODE_ENV: 'development',
    DATA_DIR: path.join(work, 'newcomer'),
    PORT: String(newcomerPort),
    MAIL_CATCHER_SMTP_PORT: String(await freePort()),
    MAIL_CATCHER_WEB_PORT: String(await freePort()),
    DEMO_LIVE: 'false',
    LOG_LEVEL: 'warn',
  };
  const npmStart = () => timeToReady('npm', ['start'], { cwd: root, env: newcomer, port: newcomerPort });
  line('npm start: first start (embedded database, demo data made)', seconds(await npmStart()));
  await runs('npm start: builds checked, embedded database with demo data', 'budget 5 s', npmStart);
} finally {
  await admin((c) => c.query(`drop database if exists ${name} with (force)`));
  fs.rmSync(work, { recursive: true, force: true });
}
