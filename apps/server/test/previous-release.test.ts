import fs from 'node:fs';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addWorktree, git, previousRelease, removeWorktree } from '../../../scripts/worktree.mjs';
import { loadConfig } from '../src/config.ts';
import { RELEASE_MIGRATIONS, migrateToLatest } from '../src/db/migrate.ts';
import { openRuntime } from '../src/runtime.ts';
import { databaseEnv, newKeys, run } from './cli-process.ts';
import { DATABASES } from './harness.ts';
import { httpClient } from './http-client.ts';
import { startServerProcess } from './server-process.ts';

const thisServer = path.resolve(import.meta.dirname, '..');
const previous = previousRelease();

/**
 * A rollback and a roll forward with the real builds: this release migrates a database and writes to it, the previous
 * release's server (its own code, checked out from git: PREVIOUS_RELEASE, else the newest commit before this one that
 * changed the server) starts on that schema without migrating and reads and writes, this release reads what it wrote,
 * and the previous one starts again. What makes it possible: migrations are a release step, a server checks the schema
 * instead of migrating, and a release tolerates the expand migrations of a newer one (src/db/migrate.ts).
 */
describe.skipIf(!previous).each(DATABASES)('the previous release on this release’s schema (%s)', (kind) => {
  let previousDir = '';
  const drops: (() => Promise<void>)[] = [];

  beforeAll(() => {
    previousDir = addWorktree(previous!, 'portal-previous-release-');
  }, 180_000);
  afterAll(async () => {
    if (previousDir) removeWorktree(previousDir);
    for (const drop of drops) await drop();
  });

  it('starts without migrating, reads and writes; this release reads what it wrote; and it starts again after this one', async () => {
    const where = await databaseEnv(kind);
    drops.push(where.drop);
    const env = { ...where.env, ...newKeys(), DEMO: 'false', MIGRATE_AT_START: 'false' };
    // this release's migrate step and the demo data (with this release's CLI)
    for (const command of ['migrate', 'seed']) {
      const r = run('cli.ts', [command], { ...env, DEMO: 'true' });
      expect(r.status, `${command}: ${r.stdout}${r.stderr}`).toBe(0);
    }
    const known = migrationsIn(path.join(previousDir, 'apps/server'));
    const newer = migrationsIn(thisServer).filter((m) => !known.includes(m));
    // a release that adds no migration: one expand step (a nullable column), applied as a migrate step applies one, so
    // that the previous release always meets a migration it does not know
    if (newer.length === 0) {
      const { database } = await openRuntime(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env }));
      try {
        const probe = '9999-rollback-probe-expand';
        const migrations = {
          ...RELEASE_MIGRATIONS,
          [probe]: { up: (db: Kysely<unknown>) => sql`alter table partners add column rollback_probe text`.execute(db).then(() => undefined) },
        };
        expect(await migrateToLatest(database.db, { migrations })).toEqual([probe]);
        newer.push(probe);
      } finally {
        await database.close();
      }
    }
    console.log(
      `${kind}: previous release ${previous!.slice(0, 10)} (${git('log', '-1', '--format=%cs %s', previous!).slice(0, 80)}); migrations it does not know: ${newer.join(', ') || 'none'}`,
    );

    /** A collection of 1,000 KES made by `email` on `url`, as the portal makes one; answers its id. */
    const collect = async (url: string, email: string) => {
      const client = httpClient(url);
      await client.signIn(email);
      const channels = await client.get('/api/v1/channels?country=KE&rampType=deposit');
      expect(channels.status, channels.text).toBe(200);
      const momo = (channels.body as { channels: { id: string; channelType: string }[] }).channels.find((c) => c.channelType === 'momo')!;
      const made = await client.post('/api/v1/partner/collection', {
        country: 'KE',
        channelId: momo.id,
        accountNumber: '254722000111',
        payer: { name: 'Kofi Mensah' },
        amount: '1000',
        sequenceId: crypto.randomUUID(),
      });
      expect(made.status, made.text).toBe(201);
      return { client, id: (made.body as { payment: { id: string } }).payment.id };
    };
    const readable = async (client: ReturnType<typeof httpClient>, id: string) => (await client.get(`/api/v1/collections/${id}`)).status;

    // rolled back: the previous release on this one's schema
    const before = await startServerProcess(env, path.join(previousDir, 'apps/server'));
    let byPrevious: Awaited<ReturnType<typeof collect>>;
    try {
      byPrevious = await collect(before.url, 'admin@acme.test');
      expect(await readable(byPrevious.client, byPrevious.id)).toBe(200);
    } finally {
      await before.stop();
    }
    // rolled forward: this release reads what the previous one wrote, and writes
    const now = await startServerProcess(env, thisServer);
    let byThis: Awaited<ReturnType<typeof collect>>;
    try {
      byThis = await collect(now.url, 'admin2@acme.test');
      expect(await readable(byThis.client, byPrevious.id)).toBe(200);
    } finally {
      await now.stop();
    }
    // and back again: the previous release reads what this one wrote
    const again = await startServerProcess(env, path.join(previousDir, 'apps/server'));
    try {
      const client = httpClient(again.url);
      await client.signIn('treasury@acme.test');
      expect(await readable(client, byThis.id)).toBe(200);
      expect(again.output()).not.toMatch(/migrat\w* (failed|refused)|corrupted migrations/i);
    } finally {
      await again.stop();
    }
  }, 180_000);
});

/** The migrations a server's folder holds (src/db/migrations). */
const migrationsIn = (serverDir: string) =>
  fs
    .readdirSync(path.join(serverDir, 'src/db/migrations'))
    .filter((f) => /^\d{4}-.*\.ts$/.test(f))
    .map((f) => f.replace(/\.ts$/, ''));
