import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../src/config.ts';
import { seedDemo } from '../src/db/seed/demo.ts';
import { KeyMismatchError, keyCheckValue } from '../src/lib/key-check.ts';
import { decrypt, keyRing } from '../src/lib/keys.ts';
import { openRuntime } from '../src/runtime.ts';
import { databaseEnv, newKeys, run, tempDir } from './cli-process.ts';
import { DATABASES } from './harness.ts';

const config = (env: Record<string, string>): Config => loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DEMO: 'false', ...env });

/** Opens and closes the runtime; the error when it refuses. */
async function open(env: Record<string, string>): Promise<KeyMismatchError | undefined> {
  try {
    const { database } = await openRuntime(config(env));
    await database.close();
    return undefined;
  } catch (err) {
    if (err instanceof KeyMismatchError) return err;
    throw err;
  }
}

describe.each(DATABASES)('the key check at start on %s', (kind) => {
  const drops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const drop of drops) await drop();
  });

  it('accepts the keys the database was created with and refuses others, naming the variable', async () => {
    const where = await databaseEnv(kind);
    drops.push(where.drop);
    const a = newKeys();
    const b = newKeys();

    expect(await open({ ...where.env, ...a })).toBeUndefined();
    // the database keeps check values, never the keys
    const { database } = await openRuntime(config({ ...where.env, ...a }));
    const row = await database.db.selectFrom('key_check').selectAll().executeTakeFirstOrThrow();
    await database.close();
    expect(row.jwt_secret_check).toBe(keyCheckValue(Buffer.from(a.JWT_SECRET, 'base64')));
    expect(row.encryption_key_check).toBe(keyCheckValue(Buffer.from(a.ENCRYPTION_KEY, 'base64')));
    expect(JSON.stringify(row)).not.toContain(a.JWT_SECRET);
    expect(JSON.stringify(row)).not.toContain(a.ENCRYPTION_KEY);

    const both = await open({ ...where.env, ...b });
    expect(both).toBeInstanceOf(KeyMismatchError);
    expect(both!.message).toMatch(/^Refusing to start: the keys do not match the database\./);
    expect(both!.message).toContain('  JWT_SECRET: not the key this database was created with (in use: the one from the environment)');
    expect(both!.message).toContain('  ENCRYPTION_KEY: not the key this database was created with (in use: the one from the environment)');
    expect(both!.message).not.toContain(b.ENCRYPTION_KEY);

    const encryptionOnly = await open({ ...where.env, JWT_SECRET: a.JWT_SECRET, ENCRYPTION_KEY: b.ENCRYPTION_KEY });
    expect(encryptionOnly!.message).toContain('ENCRYPTION_KEY: not the key');
    expect(encryptionOnly!.message).not.toContain('JWT_SECRET');

    const jwtOnly = await open({ ...where.env, JWT_SECRET: b.JWT_SECRET, ENCRYPTION_KEY: a.ENCRYPTION_KEY });
    expect(jwtOnly!.message).toContain('JWT_SECRET: not the key');
    expect(jwtOnly!.message).not.toContain('ENCRYPTION_KEY:');

    expect(await open({ ...where.env, ...a })).toBeUndefined();
  }, 90_000);

  it('stops the server and the CLI with exit code 78 and the message', async () => {
    const where = await databaseEnv(kind);
    drops.push(where.drop);
    const a = newKeys();
    const b = newKeys();
    expect(await open({ ...where.env, ...a })).toBeUndefined();
    const server = run('server.ts', [], { ...where.env, ...b });
    expect(server.status, server.stderr).toBe(78);
    expect(server.stderr).toContain('ENCRYPTION_KEY: not the key this database was created with');
    const cli = run('cli.ts', ['migrate'], { ...where.env, ...b });
    expect(cli.status, cli.stderr).toBe(78);
    expect(cli.stderr).toContain('JWT_SECRET: not the key this database was created with');
    // and start with the right keys
    const fine = run('cli.ts', ['migrate'], { ...where.env, ...a });
    expect(fine.status, fine.stderr).toBe(0);
    expect(fine.stdout).toContain('The database is up to date.');
  }, 90_000);

  it('checks a database from before the check against its stored secrets before writing the values', async () => {
    const where = await databaseEnv(kind);
    drops.push(where.drop);
    const a = newKeys();
    const { database } = await openRuntime(config({ ...where.env, ...a }));
    await seedDemo(database.db, keyRing(Buffer.from(a.ENCRYPTION_KEY, 'base64')), { transactions: false });
    await database.db.deleteFrom('key_check').execute();
    await database.close();

    const refused = await open({ ...where.env, ...newKeys() });
    expect(refused!.message).toContain('ENCRYPTION_KEY: not the key this database was created with');
    expect(refused!.message).toContain('no sign-in code would be accepted');

    expect(await open({ ...where.env, ...a })).toBeUndefined();
    const again = await openRuntime(config({ ...where.env, ...a }));
    const row = await again.database.db.selectFrom('key_check').selectAll().executeTakeFirst();
    await again.database.close();
    expect(row?.encryption_key_check).toBe(keyCheckValue(Buffer.from(a.ENCRYPTION_KEY, 'base64')));
  }, 90_000);

  it('rotates both keys as docs/deployment.md says: accepted, then signing, then `cli rekey`, then alone', async () => {
    const where = await databaseEnv(kind);
    drops.push(where.drop);
    const a = newKeys();
    const b = newKeys();
    const seeded = run('cli.ts', ['seed'], { ...where.env, ...a });
    expect(seeded.status, seeded.stderr).toBe(0);
    const stage1 = { ...a, JWT_SECRET_ACCEPTED: b.JWT_SECRET, ENCRYPTION_KEY_ACCEPTED: b.ENCRYPTION_KEY };
    const stage2 = { ...b, JWT_SECRET_ACCEPTED: a.JWT_SECRET, ENCRYPTION_KEY_ACCEPTED: a.ENCRYPTION_KEY };
    expect(await open({ ...where.env, ...stage1 })).toBeUndefined();
    expect(await open({ ...where.env, ...stage2 })).toBeUndefined();
    // the new keys alone, before rekey: refused, and told what to do
    const early = await open({ ...where.env, ...b });
    expect(early!.message).toMatch(/JWT_SECRET: not the key[\s\S]*ENCRYPTION_KEY: not the key[\s\S]*`cli rekey`/);

    const rekeyed = run('cli.ts', ['rekey'], { ...where.env, ...stage2 });
    expect(rekeyed.status, rekeyed.stderr).toBe(0);
    expect(rekeyed.stdout).toMatch(/^\d+ secrets sealed again with the current ENCRYPTION_KEY; the database now belongs to the current keys/m);
    expect(Number(/^(\d+) secrets/m.exec(rekeyed.stdout)![1])).toBeGreaterThan(0);
    expect(await open({ ...where.env, ...b })).toBeUndefined();
    expect((await open({ ...where.env, ...a }))!.message).toMatch(/JWT_SECRET: not the key[\s\S]*ENCRYPTION_KEY: not the key/);
    // the secrets open with the new key alone: every authenticator secret is sealed with it
    const { database, keys } = await openRuntime(config({ ...where.env, ...b }));
    const rows = await database.db.selectFrom('users').select('totp_secret_enc').where('totp_secret_enc', 'is not', null).execute();
    await database.close();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(decrypt(keys.encryptionKey, row.totp_secret_enc!)).toMatch(/^[A-Z2-7]+$/);
  }, 120_000);

  it.skipIf(kind !== 'postgres')(
    'refuses a server whose DATA_DIR holds other generated keys than the one that seeded the database',
    async () => {
      const where = await databaseEnv(kind);
      drops.push(where.drop);
      const seeded = run('cli.ts', ['seed'], { DATABASE_URL: where.env.DATABASE_URL!, DATA_DIR: where.env.DATA_DIR! });
      expect(seeded.status, seeded.stderr).toBe(0);
      const otherDir = tempDir();
      const server = run('server.ts', [], { DATABASE_URL: where.env.DATABASE_URL!, DATA_DIR: otherDir });
      expect(server.status, server.stderr).toBe(78);
      expect(server.stderr).toContain(`in use: the one from ${path.join(otherDir, 'keys.json')}`);
      expect(server.stderr).toMatch(/JWT_SECRET: not the key[\s\S]*ENCRYPTION_KEY: not the key/);
    },
    90_000,
  );
});
