import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.ts';
import { DEMO_PARTNERS } from '../src/db/seed/demo.ts';
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

  it('reconcile: 0 differ on the seeded books (exit 0); a kept balance moved by hand is named (exit 1)', async () => {
    const where = await databaseEnv(kind);
    drops.push(where.drop);
    expect(run('cli.ts', ['seed'], where.env).status).toBe(0);
    const agreed = run('cli.ts', ['reconcile'], where.env);
    expect(agreed.status, agreed.stderr).toBe(0);
    expect(agreed.stdout).toMatch(/^\d+ accounts checked against the ledger: 0 differ\.$/m);
    // the kept balance of Acme's USD account moved by a cent, as no booking does
    const database =
      kind === 'pglite'
        ? await openDatabase({ kind: 'pglite', dataDir: path.join(where.env.DATA_DIR!, 'pgdata') })
        : await openDatabase({ kind: 'postgres', url: where.env.DATABASE_URL!, max: 1 });
    await database.db
      .updateTable('currency_accounts')
      .set((eb) => ({ balance: eb('balance', '+', '0.01') }))
      .where('partner_id', '=', DEMO_PARTNERS.acme.id)
      .where('currency', '=', 'USD')
      .execute();
    await database.close();
    const differs = run('cli.ts', ['reconcile'], where.env);
    expect(differs.status).toBe(1);
    expect(differs.stdout).toContain(`${DEMO_PARTNERS.acme.id} USD: kept`);
    expect(differs.stdout).toMatch(/: 1 differ\.$/m);
  }, 120_000);
});
