// The server compiled to JavaScript once: its own code and the contract it imports (`@portal/contract/*`) bundled by
// esbuild into apps/server/dist, npm packages left as imports (installed beside it). A start then runs plain
// JavaScript, with no transpiler in the process:
//
//   dist/server.js        the server (node apps/server/dist/server.js)
//   dist/cli.js           the operator CLI (migrate, seed, create-partner, ...)
//   dist/mail-catcher.js  the development mail catcher, loaded only when it runs (and by the cluster's mail sink)
//   dist/chunk-*.js       code the entries share
//
// The files stay two folders below the repository's root, as src/ is: config.ts finds the built portal
// (apps/web/dist) from import.meta.dirname, and that path is the same from src/ and from dist/.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { newest } from './web-build.mjs';

const root = path.resolve(import.meta.dirname, '..');
const serverDir = path.join(root, 'apps/server');
export const serverDist = path.join(serverDir, 'dist');

/** What the build depends on: the server's sources, the contract, the installed versions and this script. */
const SOURCES = [
  'apps/server/src',
  'apps/server/package.json',
  'packages/contract/src',
  'packages/contract/package.json',
  'package-lock.json',
  'scripts/server-build.mjs',
];
const ENTRIES = { server: 'src/server.ts', cli: 'src/cli.ts', 'mail-catcher': 'src/lib/mail-catcher.ts' };
/** Written last: its time says when the build finished (an interrupted build has none, so it runs again). */
const STAMP = path.join(serverDist, 'build.json');

/** Bare imports (npm packages) stay imports, except the workspace's contract, whose TypeScript is bundled. */
const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@portal/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/** Builds the server now. Returns the files written. */
export async function buildServer() {
  const esbuild = await import('esbuild').catch(() => {
    throw Object.assign(new Error('esbuild is not installed: the server is built from a development install (npm ci, with dev dependencies)'), {
      code: 'ESBUILD_MISSING',
    });
  });
  fs.rmSync(serverDist, { recursive: true, force: true });
  let result;
  try {
    result = await esbuild.build({
      absWorkingDir: serverDir,
      entryPoints: ENTRIES,
      outdir: serverDist,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node22.12',
      // classes and functions keep their names (errors and logs show them)
      keepNames: true,
      sourcemap: 'linked',
      sourcesContent: false,
      chunkNames: 'chunk-[hash]',
      plugins: [externalPackages],
      logLevel: 'warning',
      metafile: true,
    });
  } finally {
    // esbuild's service process would otherwise live as long as this one (npm start runs on)
    await esbuild.stop();
  }
  fs.writeFileSync(STAMP, `${JSON.stringify({ builtAt: new Date().toISOString(), entries: Object.keys(ENTRIES) }, null, 2)}\n`);
  return Object.keys(result.metafile.outputs);
}

/** Builds the server when its build is missing or older than its sources; a second start skips it. */
export async function ensureServerBuild({ force = false } = {}) {
  const built = fs.existsSync(STAMP) ? fs.statSync(STAMP).mtimeMs : 0;
  if (!force && built > Math.max(...SOURCES.map(newest))) return false;
  console.log('Building the server...');
  await buildServer();
  return true;
}

// `node scripts/server-build.mjs`: build now, whatever the timestamps say
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    await ensureServerBuild({ force: true });
  } catch (err) {
    console.error(`The server build failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}
