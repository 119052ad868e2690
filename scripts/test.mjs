// The whole suite: typecheck, lint, formatting, unused code, import cycles, unit, integration and browser tests, then one summary.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-test-'));
const results = [];
let passed = 0;
let failed = 0;
let skipped = 0;
/** Integration and browser tests that ran on the PostgreSQL server (their names say "postgres"). */
let onPostgres = 0;
/** The failed tests' names and the first lines of their messages, repeated under the summary: a log is often read from its end. */
const failures = [];

function record(name, ok, started, report) {
  let counts = '';
  if (report && fs.existsSync(report)) {
    const j = JSON.parse(fs.readFileSync(report, 'utf8'));
    passed += j.numPassedTests;
    failed += j.numFailedTests;
    skipped += j.numPendingTests + (j.numTodoTests ?? 0);
    counts = `${j.numPassedTests} passed, ${j.numFailedTests} failed, ${j.numPendingTests} skipped`;
    for (const file of j.testResults) {
      onPostgres += file.assertionResults.filter((t) => t.status === 'passed' && /\bpostgres\b/i.test(t.fullName)).length;
      const where = path.relative(root, file.name);
      for (const t of file.assertionResults.filter((a) => a.status === 'failed')) {
        const message = (t.failureMessages ?? []).join('\n').split('\n').slice(0, 6).join('\n    ');
        failures.push(`${where} › ${t.fullName}\n    ${message}`);
      }
      // a file that failed before any of its tests ran (an import error, a failed beforeAll)
      if (file.status === 'failed' && file.assertionResults.every((a) => a.status !== 'failed'))
        failures.push(
          `${where}\n    ${String(file.message ?? '')
            .split('\n')
            .slice(0, 6)
            .join('\n    ')}`,
        );
    }
  } else if (!ok) {
    failed += 1;
  }
  results.push({ name, ok, seconds: ((Date.now() - started) / 1000).toFixed(1), counts });
}

/** One step, its output streamed. */
function step(name, cmd, args, report) {
  const started = Date.now();
  console.log(`\n━━ ${name} ━━ ${[cmd, ...args].join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: process.env });
  record(name, r.status === 0, started, report);
}

/**
 * Checks that only compute (typecheck, lint, formatting), two at a time on two cores or more: each one's output is
 * printed whole when it ends, so that outputs do not interleave.
 */
async function checks(list, width = Math.max(2, os.availableParallelism() - 1)) {
  const queue = [...list];
  const run = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [name, cmd, args] = next;
      const started = Date.now();
      const child = spawn(cmd, args, { cwd: root, env: { ...process.env, FORCE_COLOR: '1' } });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      const code = await new Promise((resolve) => child.on('close', resolve));
      console.log(`\n━━ ${name} ━━ ${[cmd, ...args].join(' ')} (${((Date.now() - started) / 1000).toFixed(1)} s)\n${out.trimEnd()}`);
      record(name, code === 0, started, null);
    }
  };
  await Promise.all(Array.from({ length: width }, run));
}

// Vitest runs files on (cores - 1) workers: one on a 2-core machine. The tests wait on timers, the database server and
// the browser as much as they compute, so two workers finish sooner: about 1.4 times for the integration tests, twice
// for the browser tests (430 s instead of 860 on two cores).
const workers = Math.max(2, os.availableParallelism() - 1);
const vitest = (project, { parallel = false } = {}) => {
  const report = path.join(reportDir, `${project}.json`);
  const args = ['vitest', 'run', '--project', project, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`];
  return ['npx', parallel ? [...args, `--maxWorkers=${workers}`] : args, report];
};

// `--only=unit,integration`: the steps whose names start with one of these words (CI's second Node.js line runs the
// tests, not the checks, which do not depend on the runtime)
const only = process.argv
  .find((a) => a.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
const wanted = (name) => !only || only.some((word) => name.startsWith(word));

const databases = process.env.TEST_DATABASE_URL ? 'embedded PGlite and PostgreSQL' : 'embedded PGlite only (set TEST_DATABASE_URL for PostgreSQL)';
await checks(
  [
    ['lint', 'npx', ['eslint', '.', '--max-warnings=0']],
    ['typecheck: server', 'npx', ['tsc', '-p', 'apps/server']],
    ['typecheck: web', 'npx', ['tsc', '-p', 'apps/web']],
    ['typecheck: e2e', 'npx', ['tsc', '-p', 'e2e']],
    ['typecheck: bench', 'npx', ['tsc', '-p', 'bench']],
    ['typecheck: contract', 'npx', ['tsc', '-p', 'packages/contract']],
    ['typecheck: client', 'npx', ['tsc', '-p', 'packages/client']],
    ['format: Prettier', 'npm', ['run', '--silent', 'format:check']],
    ['unused files, exports and dependencies: knip', 'npx', ['knip', '--no-progress']],
    ['import cycles: none, type imports included', process.execPath, ['scripts/check-cycles.mjs']],
    ['dependencies: each workspace declares what it imports', process.execPath, ['scripts/check-deps.mjs']],
  ].filter(([name]) => wanted(name)),
);
const steps = [
  ['unit: contract', ...vitest('contract')],
  ['unit: client', ...vitest('client')],
  ['unit: web', ...vitest('web', { parallel: true })],
  [`integration: server on ${databases}`, ...vitest('server', { parallel: true })],
  ['e2e: Chromium', ...vitest('e2e', { parallel: true })],
];
for (const [name, ...rest] of steps) if (wanted(name)) step(name, ...rest);

console.log(`\n━━ Summary (Node.js ${process.versions.node}) ━━`);
for (const r of results) console.log(`${r.ok ? '✔' : '✘'} ${r.name.padEnd(60)} ${r.seconds.padStart(6)} s  ${r.counts}`);
if (failures.length > 0) console.log(`\nFailed:\n${failures.map((f) => `✘ ${f}`).join('\n')}`);
console.log(`\nTests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
// the row-lock and concurrency tests catch some mistakes only on a real PostgreSQL server: say plainly whether it ran
console.log(
  onPostgres > 0
    ? `PostgreSQL: ran (${onPostgres} tests passed on the server at TEST_DATABASE_URL)`
    : `PostgreSQL: NOT run${process.env.TEST_DATABASE_URL ? ' (TEST_DATABASE_URL is set, but no test passed on it)' : ''}. ` +
        'The embedded database cannot show every mistake (a missing row lock shows only on a server): see "Tests on PostgreSQL" in the README.',
);
fs.rmSync(reportDir, { recursive: true, force: true });
process.exit(results.every((r) => r.ok) ? 0 : 1);
