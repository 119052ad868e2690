// Benchmarks print figures; they assert nothing. Each file under bench/ runs in turn; names given after `--` pick
// some of them (`npm run bench -- report-queue` runs bench/report-queue.bench.ts only).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const wanted = process.argv.slice(2);
const files = fs
  .readdirSync(path.join(root, 'bench'))
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)))
  .sort();
if (files.length === 0) {
  console.error(`no benchmark matches ${wanted.join(', ')}`);
  process.exit(1);
}
let failed = 0;
for (const f of files) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join('bench', f)], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) failed += 1;
}
process.exit(failed ? 1 : 0);
