// The cluster's state file, its secrets and the lock that serialises cluster commands; which parts still run. Used by
// scripts/cluster.mjs and scripts/cluster-instances.mjs.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { FILES, MARK, STATE_DIR, portsFor } from './cluster-paths.mjs';
import { ClusterError, alive, cmdlineOf, pidRunning, sleep } from './cluster-process.mjs';

/** The cluster's state: ports, pids, the variables passed to the instances, the release they run. */
export function readState() {
  let state;
  try {
    state = JSON.parse(fs.readFileSync(FILES.state, 'utf8'));
  } catch {
    return undefined;
  }
  // ports of parts added since the cluster was made (Prometheus, the exporters) are taken from its block
  if (state?.ports && Number.isFinite(state.base)) {
    const fresh = portsFor(state.base);
    const nodes = Object.fromEntries(Object.entries(fresh.nodes).map(([n, p]) => [n, { ...p, ...state.ports.nodes?.[n] }]));
    state.ports = { ...fresh, ...state.ports, nodes };
  }
  return state;
}

export function writeState(state) {
  fs.mkdirSync(STATE_DIR, { recursive: true });
  const tmp = `${FILES.state}.${process.pid}`;
  fs.writeFileSync(tmp, `${JSON.stringify(state, null, 2)}\n`);
  fs.renameSync(tmp, FILES.state);
}

/** The state's layout: 3 since the database has roles of its own (scripts/cluster-roles.mjs), 2 before. */
export const STATE_VERSION = 3;

/** Which node leads is Patroni's to say (etcd holds it), never this file's. */
export function newState(base) {
  return { version: STATE_VERSION, base, ports: portsFor(base), pids: {}, env: {} };
}

/**
 * The instances' secrets, made once and kept in the cluster's folder: the keys, and the token Prometheus (or an
 * operator) sends for GET /metrics on an instance (added to a cluster made before it).
 */
export function keys() {
  const saved = fs.existsSync(FILES.keys) ? JSON.parse(fs.readFileSync(FILES.keys, 'utf8')) : {};
  const make = {
    JWT_SECRET: () => crypto.randomBytes(32).toString('base64'),
    ENCRYPTION_KEY: () => crypto.randomBytes(32).toString('base64'),
    METRICS_TOKEN: () => crypto.randomBytes(24).toString('base64url'),
  };
  const missing = Object.keys(make).filter((name) => !saved[name]);
  for (const name of missing) saved[name] = make[name]();
  if (missing.length) writeKeys(saved);
  return saved;
}

export const writeKeys = (saved) => fs.writeFileSync(FILES.keys, `${JSON.stringify(saved, null, 2)}\n`, { mode: 0o600 });

// serialised: one cluster command at a time on this state directory (a file lock across processes, a queue within one)
let queue = Promise.resolve();
export function locked(fn) {
  const run = queue.then(() => withFileLock(fn));
  queue = run.catch(() => undefined);
  return run;
}

async function withFileLock(fn) {
  fs.mkdirSync(STATE_DIR, { recursive: true });
  const deadline = Date.now() + 300_000;
  let told = false;
  for (;;) {
    try {
      fs.writeFileSync(FILES.lock, String(process.pid), { flag: 'wx' });
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      const holder = Number(fs.readFileSync(FILES.lock, 'utf8'));
      if (!holder || !pidRunning(holder)) {
        fs.rmSync(FILES.lock, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new ClusterError('cluster', `another cluster command (pid ${holder}) holds ${FILES.lock}`);
      if (!told) console.error(`Waiting for another cluster command (pid ${holder}) to finish...`);
      told = true;
      await sleep(200);
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(FILES.lock, { force: true });
  }
}

export const mailAlive = (state) => alive(state.pids.mail, MARK.mail) && cmdlineOf(state.pids.mail).includes(STATE_DIR);
export const instanceAlive = (state, n) => alive(state.pids[`instance-${n}`], MARK.instance(n));
