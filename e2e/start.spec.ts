import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '../apps/server/test/server-process.ts';

const root = path.resolve(import.meta.dirname, '..');

/**
 * `npm start` as an operator's service manager and a developer's Ctrl-C stop it: a SIGTERM to the npm process
 * alone (npm passes it to its script), or a SIGINT to the whole process group. Either way the server shuts down
 * gracefully, nothing is left running, and npm exits 0 within 10 s.
 */
describe('npm start', () => {
  async function started() {
    const port = await freePort();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-start-'));
    const npm = spawn('npm', ['start'], {
      cwd: root,
      detached: true, // its own process group, as a terminal gives it
      env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, MAIL_CATCHER: 'false', DEMO_LIVE: 'false', LOG_LEVEL: 'warn', NODE_ENV: 'development' },
      stdio: 'ignore',
    });
    const exited = new Promise<{ code: number | null; at: number }>((resolve) => npm.once('exit', (code) => resolve({ code, at: Date.now() })));
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 120_000;
    while (
      !(await fetch(`${url}/readyz`).then(
        (r) => r.ok,
        () => false,
      ))
    ) {
      if (Date.now() > deadline || npm.exitCode !== null) throw new Error('npm start did not come up');
      await new Promise((r) => setTimeout(r, 250));
    }
    return { npm, url, exited, dataDir };
  }
  const listening = (url: string) =>
    fetch(`${url}/healthz`).then(
      () => true,
      () => false,
    );

  /** Starts `npm start`, stops it with `stop`, and checks npm exits 0 within 10 s with nothing left listening. */
  async function stopsCleanly(stop: (npm: ReturnType<typeof spawn>) => void) {
    const { npm, url, exited, dataDir } = await started();
    const at = Date.now();
    stop(npm);
    const exit = await exited;
    expect(exit.code).toBe(0);
    expect(exit.at - at).toBeLessThan(10_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(await listening(url)).toBe(false);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  // the server itself must go too (before, it was left running when npm's shell died)
  it('stops on a SIGTERM to npm alone, leaving nothing running', () => stopsCleanly((npm) => npm.kill('SIGTERM')), 180_000);

  it('stops on Ctrl-C (SIGINT to the process group)', () => stopsCleanly((npm) => process.kill(-npm.pid!, 'SIGINT')), 180_000);
});
