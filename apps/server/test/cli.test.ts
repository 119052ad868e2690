import { afterAll, describe, expect, it } from 'vitest';
import { databaseEnv, run } from './cli-process.ts';
import { DATABASES } from './harness.ts';

describe.each(DATABASES)('the operator CLI on %s', (kind) => {
  const drops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const drop of drops) await drop();
  });

  it('every command ends by itself: set-flags tells running servers to drop the partner, and exits', async () => {
    const where = await databaseEnv(kind);
    drops.push(where.drop);
    expect(run('cli.ts', ['seed'], where.env).status).toBe(0);
    const started = Date.now();
    // it used to keep a listening connection open on a PostgreSQL server, and wait for it until killed
    const flags = run('cli.ts', ['set-flags', '--partner', 'ACME', '--off', 'webhooksManagementEnabled'], where.env);
    expect(flags.signal, `still running after ${Date.now() - started} ms: ${flags.stdout}${flags.stderr}`).toBeNull();
    expect(flags.status, flags.stderr).toBe(0);
    expect(flags.stdout).toMatch(/off {2}webhooksManagementEnabled/);
  }, 120_000);
});
