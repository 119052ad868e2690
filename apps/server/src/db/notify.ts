import pg from 'pg';
import { sql, type Transaction } from 'kysely';
import type { DB } from './schema.ts';

/** The running PostgreSQL server a connection is on: its postmaster's start time and port (unique per running server, whatever the route). */
export const SERVER_IDENTITY_SQL =
  "select pg_postmaster_start_time()::text || ':' || current_setting('port') as server, pg_is_in_recovery() as recovery, pg_backend_pid() as pid";

/** the server (see SERVER_IDENTITY_SQL), whether it is read-only, and the connection's backend there */
export type ServerPlace = { server: string; recovery: boolean; pid: number };

export type Listener = {
  close(): Promise<void>;
  /** The server its connection is on, undefined while it is not listening (or the server does not answer within `ms`). */
  place(ms?: number): Promise<ServerPlace | undefined>;
  /** Drops the connection and listens again (through the same address: to wherever it leads now). */
  reconnect(): void;
};

/**
 * A bus's listening connection: on a PostgreSQL server (a `url`), `listen` on the channel, `ready` once the LISTEN is in
 * place; on the embedded database (one process: no other instance to hear) none, and `ready` at once.
 */
export function listenOnServer(
  database: { url?: string; listeners: Set<Listener> },
  options: { channel: string; onMessage: (payload: string) => void; onReconnect: () => void; onError?: (err: unknown) => void },
): { listener: Listener | undefined; ready: Promise<void> } {
  if (!database.url) return { listener: undefined, ready: Promise.resolve() };
  let listening: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (listening = resolve));
  const listener = listen({
    ...options,
    url: database.url,
    registry: database.listeners,
    onListening: () => listening(),
    onError: options.onError ?? (() => undefined),
  });
  return { listener, ready };
}

/**
 * A dedicated connection that LISTENs on a channel of a PostgreSQL server and hands each payload to `onMessage`. A
 * lost connection is opened again (every second until it works); `onReconnect` runs each time, since messages sent
 * while it was down are lost and whatever they would have told must be assumed.
 */
export function listen(options: {
  url: string;
  channel: string;
  onMessage: (payload: string) => void;
  /** each time the LISTEN is in place */
  onListening: () => void;
  onReconnect: () => void;
  onError: (err: unknown) => void;
  /** where the listener is kept while open, for the readiness check (Database.listeners) */
  registry?: Set<Listener>;
}): Listener {
  let closed = false;
  let client: pg.Client | undefined;
  /** the connection being opened, not yet listening: a close meanwhile must end it too */
  let opening: pg.Client | undefined;
  let timer: NodeJS.Timeout | undefined;
  let first = true;

  const connect = async () => {
    if (closed) return;
    const c = new pg.Client({ connectionString: options.url, connectionTimeoutMillis: 5000, keepAlive: true });
    c.on('notification', (n) => {
      if (n.channel === options.channel && n.payload !== undefined) options.onMessage(n.payload);
    });
    c.on('error', (err) => {
      options.onError(err);
      retry(c);
    });
    c.on('end', () => retry(c));
    opening = c;
    try {
      await c.connect();
      await c.query(`listen ${pg.escapeIdentifier(options.channel)}`);
      opening = undefined;
      // closed while it was connecting: it must not stay open (it would keep the process alive)
      if (closed) return void (await endQuietly(c));
      client = c;
      if (!first) options.onReconnect();
      options.onListening();
      first = false;
    } catch (err) {
      opening = undefined;
      if (closed) return void endQuietly(c);
      options.onError(err);
      retry(c);
    }
  };
  const retry = (c: pg.Client) => {
    if (closed || timer || (client && client !== c)) return;
    client = undefined;
    void endQuietly(c);
    options.onReconnect();
    timer = setTimeout(() => {
      timer = undefined;
      void connect();
    }, 1000);
    timer.unref();
  };
  void connect();
  const listener: Listener = {
    async place(ms = 2000) {
      const c = client;
      if (!c) return undefined;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
      try {
        return await Promise.race([
          c.query<ServerPlace>(SERVER_IDENTITY_SQL).then(
            (r) => r.rows[0],
            () => undefined,
          ),
          late,
        ]);
      } finally {
        clearTimeout(timer);
      }
    },
    reconnect() {
      if (client) retry(client);
    },
    async close() {
      options.registry?.delete(listener);
      closed = true;
      if (timer) clearTimeout(timer);
      const open = [client, opening].filter((c) => c !== undefined);
      client = undefined;
      opening = undefined;
      await Promise.all(open.map(endQuietly));
    },
  };
  options.registry?.add(listener);
  return listener;
}

/** Ends a connection without its end (or a failure to end) starting a reconnection; waits a second at most. */
async function endQuietly(c: pg.Client) {
  c.removeAllListeners('end');
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, 1000)).unref());
  await Promise.race([c.end().catch(() => undefined), late]);
  clearTimeout(timer);
}

/** Sends `NOTIFY <channel> '<payload>'` inside a transaction: PostgreSQL delivers it when (and only if) it commits. */
export async function notifyInTransaction(trx: Transaction<DB>, channel: string, payload: string) {
  await sql`select pg_notify(${channel}, ${payload})`.execute(trx);
}

/** Sends one `NOTIFY <channel>` per payload inside a transaction, in one statement. */
export async function notifyManyInTransaction(trx: Transaction<DB>, channel: string, payloads: string[]) {
  if (payloads.length === 0) return;
  await sql`select pg_notify(${channel}, p) from unnest(${payloads}::text[]) as p`.execute(trx);
}
