import type { Database } from '../db/database.ts';
import { listen, type Listener } from '../db/notify.ts';

/** What every cache the bus keeps coherent must offer. */
type Droppable = { delete(key: string): void; clear(): void };

export const CACHE_CHANNEL = 'portal_cache';

/**
 * Keeps the in-process caches of several server instances coherent. A change drops its entry here at once and,
 * on a PostgreSQL server, sends `NOTIFY portal_cache '<cache>|<key>'` so that every other instance (and this one's
 * listener) drops it too. The embedded database serves one process only, so there the local drop is all there is.
 * If the listening connection is lost, every cache is cleared when it comes back (messages may have been missed);
 * the caches' short time-to-live bounds what a lost message can cost.
 */
export function createCacheBus(options: { database: Database; onError?: (err: unknown) => void }) {
  const caches = new Map<string, Droppable>();
  const drop = (payload: string) => {
    const at = payload.indexOf('|');
    const name = at < 0 ? payload : payload.slice(0, at);
    const key = at < 0 ? '' : payload.slice(at + 1);
    const cache = caches.get(name);
    if (!cache) return;
    if (key === '*') cache.clear();
    else cache.delete(key);
  };
  const clearAll = () => caches.forEach((c) => c.clear());
  const url = options.database.url;
  let listening: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (listening = resolve));
  const listener: Listener | undefined = url
    ? listen({ url, channel: CACHE_CHANNEL, onMessage: drop, onListening: () => listening(), onReconnect: clearAll, onError: options.onError ?? (() => undefined) })
    : undefined;
  if (!listener) listening();

  return {
    /** Resolves once this instance hears the others (at once on the embedded database). */
    ready,
    /** Registers a cache under a name that other instances use for it. */
    attach(name: string, cache: Droppable) {
      caches.set(name, cache);
    },
    /** Drops `key` from the named cache here and on every other instance ('*' drops all of it). */
    async invalidate(name: string, ...keys: string[]) {
      for (const key of keys) drop(`${name}|${key}`);
      if (!url) return;
      for (const key of keys) await options.database.executeSql('select pg_notify($1, $2)', [CACHE_CHANNEL, `${name}|${key}`]);
    },
    close: async () => listener?.close(),
  };
}

export type CacheBus = ReturnType<typeof createCacheBus>;
