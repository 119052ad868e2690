// npm run release [-- --out DIR]: the artifact a production host installs, in one tarball with its checksum beside it.
//
//   release/portal-<version>-<commit>.tgz          portal-<version>-<commit>/
//                                                    package.json, package-lock.json   production dependencies only
//                                                    release.json                      version, commit, build time
//                                                    apps/server/dist/                 the server, built (server.js, cli.js)
//                                                    apps/web/dist/                    the portal, built
//                                                    Dockerfile, .dockerignore         the container image
//   release/portal-<version>-<commit>.tgz.sha256   `sha256sum -c` reads it
//
// On the host: tar -xzf portal-....tgz && cd portal-... && npm ci --omit=dev && NODE_ENV=production ... npm start
// (docs/deployment.md). The lockfile is the repository's own, cut down to what the server needs at run time, so the
// host installs exactly the versions the tests ran with.
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import zlib from 'node:zlib';
import { ensureServerBuild, serverDist } from './server-build.mjs';
import { ensureWebBuild } from './web-build.mjs';

const root = path.resolve(import.meta.dirname, '..');
const readJson = (file) => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'));

function git(...args) {
  const r = spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/** The commit the release is built from, marked `-dirty` when tracked files differ from it. */
function commitOf() {
  const commit = git('rev-parse', '--short=12', 'HEAD');
  if (!commit) return { commit: 'unknown', dirty: false };
  const dirty = spawnSync('git', ['diff', '--quiet', 'HEAD', '--'], { cwd: root }).status !== 0;
  return { commit, dirty };
}

/**
 * The lockfile of the release: the repository's entries that the given dependencies reach (their dependencies,
 * optional dependencies and required peers, found as Node finds them: the nearest node_modules upwards), flagged
 * optional where only optional edges reach them. Every path stays as it is in the repository's lockfile.
 */
export function productionLock(lock, dependencies, { name, version, engines }) {
  const packages = lock.packages;
  const resolve = (from, dep) => {
    for (let base = from; ;) {
      const candidate = `${base ? `${base}/` : ''}node_modules/${dep}`;
      if (packages[candidate]) return candidate;
      if (!base) return undefined;
      const up = base.lastIndexOf('/node_modules/');
      base = up < 0 ? '' : base.slice(0, up);
    }
  };
  const required = new Set();
  const reached = new Set();
  const visit = (from, dep, optional) => {
    const at = resolve(from, dep);
    if (!at) {
      if (optional) return;
      throw new Error(`${dep} (needed by ${from || 'the server'}) is not in package-lock.json`);
    }
    if (at.startsWith('apps/') || at.startsWith('packages/')) throw new Error(`${dep} is installed inside a workspace (${at}): not supported by the release`);
    if (packages[at].link) throw new Error(`${dep} is a workspace package: bundle it instead`);
    const known = optional ? reached.has(at) : required.has(at);
    if (known) return;
    reached.add(at);
    if (!optional) required.add(at);
    const entry = packages[at];
    for (const d of Object.keys(entry.dependencies ?? {})) visit(at, d, optional);
    for (const d of Object.keys(entry.optionalDependencies ?? {})) visit(at, d, true);
    for (const d of Object.keys(entry.peerDependencies ?? {})) if (!entry.peerDependenciesMeta?.[d]?.optional) visit(at, d, optional);
  };
  for (const dep of Object.keys(dependencies)) visit('', dep, false);

  const out = { '': { name, version, license: 'UNLICENSED', dependencies, engines } };
  for (const at of [...reached].sort()) {
    // the repository's flags (dev, optional, peer) say how the repository reaches a package, not how the release does
    const entry = { ...packages[at] };
    for (const flag of ['dev', 'devOptional', 'optional', 'peer']) delete entry[flag];
    out[at] = required.has(at) ? entry : { ...entry, optional: true };
  }
  return { name, version, lockfileVersion: 3, requires: true, packages: out };
}

/** The server's run-time dependencies: its own and the bundled contract's, without the workspace packages. */
function runtimeDependencies() {
  const server = readJson('apps/server/package.json').dependencies;
  const contract = readJson('packages/contract/package.json').dependencies;
  const all = { ...contract, ...server };
  for (const [dep, range] of Object.entries(contract)) {
    if (server[dep] && server[dep] !== range) throw new Error(`${dep}: the server asks for ${server[dep]}, the contract for ${range}`);
  }
  return Object.fromEntries(
    Object.entries(all)
      .filter(([dep]) => !dep.startsWith('@portal/'))
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

const dockerfile = (release) => `# The portal's container image, built from this folder (the release tarball, extracted):
#
#   docker build -t partner-portal:${release.version}-${release.commit} .
#   docker run -p 8080:8080 -v portal-data:/var/lib/portal \\
#     -e JWT_SECRET=... -e ENCRYPTION_KEY=... -e METRICS_TOKEN=... -e SMTP_URL=smtp://... -e DATABASE_URL=postgres://... \\
#     partner-portal:${release.version}-${release.commit}
#
# The server migrates the database at start. DATA_DIR holds report files: share it between the instances.
ARG NODE_IMAGE=node:24-bookworm-slim
FROM \${NODE_IMAGE}
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 DATA_DIR=/var/lib/portal
# production dependencies only, at the versions of the lockfile; none of them needs an install script
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY release.json ./
COPY apps ./apps
RUN mkdir -p /var/lib/portal && chown node:node /var/lib/portal
USER node
VOLUME /var/lib/portal
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s \\
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node itself is process 1: it gets the SIGTERM of docker stop and shuts down within 10 s
STOPSIGNAL SIGTERM
CMD ["node", "apps/server/dist/server.js"]
`;

/** Makes the artifact in `out`; returns the tarball's path, its checksum file and what release.json says. */
export async function makeRelease({ out = path.join(root, 'release'), log = console.log } = {}) {
  const pkg = readJson('package.json');
  const { commit, dirty } = commitOf();
  const release = {
    name: pkg.name,
    version: pkg.version,
    commit: dirty ? `${commit}-dirty` : commit,
    builtAt: new Date().toISOString(),
    node: pkg.engines.node,
  };
  const base = `portal-${release.version}-${release.commit}`;

  if (ensureWebBuild()) log('Portal built.');
  if (await ensureServerBuild()) log('Server built.');

  const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-release-'));
  try {
    const dir = path.join(stage, base);
    fs.mkdirSync(dir);
    const dependencies = runtimeDependencies();
    const manifest = {
      name: pkg.name,
      version: pkg.version,
      description: `Partner Dashboard ${release.version} (${release.commit}): the built server and portal`,
      private: true,
      license: 'UNLICENSED',
      type: 'module',
      engines: pkg.engines,
      scripts: {
        start: 'node apps/server/dist/server.js',
        migrate: 'node apps/server/dist/cli.js migrate',
        portal: 'node apps/server/dist/cli.js',
      },
      dependencies,
    };
    const lock = productionLock(readJson('package-lock.json'), dependencies, { name: pkg.name, version: pkg.version, engines: pkg.engines });
    const write = (file, text) => fs.writeFileSync(path.join(dir, file), text);
    write('package.json', `${JSON.stringify(manifest, null, 2)}\n`);
    write('package-lock.json', `${JSON.stringify(lock, null, 2)}\n`);
    write('release.json', `${JSON.stringify(release, null, 2)}\n`);
    write('Dockerfile', dockerfile(release));
    write('.dockerignore', 'node_modules\n*.tgz\n*.sha256\n');
    const webDist = path.join(root, 'apps/web/dist');
    if (!fs.existsSync(path.join(webDist, 'index.html'))) throw new Error('the portal is not built (apps/web/dist/index.html)');
    fs.cpSync(serverDist, path.join(dir, 'apps/server/dist'), { recursive: true });
    fs.cpSync(webDist, path.join(dir, 'apps/web/dist'), { recursive: true });

    const tar = spawnSync('tar', ['--sort=name', '--owner=0', '--group=0', '--numeric-owner', '-cf', '-', base], {
      cwd: stage,
      maxBuffer: 1 << 30,
    });
    if (tar.status !== 0) throw new Error(`tar failed: ${tar.stderr.toString()}`);
    const tgz = zlib.gzipSync(tar.stdout, { level: 9 });
    const sha256 = crypto.createHash('sha256').update(tgz).digest('hex');
    fs.mkdirSync(out, { recursive: true });
    const file = path.join(out, `${base}.tgz`);
    fs.writeFileSync(file, tgz);
    fs.writeFileSync(`${file}.sha256`, `${sha256}  ${base}.tgz\n`);
    log(`${path.relative(process.cwd(), file)} (${(tgz.length / 1e6).toFixed(1)} MB, ${Object.keys(lock.packages).length - 1} packages to install)`);
    log(`sha256 ${sha256}`);
    return { file, checksumFile: `${file}.sha256`, sha256, folder: base, release };
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

/** A command run without holding the caller's event loop (its timers, its sockets); its exit and output. */
export function runAsync(command, argv, { cwd, env, timeout } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, argv, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], timeout });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (err) => resolve({ status: null, signal: err.message, output }));
    child.on('close', (status, signal) => resolve({ status, signal, output }));
  });
}

/**
 * Unpacks a release tarball into `into` and installs its production dependencies only (`npm ci --omit=dev`, from
 * npm's cache where it has them), as a production host does. npm's variables of the command that runs this one (its
 * package, its workspace) stay out of the install; its cache and registry settings go in. Answers the release's
 * folder. Asynchronous: the caller's connections stay served while npm works (a process blocked for the install's
 * seconds finds its kept-alive sockets closed by their peers when it wakes).
 */
export async function installRelease(tarball, into) {
  fs.mkdirSync(into, { recursive: true });
  const untar = await runAsync('tar', ['-xzf', tarball, '-C', into], {});
  if (untar.status !== 0) throw new Error(`tar could not unpack ${tarball}: ${untar.output}`);
  const folder = path.join(into, path.basename(tarball, '.tgz'));
  const keep = new Set(['npm_config_cache', 'npm_config_registry', 'npm_config_userconfig', 'npm_config_globalconfig']);
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_') || keep.has(k.toLowerCase())));
  const install = await runAsync('npm', ['ci', '--omit=dev', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'], {
    cwd: folder,
    env,
    timeout: 180_000,
  });
  if (install.status !== 0) throw new Error(`npm ci --omit=dev failed in ${folder} (${install.status ?? install.signal}):\n${install.output}`);
  return folder;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  try {
    await makeRelease({ out: values.out ? path.resolve(values.out) : undefined });
  } catch (err) {
    console.error(`The release could not be made: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}
