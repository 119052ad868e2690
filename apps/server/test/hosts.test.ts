import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openDatabase } from '../src/db/database.ts';
import { hostChooser, parseConnectionTargets } from '../src/db/hosts.ts';
import { serverDatabase } from './harness.ts';

describe('connection strings with several hosts', () => {
  it('splits libpq-style host lists, keeping user, database and options for each host', () => {
    const { targets, sessionAttrs } = parseConnectionTargets(
      'postgres://app:s3cret@10.0.0.1:5432,10.0.0.2,[::1]:6543/portal?target_session_attrs=read-write&sslmode=disable',
    );
    expect(sessionAttrs).toBe('read-write');
    expect(targets).toEqual([
      { host: '10.0.0.1', port: 5432, url: 'postgres://app:s3cret@10.0.0.1:5432/portal?sslmode=disable' },
      { host: '10.0.0.2', port: 5432, url: 'postgres://app:s3cret@10.0.0.2/portal?sslmode=disable' },
      { host: '::1', port: 6543, url: 'postgres://app:s3cret@[::1]:6543/portal?sslmode=disable' },
    ]);
    expect(parseConnectionTargets('postgresql://db.internal/portal')).toEqual({
      targets: [{ host: 'db.internal', port: 5432, url: 'postgresql://db.internal/portal' }],
      sessionAttrs: 'any',
    });
  });

  it('refuses what it cannot follow', () => {
    expect(() => parseConnectionTargets('mysql://x/y')).toThrow(/postgres:\/\//);
    expect(() => parseConnectionTargets('postgres://a:99999/db')).toThrow(/host\[:port\]/);
    expect(() => parseConnectionTargets('postgres://a/db?target_session_attrs=standby')).toThrow(/not supported/);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('following the writable host', () => {
  it('skips a host that refuses connections and takes the one that accepts writes', async () => {
    const { url, drop } = await serverDatabase();
    const real = new URL(url);
    // port 1 refuses every connection: the first host is down, as an old primary after a failover
    const multi = `postgres://${real.username}${real.password ? `:${real.password}` : ''}@127.0.0.1:1,${real.hostname}:${real.port || 5432}${real.pathname}?target_session_attrs=read-write`;
    const chooser = hostChooser(multi);
    expect(chooser.needed).toBe(true);
    expect(await chooser.current()).toMatchObject({ host: real.hostname, port: Number(real.port || 5432) });
    const database = await openDatabase({ kind: 'postgres', url: multi, max: 2 });
    try {
      const { rows } = await sql<{ one: number }>`select 1 as one`.execute(database.db);
      expect(rows).toEqual([{ one: 1 }]);
    } finally {
      await database.close();
      await drop();
    }
  });

  it('answers an outage when no host takes writes', async () => {
    const chooser = hostChooser('postgres://postgres@127.0.0.1:1,127.0.0.1:2/none?target_session_attrs=read-write');
    await expect(chooser.current()).rejects.toThrow('no host of the connection string takes writes');
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('reads that may go to a replica', () => {
  it('go to the primary when the "replica" is not in recovery, or cannot be reached, and the read still answers', async () => {
    const { url, drop } = await serverDatabase();
    // a read URL that is a primary: its data is not known to follow ours, so reads stay on the primary
    const notReplica = await openDatabase({ kind: 'postgres', url, readUrl: url, max: 2 });
    const downReplica = await openDatabase({ kind: 'postgres', url, readUrl: 'postgres://postgres@127.0.0.1:1/none', max: 2 });
    try {
      for (const database of [notReplica, downReplica]) {
        const reader = await database.reader();
        expect(reader).toBe(database.db);
        const { rows } = await sql<{ one: number }>`select 1 as one`.execute(reader);
        expect(rows).toEqual([{ one: 1 }]);
      }
      expect(notReplica.readStats()).toEqual({ replica: 0, primary: 1 });
      // a replica that failed rests: the next read does not try it again at once
      const started = Date.now();
      expect(await downReplica.reader()).toBe(downReplica.db);
      expect(Date.now() - started).toBeLessThan(50);
      expect(downReplica.readStats()).toEqual({ replica: 0, primary: 2 });
    } finally {
      await notReplica.close();
      await downReplica.close();
      await drop();
    }
  });
});
