import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openDatabase } from '../src/db/database.ts';
import { checkConnectionString } from '../src/db/hosts.ts';
import { run, tempDir } from './cli-process.ts';
import { serverDatabase } from './harness.ts';

describe('connection strings', () => {
  it('take one host: a list of hosts to choose from, or target_session_attrs, is refused with the way to follow the primary', () => {
    for (const ok of ['postgres://app:s3cret@10.0.0.1:5432/portal?sslmode=disable', 'postgresql://db.internal/portal', 'postgres://u@[::1]:6543/db']) {
      expect(() => checkConnectionString(ok), ok).not.toThrow();
    }
    expect(() => checkConnectionString('postgres://u@10.0.0.1:5432,10.0.0.2:5432/portal')).toThrow(
      /several hosts: give one address that always leads to the primary/,
    );
    expect(() => checkConnectionString('postgres://u@10.0.0.1/portal?target_session_attrs=read-write')).toThrow(/target_session_attrs is not followed/);
    expect(() => checkConnectionString('mysql://x/y')).toThrow(/postgres:\/\//);
    expect(() => checkConnectionString('postgres://a:99999/db')).toThrow(/host\[:port\]/);
  });

  it('a server given several hosts stops at start, naming the variable (exit 78)', () => {
    const result = run('server.ts', [], { DATA_DIR: tempDir(), DATABASE_URL: 'postgres://u@127.0.0.1:1,127.0.0.1:2/portal' });
    expect(result.status).toBe(78);
    expect(result.stderr).toContain('DATABASE_URL');
    expect(result.stderr).toContain('several hosts');
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
