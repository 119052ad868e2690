import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
/**
 * What the build depends on: the portal's sources, the contract, the installed versions (lockfile) and this
 * script (a change to how the portal is built builds it again).
 */
const SOURCES = [
  'apps/web/src',
  'apps/web/index.html',
  'apps/web/public',
  'apps/web/vite.config.ts',
  'apps/web/package.json',
  'packages/contract/src',
  'package-lock.json',
  'scripts/web-build.mjs',
];

/** The newest modification time of a file, or of anything in a folder, under the repository's root (0 when missing). */
export function newest(p) {
  const full = path.join(root, p);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let max = 0;
  for (const entry of fs.readdirSync(full)) max = Math.max(max, newest(path.join(p, entry)));
  return max;
}

/**
 * Builds the portal when its build is missing or older than its sources; a second start skips it.
 * Always a production build: whoever calls (vitest sets NODE_ENV=test, a shell may have development), the build
 * runs with NODE_ENV=production, so React and the rest come in their production form. The server serves this
 * build to everyone, so it must never be a development build.
 */
export function ensureWebBuild({ force = false } = {}) {
  const index = path.join(root, 'apps/web/dist/index.html');
  const built = fs.existsSync(index) ? fs.statSync(index).mtimeMs : 0;
  const sources = Math.max(...SOURCES.map(newest));
  if (!force && built > sources) return false;
  console.log('Building the portal...');
  const result = spawnSync('npm', ['run', 'build', '-w', '@portal/web', '--silent'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) {
    console.error('The portal build failed.');
    process.exit(result.status ?? 1);
  }
  return true;
}

// `node scripts/web-build.mjs` (npm run build): build now, whatever the timestamps say
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) ensureWebBuild({ force: true });
