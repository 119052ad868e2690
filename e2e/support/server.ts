import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { launch } from './browser.ts';
// @ts-expect-error -- a plain .mjs helper shared with npm start
import { ensureWebBuild } from '../../scripts/web-build.mjs';

const root = path.resolve(import.meta.dirname, '../..');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export type RunningServer = { url: string; dataDir: string; output(): string; stop(): Promise<void> };

/** Starts the real server (built portal, embedded database with demo data) on a free port in a fresh data dir. */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  (ensureWebBuild as () => boolean)();
  const port = await freePort();
  const dataDir = env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-'));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'development', MAIL_CATCHER: 'false', DEMO_LIVE: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${out}`);
    try {
      const res = await fetch(`${url}/readyz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server not ready in time:\n${out}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    dataDir,
    output: () => out,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * For a describe block: a real server (with these settings) and Chromium, started before its tests and stopped
 * after. Read them from the returned object inside the tests. Every test also fails on any Content-Security-Policy
 * violation in the pages it opened (the server's policy must never block the portal).
 */
export function serverAndBrowser(env: Record<string, string> = {}) {
  const ctx = {} as { server: RunningServer; browser: Browser & { cspViolations: string[] } };
  beforeAll(async () => {
    [ctx.server, ctx.browser] = await Promise.all([startServer(env), launch()]);
  });
  afterEach(() => {
    const violations = ctx.browser ? ctx.browser.cspViolations.splice(0) : [];
    expect(violations, 'Content-Security-Policy violations').toEqual([]);
  });
  afterAll(async () => {
    await ctx.browser?.close();
    await ctx.server?.stop();
  });
  return ctx;
}
