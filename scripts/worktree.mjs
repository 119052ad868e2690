// Another commit of this repository, checked out beside it to run: the performance guard's base build, the previous
// release that the release tests run on this release's schema.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runAsync } from './release.mjs';

const root = path.resolve(import.meta.dirname, '..');

export function git(...args) {
  const r = spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr.trim()}`);
  return r.stdout.trim();
}

/** What a lockfile installs: each package's place and version (not its flags: a dependency moved to dev installs the same). */
function installed(dir) {
  const lock = JSON.parse(fs.readFileSync(path.join(dir, 'package-lock.json'), 'utf8'));
  return JSON.stringify(Object.entries(lock.packages).map(([where, p]) => [where, p.version ?? '', p.link ?? false]));
}

/**
 * A worktree of `rev` in a temporary folder (`prefix` names it), sharing this checkout's installed packages when its
 * lockfile is the same, else with its own (npm ci). Remove it with removeWorktree.
 */
export function addWorktree(rev, prefix = 'portal-worktree-') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  git('worktree', 'add', '--detach', '--force', dir, rev);
  if (installed(dir) !== installed(root)) {
    const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`npm ci in the worktree of ${rev} failed`);
    return dir;
  }
  // every package a link to this checkout's, but the workspaces' own: those are the worktree's (relative links)
  const modules = path.join(dir, 'node_modules');
  fs.mkdirSync(modules);
  // (not the tools' own folders, .vite-temp and the like: a build in the worktree writes its own)
  for (const entry of fs.readdirSync(path.join(root, 'node_modules'))) {
    if (entry === '@portal' || (entry.startsWith('.') && entry !== '.bin')) continue;
    fs.symlinkSync(path.join(root, 'node_modules', entry), path.join(modules, entry));
  }
  fs.mkdirSync(path.join(modules, '@portal'));
  for (const ws of fs.readdirSync(path.join(root, 'node_modules', '@portal'))) {
    const target = fs.readlinkSync(path.join(root, 'node_modules', '@portal', ws));
    fs.symlinkSync(target, path.join(modules, '@portal', ws));
    // a workspace's own versions of a package (npm nests them there when the hoisted one is another)
    const nested = path.resolve(root, 'node_modules/@portal', target, 'node_modules');
    const into = path.resolve(modules, '@portal', target, 'node_modules');
    if (fs.existsSync(nested) && !fs.existsSync(into)) fs.symlinkSync(nested, into);
  }
  return dir;
}

export function removeWorktree(dir) {
  git('worktree', 'remove', '--force', dir);
}

/** What the server's code is made of: a commit that changed none of these built the same server as its parent. */
export const SERVER_PATHS = ['apps/server', 'packages/contract', 'package-lock.json'];

/**
 * The release before this checkout's, for the tests that run it on this release's schema (a rollback): PREVIOUS_RELEASE,
 * else the newest commit before HEAD that changed the server's code (every commit on main is a release: each one must
 * be able to roll back to the one before it). Undefined without one (a clone without history).
 */
export function previousRelease() {
  if (process.env.PREVIOUS_RELEASE) return git('rev-parse', '--verify', `${process.env.PREVIOUS_RELEASE}^{commit}`);
  const parent = spawnSync('git', ['rev-parse', '--verify', '--quiet', 'HEAD~1'], { cwd: root, encoding: 'utf8' });
  if (parent.status !== 0) return undefined;
  return git('log', '-1', '--format=%H', 'HEAD~1', '--', ...SERVER_PATHS) || undefined;
}

/**
 * The release artifact of `rev` (npm run release, by that commit's own script, in a worktree of it) written to `out`;
 * answers the tarball's path. Asynchronous: a test starts it and goes on (the portal's build takes a minute).
 */
export async function makeReleaseOf(rev, out) {
  const dir = addWorktree(rev, 'portal-release-of-');
  try {
    const made = await runAsync(process.execPath, ['scripts/release.mjs', '--out', out], { cwd: dir });
    if (made.status !== 0) throw new Error(`npm run release of ${rev} failed (${made.status ?? made.signal}):\n${made.output}`);
  } finally {
    removeWorktree(dir);
  }
  const tarball = fs.readdirSync(out).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm run release of ${rev} wrote no tarball to ${out}`);
  return path.join(out, tarball);
}
