import crypto from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { checkListeners, openDatabase } from '../src/db/database.ts';
import { listen, type Listener } from '../src/db/notify.ts';

/**
 * The LISTEN connection of the live bus, the cache bus and the webhook relay. A listener closed before its connection
 * was open used to open it anyway and keep listening, which kept a CLI command (`set-flags`) from ever exiting.
 */
const url = process.env.TEST_DATABASE_URL;

async function listeningConnections(channel: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(`select count(*) as n from pg_stat_activity where query = $1`, [`listen "${channel}"`]);
    return Number(rows[0]!.n);
  } finally {
    await client.end();
  }
}

describe.runIf(url)('a LISTEN connection on PostgreSQL', () => {
  const quiet = { onMessage: () => undefined, onListening: () => undefined, onReconnect: () => undefined, onError: () => undefined };

  it('listens once open, and is gone after close', async () => {
    const channel = `probe_${crypto.randomBytes(4).toString('hex')}`;
    let listening = false;
    const listener = listen({ url: url!, channel, ...quiet, onListening: () => (listening = true) });
    await expect.poll(() => listening).toBe(true);
    expect(await listeningConnections(channel)).toBe(1);
    await listener.close();
    await expect.poll(() => listeningConnections(channel)).toBe(0);
  });

  it('closed before its connection is open, leaves no connection behind', async () => {
    const channel = `probe_${crypto.randomBytes(4).toString('hex')}`;
    let listening = false;
    const listener = listen({ url: url!, channel, ...quiet, onListening: () => (listening = true) });
    await listener.close();
    // give a connection that was still opening every chance to finish (and, before the fix, to stay)
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(listening).toBe(false);
    expect(await listeningConnections(channel)).toBe(0);
  });

  it('readiness: ready while every listener is on the server writes go to; one cut off makes it not ready until it is back', async () => {
    const database = await openDatabase({ kind: 'postgres', url: url!, max: 2 });
    const channel = `probe_${crypto.randomBytes(4).toString('hex')}`;
    let listens = 0;
    const listener = listen({ url: url!, registry: database.listeners, channel, ...quiet, onListening: () => listens++ });
    try {
      await expect.poll(() => listens).toBe(1);
      expect(await checkListeners(database)).toEqual({ ok: true });
      const place = await listener.place();
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query('select pg_terminate_backend($1)', [place!.pid]);
      await admin.end();
      await expect.poll(async () => (await checkListeners(database)).ok, { interval: 20 }).toBe(false);
      const notListening = await checkListeners(database);
      expect(notListening.ok ? '' : notListening.reason).toContain('not listening');
      await expect.poll(() => listens, { timeout: 5000 }).toBe(2);
      expect(await checkListeners(database)).toEqual({ ok: true });
    } finally {
      await listener.close();
      await database.close();
    }
    expect(database.listeners.size).toBe(0);
  });

  it('readiness: a listener on a read-only node, or on another server than the writes, is not ready and is told to reconnect', async () => {
    const database = await openDatabase({ kind: 'postgres', url: url!, max: 2 });
    const reconnects: string[] = [];
    const elsewhere = (name: string, place: { server: string; recovery: boolean; pid: number }): Listener => ({
      place: async () => place,
      reconnect: () => void reconnects.push(name),
      close: async () => undefined,
    });
    try {
      database.listeners.add(elsewhere('standby', { server: 'x', recovery: true, pid: 1 }));
      const standby = await checkListeners(database);
      expect(standby.ok ? '' : standby.reason).toContain('read-only node');
      database.listeners.clear();
      database.listeners.add(elsewhere('former primary', { server: '2026-01-01 00:00:00+00:5432', recovery: false, pid: 1 }));
      const formerPrimary = await checkListeners(database);
      expect(formerPrimary.ok ? '' : formerPrimary.reason).toContain('another node than the one writes go to');
      expect(reconnects).toEqual(['standby', 'former primary']);
    } finally {
      await database.close();
    }
  });
});
