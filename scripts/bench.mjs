// Benchmarks print figures; they assert nothing. Each file under bench/ runs in turn.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const files = fs.readdirSync(path.join(root, 'bench')).filter((f) => f.endsWith('.bench.ts')).sort();
let failed = 0;
for (const f of files) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join('bench', f)], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) failed += 1;
}
process.exit(failed ? 1 : 0);
