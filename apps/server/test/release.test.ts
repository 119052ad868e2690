import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverDatabase } from './harness.ts';
import { httpClient } from './http-client.ts';
import { freePort } from './server-process.ts';
import { installRelease } from '../../../scripts/release.mjs';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const kind = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
/** What must never be in a production install: a transpiler, a bundler, the compiler. */
const DEVELOPMENT_TOOLS = ['tsx', 'esbuild', '@esbuild', 'typescript', 'vite', 'vitest'];

/** The environment of npm run inside npm test without npm's own variables (the workspace, the package being run). */
function npmEnv() {
  const keep = new Set(['npm_config_cache', 'npm_config_registry', 'npm_config_userconfig', 'npm_config_globalconfig']);
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_') || keep.has(k.toLowerCase())));
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = npmEnv()) {
  const r = spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${r.status ?? r.signal}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** Every installed package that is a development tool (`@esbuild/<platform>` too), nested node_modules included. */
function toolsInstalled(nodeModules: string): string[] {
  const found: string[] = [];
  const packagesIn = (dir: string): string[] =>
    fs.existsSync(dir)
      ? fs.readdirSync(dir).flatMap((name) => (name.startsWith('@') ? fs.readdirSync(path.join(dir, name)).map((n) => `${name}/${n}`) : [name]))
      : [];
  const walk = (dir: string) => {
    for (const name of packagesIn(dir)) {
      if (DEVELOPMENT_TOOLS.includes(name) || DEVELOPMENT_TOOLS.includes(name.split('/')[0]!)) found.push(path.relative(nodeModules, path.join(dir, name)));
      walk(path.join(dir, name, 'node_modules'));
    }
  };
  walk(nodeModules);
  return found;
}

/** The pids whose parent is `pid`. */
function childrenOf(pid: number): number[] {
  return fs
    .readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .filter((e) => {
      try {
        // the command name may hold spaces and parentheses: the fields after its closing parenthesis
        const stat = fs.readFileSync(`/proc/${e}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe(`the release (npm run release), installed with production dependencies only and started in production, on ${kind}`, () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-release-test-'));
  const out = path.join(work, 'out');
  const installDir = path.join(work, 'install');
  let folder: string;
  let tarball: string;
  let drop = async () => {};
  let databaseEnv: Record<string, string> = {};

  beforeAll(async () => {
    run('npm', ['run', '--silent', 'release', '--', '--out', out], repoRoot);
    tarball = fs.readdirSync(out).find((f) => f.endsWith('.tgz'))!;
    // the versions of the lockfile, from npm's cache where it has them
    folder = await installRelease(path.join(out, tarball), installDir);
    if (kind === 'postgres') {
      const scratch = await serverDatabase();
      drop = scratch.drop;
      databaseEnv = { DATABASE_URL: scratch.url };
    }
  }, 180_000);

  afterAll(async () => {
    await drop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('is a tarball named by version and commit, with its SHA-256 beside it and what it is inside', () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    const commit = spawnSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).stdout.trim();
    expect(tarball).toMatch(new RegExp(`^portal-${version.replaceAll('.', '\\.')}-${commit}(-dirty)?\\.tgz$`));
    const sha256 = crypto
      .createHash('sha256')
      .update(fs.readFileSync(path.join(out, tarball)))
      .digest('hex');
    expect(fs.readFileSync(path.join(out, `${tarball}.sha256`), 'utf8')).toBe(`${sha256}  ${tarball}\n`);

    const release = JSON.parse(fs.readFileSync(path.join(folder, 'release.json'), 'utf8')) as Record<string, string>;
    expect(release).toMatchObject({ version, commit: expect.stringMatching(new RegExp(`^${commit}`)) as unknown });
    for (const file of ['apps/server/dist/server.js', 'apps/server/dist/cli.js', 'apps/web/dist/index.html', 'Dockerfile']) {
      expect(fs.existsSync(path.join(folder, file)), file).toBe(true);
    }
    const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
    expect(manifest.devDependencies).toBeUndefined();
    expect(Object.keys(manifest.dependencies!)).not.toContain('@portal/contract');
    const lock = JSON.parse(fs.readFileSync(path.join(folder, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
    expect(Object.keys(lock.packages).filter((p) => DEVELOPMENT_TOOLS.some((t) => p.endsWith(`node_modules/${t}`)))).toEqual([]);
  });

  it('installs no development tool: no tsx, esbuild, TypeScript or Vite in node_modules', () => {
    expect(fs.existsSync(path.join(folder, 'node_modules/fastify'))).toBe(true);
    expect(toolsInstalled(path.join(folder, 'node_modules'))).toEqual([]);
  });

  it('migrates and seeds with the built CLI, starts with NODE_ENV=production, answers /readyz 200 and a statement PDF, running plain JavaScript', async () => {
    const port = await freePort();
    const dataDir = path.join(work, 'data');
    // a production environment from scratch: nothing of this test's own process (NODE_OPTIONS, loaders) reaches it
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      JWT_SECRET: crypto.randomBytes(32).toString('base64'),
      ENCRYPTION_KEY: crypto.randomBytes(32).toString('base64'),
      METRICS_TOKEN: crypto.randomBytes(24).toString('base64url'),
      // nothing is mailed at start; a closed port
      SMTP_URL: `smtp://127.0.0.1:${await freePort()}`,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      ...databaseEnv,
    };
    // the built operator CLI: the migrations, then the demo data (its users sign in below)
    run(process.execPath, ['apps/server/dist/cli.js', 'migrate'], folder, env);
    run(process.execPath, ['apps/server/dist/cli.js', 'seed'], folder, env);

    const child = spawn(process.execPath, ['apps/server/dist/server.js'], { cwd: folder, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const url = `http://127.0.0.1:${port}`;
      const deadline = Date.now() + 30_000;
      for (;;) {
        if (child.exitCode !== null) throw new Error(`the release exited at start:\n${output}`);
        const ready = await fetch(`${url}/readyz`).then(
          (r) => r.status,
          () => 0,
        );
        if (ready === 200) break;
        if (Date.now() > deadline) throw new Error(`the release was not ready in 30 s:\n${output}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      // the built portal, served as production serves it
      const page = await fetch(`${url}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('portal-entry');
      expect(page.headers.get('strict-transport-security')).toContain('max-age=');

      // what needs files of the installed packages at run time: argon2's native binary (the password), pdfkit's
      // fonts (the statement as a PDF)
      const client = httpClient(url);
      await client.signIn('admin@acme.test');
      const today = new Date().toISOString().slice(0, 10);
      const weekAgo = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10);
      const pdf = await fetch(`${url}/api/v1/partner/balance/statement.pdf?from=${weekAgo}&to=${today}`, {
        headers: { authorization: `Bearer ${client.token()}` },
      });
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      expect(
        Buffer.from(await pdf.arrayBuffer())
          .subarray(0, 5)
          .toString(),
      ).toBe('%PDF-');

      // plain node running the built file: no loader, no transpiler, no helper process
      const pid = child.pid!;
      expect(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean)).toEqual([process.execPath, 'apps/server/dist/server.js']);
      const environ = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      expect(environ.filter((v) => v.startsWith('NODE_OPTIONS='))).toEqual([]);
      expect(childrenOf(pid)).toEqual([]);
      // and nothing the process could load one from: resolved from the install, as the server resolves its imports
      for (const tool of ['tsx', 'esbuild']) {
        const resolved = spawnSync(process.execPath, ['--input-type=module', '-e', `import.meta.resolve(${JSON.stringify(tool)})`], {
          cwd: folder,
          env,
          encoding: 'utf8',
        });
        expect(resolved.status, `${tool} resolves from the install`).not.toBe(0);
      }
    } finally {
      child.kill('SIGTERM');
      const code = await exited;
      expect(code, output).toBe(0);
    }
  }, 60_000);
});
