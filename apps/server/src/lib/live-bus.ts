import { EventEmitter } from 'node:events';
import type { Transaction } from 'kysely';
import type { LiveEvent } from '@portal/contract/payments';
import type { Database } from '../db/database.ts';
import type { DB } from '../db/schema.ts';
import { listen, notifyInTransaction, type Listener } from '../db/notify.ts';

export const LIVE_CHANNEL = 'portal_live';

export type LiveMessage = LiveEvent & { partnerId: string };
type Subscriber = (event: LiveEvent) => void;

/**
 * The changes the portal's event stream (GET events) pushes, per partner. On a PostgreSQL server a change sends
 * `NOTIFY portal_live '<json>'` inside its transaction, so it is heard when (and only if) it commits, by every
 * instance (each LISTENs on a connection of its own) and each hands it to its own subscribers of that partner. The
 * embedded database serves one process: the change is handed over at once (a subscriber's next read waits for the
 * transaction's session lock, so it sees the change committed). `onReconnect` subscribers are told to refetch.
 */
export function createLiveBus(options: { database: Database; onError?: (err: unknown) => void }) {
  const local = new EventEmitter();
  local.setMaxListeners(0);
  const url = options.database.url;
  let counted = 0;
  const deliver = (message: LiveMessage) => {
    const { partnerId, ...event } = message;
    counted++;
    local.emit(`p:${partnerId}`, event);
  };
  let listening: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (listening = resolve));
  const listener: Listener | undefined = url
    ? listen({
        url,
        channel: LIVE_CHANNEL,
        onMessage: (payload) => {
          try {
            deliver(JSON.parse(payload) as LiveMessage);
          } catch (err) {
            options.onError?.(err);
          }
        },
        onListening: () => listening(),
        // messages sent while the connection was down are lost: every stream refetches what it shows
        onReconnect: () => local.emit('resync'),
        onError: options.onError ?? (() => undefined),
      })
    : undefined;
  if (!listener) listening();

  return {
    ready,
    /** Announces a change of a partner's row inside the change's transaction. */
    async publish(trx: Transaction<DB>, message: LiveMessage) {
      if (url) await notifyInTransaction(trx, LIVE_CHANNEL, JSON.stringify(message));
      else setImmediate(() => deliver(message));
    },
    /** Calls `onEvent` with each change of the partner's rows; `onResync` when changes may have been missed. */
    subscribe(partnerId: string, onEvent: Subscriber, onResync: () => void) {
      local.on(`p:${partnerId}`, onEvent);
      local.on('resync', onResync);
      return () => {
        local.off(`p:${partnerId}`, onEvent);
        local.off('resync', onResync);
      };
    },
    /** events delivered by this instance since it started (metrics, tests) */
    delivered: () => counted,
    close: async () => listener?.close(),
  };
}

export type LiveBus = ReturnType<typeof createLiveBus>;
