// Figures for the foundation, sign-in and frame: start-up, authenticated read throughput against a bare Fastify,
// and the JavaScript the sign-in page loads. Prints figures; asserts nothing (budgets: ../shared guide, README).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { DEMO_PARTNERS, DEMO_USERS } from '../apps/server/src/db/seed/demo.ts';
import { adminToken, embeddedApp, helloWorld, rps } from './support.ts';
// @ts-expect-error -- plain .mjs helper
import { ensureWebBuild } from '../scripts/web-build.mjs';

const root = path.resolve(import.meta.dirname, '..');
const line = (name: string, value: string) => console.log(`${name.padEnd(58)} ${value}`);

async function throughput() {
  const hello = await helloWorld();
  const portal = await embeddedApp('frame');
  const admin = DEMO_USERS[0]!;
  const token = await adminToken(portal.database.db, portal.keys.jwtSecret, DEMO_PARTNERS.acme.id, admin);

  const bare = await rps(hello.url);
  const profile = await rps(`${portal.origin}/api/v1/partner/profile`, { authorization: `Bearer ${token}` });
  line('bare Fastify hello-world (20 connections, 5 s)', `${Math.round(bare.rps)} req/s, p50 ${bare.p50} ms, p99 ${bare.p99} ms`);
  line(
    'GET /api/v1/partner/profile with token (embedded db)',
    `${Math.round(profile.rps)} req/s, p50 ${profile.p50} ms, p99 ${profile.p99} ms, errors ${profile.errors}`,
  );
  line('  ratio to hello-world (budget >= 40%)', `${((profile.rps / bare.rps) * 100).toFixed(0)}%`);
  await portal.close();
  await hello.server.close();
}

async function startup() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-start-'));
  const once = () =>
    new Promise<number>((resolve, reject) => {
      const started = performance.now();
      const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
        cwd: root,
        env: { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout.on('data', (d: Buffer) => {
        if (d.toString().includes('ready at')) {
          const ms = performance.now() - started;
          child.once('exit', () => resolve(ms));
          child.kill('SIGTERM');
        }
      });
      child.once('error', reject);
    });
  const first = await once();
  const again = [await once(), await once(), await once()].sort((a, b) => a - b);
  line('npm start on an empty data dir (migrate + demo seed)', `${Math.round(first)} ms`);
  line('start on an existing data dir, median of 3 (budget <= 5 s)', `${Math.round(again[1]!)} ms`);
}

function bundle() {
  (ensureWebBuild as () => boolean)();
  const dist = path.join(root, 'apps/web/dist');
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const entry = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
  const assets = fs.readdirSync(path.join(dist, 'assets'));
  // the sign-in route's chunk and every chunk it imports, followed through the import statements
  const js = new Set(entry.filter((f) => f.endsWith('.js')));
  const queue = assets.filter((f) => /^login-.*\.js$/.test(f)).map((f) => `assets/${f}`);
  while (queue.length) {
    const file = queue.pop()!;
    if (js.has(file) && !/^assets\/login-/.test(file)) continue;
    js.add(file);
    const code = fs.readFileSync(path.join(dist, file), 'utf8');
    for (const m of code.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)) if (!js.has(`assets/${m[1]}`)) queue.push(`assets/${m[1]}`);
  }
  const gz = (files: Iterable<string>) => [...files].reduce((n, f) => n + zlib.gzipSync(fs.readFileSync(path.join(dist, f))).length, 0);
  line('sign-in page JavaScript, gzip (budget <= 170 KB)', `${(gz(js) / 1024).toFixed(1)} KB (${js.size} files)`);
  line('sign-in page CSS, gzip', `${(gz(entry.filter((f) => f.endsWith('.css'))) / 1024).toFixed(1)} KB`);
}

console.log('── frame: start-up, throughput, bundle ──');
bundle();
await startup();
await throughput();
