import crypto from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { listen } from '../src/db/notify.ts';

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
});
