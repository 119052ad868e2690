import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const serverDir = path.resolve(import.meta.dirname, '..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/**
 * The real server as a process of its own (`src/server.ts`, as `npm start` runs it), without the portal's files,
 * on a free port (or PORT): for what only a process shows (that it lives through a fault, how it exits on a signal).
 * `dir` is the server's folder (default this checkout's; the performance guard runs another build's).
 */
export async function startServerProcess(env: Record<string, string>, dir = serverDir) {
  // a given PORT is kept (a server started again where the browser left it)
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const ownDir = env.DATA_DIR === undefined;
  const dataDir = env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'portal-process-'));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: dir,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      WEB_DIST: '/nonexistent-web-dist',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'development',
      MAIL_CATCHER: 'false',
      DEMO_LIVE: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${out}`);
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`server not ready in time:\n${out}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    dataDir,
    output: () => out,
    alive: () => child.exitCode === null && child.signalCode === null,
    exited,
    signal: (name: NodeJS.Signals) => child.kill(name),
    /** SIGTERM, and SIGKILL if it has not exited 15 s later; a data directory made here is removed */
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(killer);
      }
      if (ownDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type ServerProcess = Awaited<ReturnType<typeof startServerProcess>>;
