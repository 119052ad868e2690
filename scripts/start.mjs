// npm start: builds the portal and the server when their sources changed, then runs the built server (plain
// JavaScript: no transpiler in the process). Stack traces name the TypeScript sources (source maps).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureServerBuild, serverDist } from './server-build.mjs';
import { ensureWebBuild } from './web-build.mjs';

const root = path.resolve(import.meta.dirname, '..');
if (Number(process.versions.node.split('.')[0]) < 22) {
  console.warn(`Node.js ${process.versions.node} is past its end of life and not supported: use Node.js 22 or 24 (see the README).`);
}
ensureWebBuild();
try {
  await ensureServerBuild();
} catch (err) {
  // an install without dev dependencies cannot build: it runs the build it has, if any
  if (err?.code !== 'ESBUILD_MISSING' || !fs.existsSync(path.join(serverDist, 'server.js'))) {
    console.error(`The server build failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
  console.warn(`The server could not be built again (${err instanceof Error ? err.message : String(err)}); running the last build.`);
}

const child = spawn(process.execPath, ['--enable-source-maps', path.join(serverDist, 'server.js')], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
