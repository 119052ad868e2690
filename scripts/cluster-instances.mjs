// The portal instances: their environment, the release they run, starting one and waiting until it is ready.
// Used by scripts/cluster.mjs.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { FILES, MARK, logFile } from './cluster-paths.mjs';
import { roleUrl } from './cluster-roles.mjs';
import { ClusterError, HOST, portFree, portOwner, root, spawnDetached, waitFor } from './cluster-process.mjs';
import { installRelease, makeRelease } from './release.mjs';
import { ensureServerBuild } from './server-build.mjs';
import { ensureWebBuild } from './web-build.mjs';
import { instanceAlive, keys, writeState } from './cluster-state.mjs';

/** The server's variable names (from its configuration schema), so that the caller's settings reach the instances. */
function serverVariables() {
  try {
    const text = fs.readFileSync(path.join(root, 'apps/server/src/config.ts'), 'utf8');
    const schema = text.slice(text.indexOf('EnvSchema'));
    return [...new Set([...schema.matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]))];
  } catch {
    return [];
  }
}

/**
 * Every database address of the instances is one that follows the leader (or a replica): PgBouncer's and HAProxy's,
 * as the app's role (rows only). The migrations' (`cli migrate`, before the instances start) are the migrator's.
 */
export function databaseUrls(state, role = 'app') {
  const { pooler, dbPrimary, dbReplica } = state.ports;
  if (role === 'migrator') return { DATABASE_URL: roleUrl('migrator', dbPrimary) };
  return {
    DATABASE_URL: roleUrl('app', pooler),
    DATABASE_DIRECT_URL: roleUrl('app', dbPrimary),
    DATABASE_READ_URL: roleUrl('app', dbReplica),
  };
}

/** What the cluster sets for every instance; the caller's own values of these never reach the instances. */
const CLUSTER_SET = [
  'NODE_ENV',
  'PORT',
  'HOST',
  'DATA_DIR',
  'JWT_SECRET',
  'ENCRYPTION_KEY',
  'JWT_SECRET_ACCEPTED',
  'ENCRYPTION_KEY_ACCEPTED',
  'DATABASE_URL',
  'DATABASE_DIRECT_URL',
  'DATABASE_READ_URL',
  'TRUST_PROXY',
  'DEMO',
  'DEMO_LIVE',
  'MAIL_CATCHER',
  'SMTP_URL',
  'PUBLIC_URL',
];

/** Settings of the caller's environment that the server knows and the cluster does not set (LOG_LEVEL, ...). */
export function passThrough() {
  const env = {};
  for (const name of serverVariables()) {
    if (process.env[name] !== undefined && process.env[name] !== '' && !CLUSTER_SET.includes(name)) env[name] = process.env[name];
  }
  return env;
}

/** The environment of instance n (and, with n = 0, of the migrations and the seed: the migrator's database address). */
export function instanceEnv(state, n) {
  const known = new Set([...serverVariables(), ...CLUSTER_SET]);
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !known.has(k) && !k.startsWith('VITEST')));
  return {
    ...inherited,
    ...state.env,
    ...keys(),
    ...databaseUrls(state, n === 0 ? 'migrator' : 'app'),
    NODE_ENV: 'production',
    PORT: String(n ? state.ports.instances[n - 1] : 0),
    HOST,
    DATA_DIR: FILES.data,
    TRUST_PROXY: HOST,
    DEMO: 'true',
    DEMO_LIVE: n === 1 ? 'true' : 'false',
    MAIL_CATCHER: 'false',
    SMTP_URL: `smtp://${HOST}:${state.ports.smtp}`,
    PUBLIC_URL: `http://${HOST}:${state.ports.balancer}`,
  };
}

/**
 * The release the instances run (npm run release): made from this checkout, unpacked under the cluster's folder and
 * installed with production dependencies only (`npm ci --omit=dev`), as a production host installs it; no transpiler
 * and no development package is there. Made again when the portal's or the server's build was older than its sources
 * (instances already running keep theirs until they are started again). The checkout's mail catcher stands in for a
 * mail server, so the mail sink still runs from the checkout.
 */
export async function ensureRelease(state, say) {
  const rebuilt = [ensureWebBuild(), await ensureServerBuild()].some(Boolean);
  // the checkout's release as made last (after a deploy of another release, the instances go back to it)
  const built = state.built ?? state.release;
  if (!rebuilt && built && fs.existsSync(path.join(built, '.installed'))) {
    state.release = built;
    writeState(state);
    return;
  }
  const made = await makeRelease({ out: FILES.releases, log: () => undefined });
  const dir = await installAfresh(made.file, made.sha256);
  // this release and the one before it stay (instances not yet started again run that one), with their tarballs;
  // older ones go
  const keep = new Set([made.folder, state.release && path.basename(state.release)]);
  state.release = dir;
  state.built = dir;
  writeState(state);
  for (const entry of fs.readdirSync(FILES.releases)) {
    if (!keep.has(entry.replace(/\.tgz(\.sha256)?$/, ''))) fs.rmSync(path.join(FILES.releases, entry), { recursive: true, force: true });
  }
  say(`Release ${made.release.version}-${made.release.commit} installed (production dependencies only).`);
}

/**
 * The release's CLI commands as the migrator (the release phase: the instances' role may not change the schema), each
 * logged in setup.log: migrations before any instance runs the release, and the demo seed once (so that three do not
 * seed at the same time).
 */
export async function releasePhase(state, commands, part) {
  for (const command of commands) {
    const out = fs.openSync(logFile('setup'), 'a');
    fs.writeSync(out, `\n---- ${new Date().toISOString()} cli ${command}\n`);
    // not spawnSync: the process that runs the cluster (a test under load) keeps answering its sockets meanwhile
    const child = spawn(process.execPath, [path.join(state.release, 'apps/server/dist/cli.js'), command], {
      cwd: state.release,
      env: instanceEnv(state, 0),
      stdio: ['ignore', out, out],
    });
    const status = await new Promise((resolve) => {
      child.on('error', () => resolve(null));
      child.on('close', (code) => resolve(code));
    });
    fs.closeSync(out);
    if (status !== 0) throw new ClusterError(part, `the CLI's ${command} failed (exit ${status})`, logFile('setup'));
  }
}

export async function ready(port) {
  try {
    const res = await fetch(`http://${HOST}:${port}/readyz`, { signal: AbortSignal.timeout(2000) });
    return res.status === 200;
  } catch {
    return false;
  }
}

export async function launchInstance(state, n) {
  const part = `instance-${n}`;
  const port = state.ports.instances[n - 1];
  if (!(await portFree(port))) throw new ClusterError(part, `port ${port} is in use by ${portOwner(port)}`);
  const child = spawnDetached(process.execPath, [path.join(state.release, 'apps/server/dist/server.js'), MARK.instance(n)], {
    log: logFile(`instance-${n}`),
    env: instanceEnv(state, n),
    cwd: state.release,
  });
  state.pids[part] = child.pid;
  writeState(state);
  return child.pid;
}

export async function waitInstance(state, n) {
  const port = state.ports.instances[n - 1];
  await waitFor(`instance-${n}`, 'GET /readyz = 200', () => ready(port), {
    ms: 120_000,
    log: logFile(`instance-${n}`),
    gone: () => !instanceAlive(state, n),
  });
}

/**
 * A release made elsewhere (`npm run release`'s tarball: the previous one, to roll back to), installed beside the
 * checkout's with production dependencies only, as ensureRelease installs that one (once: it is kept); its folder.
 */
export async function installGivenRelease(tarball) {
  const dir = releaseFolder(tarball);
  if (fs.existsSync(path.join(dir, '.installed'))) return dir;
  return installAfresh(tarball, path.basename(tarball));
}

/** The folder a release's tarball unpacks to under FILES.releases. */
const releaseFolder = (tarball) => path.join(FILES.releases, path.basename(tarball, '.tgz'));

/**
 * A release's tarball unpacked under FILES.releases over whatever its folder held, its production dependencies
 * installed, and `.installed` written (holding `mark`) once that succeeded; its folder.
 */
async function installAfresh(tarball, mark) {
  const dir = releaseFolder(tarball);
  fs.rmSync(dir, { recursive: true, force: true });
  try {
    await installRelease(path.resolve(tarball), FILES.releases);
  } catch (err) {
    throw new ClusterError('release', err instanceof Error ? err.message : String(err));
  }
  fs.writeFileSync(path.join(dir, '.installed'), `${mark}\n`);
  return dir;
}
