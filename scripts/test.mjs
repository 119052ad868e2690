// The whole suite: typecheck, lint, unit, integration and browser tests, then one summary.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-test-'));
const results = [];
let passed = 0;
let failed = 0;
let skipped = 0;

function step(name, cmd, args, report) {
  const started = Date.now();
  console.log(`\n━━ ${name} ━━ ${[cmd, ...args].join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: process.env });
  const ok = r.status === 0;
  let counts = '';
  if (report && fs.existsSync(report)) {
    const j = JSON.parse(fs.readFileSync(report, 'utf8'));
    passed += j.numPassedTests;
    failed += j.numFailedTests;
    skipped += j.numPendingTests + (j.numTodoTests ?? 0);
    counts = `${j.numPassedTests} passed, ${j.numFailedTests} failed, ${j.numPendingTests} skipped`;
  } else if (!ok) {
    failed += 1;
  }
  results.push({ name, ok, seconds: ((Date.now() - started) / 1000).toFixed(1), counts });
}

const vitest = (project) => {
  const report = path.join(reportDir, `${project}.json`);
  return ['npx', ['vitest', 'run', '--project', project, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], report];
};

const databases = process.env.TEST_DATABASE_URL ? 'embedded PGlite and PostgreSQL' : 'embedded PGlite only (set TEST_DATABASE_URL for PostgreSQL)';
step('typecheck: contract', 'npx', ['tsc', '-p', 'packages/contract'], null);
step('typecheck: server', 'npx', ['tsc', '-p', 'apps/server'], null);
step('typecheck: web', 'npx', ['tsc', '-p', 'apps/web'], null);
step('typecheck: e2e', 'npx', ['tsc', '-p', 'e2e'], null);
step('typecheck: bench', 'npx', ['tsc', '-p', 'bench'], null);
step('lint', 'npx', ['eslint', '.', '--max-warnings=0'], null);
step('import cycles: none, type imports included', process.execPath, ['scripts/check-cycles.mjs'], null);
step('dependencies: each workspace declares what it imports', process.execPath, ['scripts/check-deps.mjs'], null);
step('unit: contract', ...vitest('contract'));
step('unit: web', ...vitest('web'));
step(`integration: server on ${databases}`, ...vitest('server'));
step('e2e: Chromium', ...vitest('e2e'));

console.log('\n━━ Summary ━━');
for (const r of results) console.log(`${r.ok ? '✔' : '✘'} ${r.name.padEnd(60)} ${r.seconds.padStart(6)} s  ${r.counts}`);
console.log(`\nTests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
fs.rmSync(reportDir, { recursive: true, force: true });
process.exit(results.every((r) => r.ok) ? 0 : 1);
