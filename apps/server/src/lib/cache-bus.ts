import type { Database } from '../db/database.ts';
import { listenOnServer } from '../db/notify.ts';

/** What every cache the bus keeps coherent must offer. */
type Droppable = { delete(key: string): void; clear(): void };
/** Told of every drop: a cache's name and the key ('*': all of it, and everything after a lost connection). */
export type DropListener = (name: string, key: string) => void;

export const CACHE_CHANNEL = 'portal_cache';

/**
 * Keeps the in-process caches of several server instances coherent. A change drops its entry here at once and,
 * on a PostgreSQL server, sends `NOTIFY portal_cache '<cache>|<key>'` so that every other instance (and this one's
 * listener) drops it too. The embedded database serves one process only, so there the local drop is all there is.
 * If the listening connection is lost, every cache is cleared when it comes back (messages may have been missed);
 * the caches' short time-to-live bounds what a lost message can cost. Code that must react to a change rather than
 * cache it (an open event stream: a session ended, a role changed) listens with `onDrop`.
 */
export function createCacheBus(options: { database: Database; onError?: (err: unknown) => void }) {
  const caches = new Map<string, Droppable>();
  const listeners = new Set<DropListener>();
  const tell = (name: string, key: string) => {
    for (const listener of listeners) {
      try {
        listener(name, key);
      } catch (err) {
        options.onError?.(err);
      }
    }
  };
  const drop = (payload: string) => {
    const at = payload.indexOf('|');
    const name = at < 0 ? payload : payload.slice(0, at);
    const key = at < 0 ? '' : payload.slice(at + 1);
    const cache = caches.get(name);
    if (key === '*') cache?.clear();
    else cache?.delete(key);
    tell(name, key);
  };
  // after a lost connection anything may have changed: every cache is cleared, and listeners hear '*' for each
  const clearAll = () =>
    caches.forEach((c, name) => {
      c.clear();
      tell(name, '*');
    });
  const { listener, ready } = listenOnServer(options.database, {
    channel: CACHE_CHANNEL,
    onMessage: drop,
    onReconnect: clearAll,
    onError: options.onError,
  });

  return {
    /** Resolves once this instance hears the others (at once on the embedded database). */
    ready,
    /** Registers a cache under a name that other instances use for it. */
    attach(name: string, cache: Droppable) {
      caches.set(name, cache);
    },
    /**
     * Calls `listener` with each drop: this instance's own (at once, before `invalidate` resolves) and each one heard
     * from an instance (on a PostgreSQL server this instance hears its own again), and with '*' for every cache
     * when the listening connection came back after a loss. Returns the unsubscribe.
     */
    onDrop(listener: DropListener): () => void {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    /** Drops `key` from the named cache here and on every other instance ('*' drops all of it). */
    async invalidate(name: string, ...keys: string[]) {
      for (const key of keys) drop(`${name}|${key}`);
      await announce(options.database, name, keys);
    },
    close: async () => listener?.close(),
  };
}

export type CacheBus = ReturnType<typeof createCacheBus>;

/**
 * Tells every running server to drop keys of a cache, from a process that changes shared data but serves nothing
 * (the operator CLI): on a PostgreSQL server a NOTIFY reaches them; the embedded database has no other process.
 */
export async function invalidateEverywhere(database: Database, name: string, ...keys: string[]) {
  // a NOTIFY only: listening (as a bus does) would open a connection a short-lived process must then wait for
  await announce(database, name, keys);
}

/** Tells every listening instance to drop the keys (a PostgreSQL server); the embedded database has no other. */
async function announce(database: Database, name: string, keys: string[]) {
  if (!database.url) return;
  for (const key of keys) await database.executeSql('select pg_notify($1, $2)', [CACHE_CHANNEL, `${name}|${key}`]);
}
