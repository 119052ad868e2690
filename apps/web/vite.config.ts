/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { defineConfig } from 'vite';

/** The product's version (the repository's package.json), the commit and the time of this build: the About screen. */
function buildInfo() {
  const root = new URL('../../', import.meta.url);
  const { version } = JSON.parse(fs.readFileSync(new URL('package.json', root), 'utf8')) as { version?: string };
  let commit = process.env.PORTAL_COMMIT ?? '';
  if (!commit) {
    try {
      commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      commit = 'unknown';
    }
  }
  return { version: version ?? '0.0.0', commit, builtAt: new Date().toISOString() };
}

export default defineConfig({
  plugins: [react(), tailwindcss()],
  define: { __PORTAL_BUILD__: JSON.stringify(buildInfo()) },
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:8080', '/healthz': 'http://127.0.0.1:8080', '/readyz': 'http://127.0.0.1:8080' },
  },
  build: { target: 'es2022', sourcemap: false, chunkSizeWarningLimit: 400 },
  test: {
    name: 'web',
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/testing/setup.ts'],
  },
});
