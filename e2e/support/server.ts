import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, inject } from 'vitest';
import { launch } from './browser.ts';
import { forgetUsedCodes } from './portal.ts';
// @ts-expect-error -- a plain .mjs helper shared with npm start
import { ensureWebBuild } from '../../scripts/web-build.mjs';
import { startServerProcess } from '../../apps/server/test/server-process.ts';

const root = path.resolve(import.meta.dirname, '../..');

export type RunningServer = { url: string; dataDir: string; output(): string; stop(): Promise<void> };

/**
 * Starts the real server (built portal, embedded database with demo data) on a free port in a fresh data dir: a copy
 * of the one the run's setup seeded (the same schema, demo data and keys, made once), or the given DATA_DIR as it is.
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  (ensureWebBuild as () => boolean)();
  let dataDir = env.DATA_DIR;
  if (dataDir === undefined) {
    // a fresh database (not a server started again on its data): no authenticator code is used there yet
    forgetUsedCodes();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-'));
    if (env.DATABASE_URL === undefined) fs.cpSync(inject('seededDataDir'), dataDir, { recursive: true });
  }
  const server = await startServerProcess({ WEB_DIST: path.join(root, 'apps/web/dist'), ...env, DATA_DIR: dataDir });
  return { url: server.url, dataDir, output: server.output, stop: server.stop };
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
