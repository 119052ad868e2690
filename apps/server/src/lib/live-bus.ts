import { EventEmitter } from 'node:events';
import type { Transaction } from 'kysely';
import type { LiveEvent } from '@portal/contract/live';
import type { Database } from '../db/database.ts';
import type { DB } from '../db/schema.ts';
import { listenOnServer, notifyInTransaction, notifyManyInTransaction } from '../db/notify.ts';
import { insertLiveEvent, insertLiveEvents, liveEventsSince } from './live-events.repository.ts';

export const LIVE_CHANNEL = 'portal_live';
/**
 * Seconds before the last event seen that a replay covers again: transactions commit out of id order, and an event's
 * time is its transaction's start. A commit can become visible long after that start: held while the synchronous
 * replica is slow, then carried over by a failover (the cluster test saw one event of 3,000 missed with 10 s). 30 s is
 * the app role's statement and idle-in-transaction timeout; the replay stays under LIVE_REPLAY_LIMIT at the cluster
 * test's rate (some 600 events a minute for one partner).
 */
export const LIVE_REPLAY_OVERLAP_SECONDS = 30;
/** Events a reconnecting stream is sent at most; past that it is told to refetch everything. */
export const LIVE_REPLAY_LIMIT = 1000;

export type LiveMessage = LiveEvent & { partnerId: string };
/** An event as a stream sends it: its id in the log (the SSE `id:`) and what changed. */
export type LoggedEvent = { id: number; event: LiveEvent };
type Subscriber = (event: LoggedEvent) => void;

/** What a change needs of the bus: to announce itself (the CLI and the benchmarks hold one that listens to nothing). */
export type LivePublisher = {
  /** Announces a change of a partner's row inside the change's transaction: logged, then sent to every instance. */
  publish(trx: Transaction<DB>, message: LiveMessage): Promise<void>;
  /** Announces several changes in one statement each for the log and the notifications (a batch of webhook attempts). */
  publishMany(trx: Transaction<DB>, messages: LiveMessage[]): Promise<void>;
};

/** Writes to the log and notifies (PostgreSQL); on the embedded database `deliver` hands each event over in process. */
function publisher(database: Database, deliver?: (logged: { id: number; message: LiveMessage }) => void): LivePublisher {
  const url = database.url;
  return {
    async publish(trx, message) {
      const { partnerId, ...event } = message;
      const id = await insertLiveEvent(trx, partnerId, event);
      if (url) await notifyInTransaction(trx, LIVE_CHANNEL, JSON.stringify({ id, message }));
      else if (deliver) setImmediate(() => deliver({ id, message }));
    },
    async publishMany(trx, messages) {
      const rows = await insertLiveEvents(
        trx,
        messages.map(({ partnerId, ...event }) => ({ partnerId, payload: event })),
      );
      const logged = rows.map(({ id, partnerId, payload }) => ({ id, message: { ...(payload as LiveEvent), partnerId } }));
      if (url)
        await notifyManyInTransaction(
          trx,
          LIVE_CHANNEL,
          logged.map((l) => JSON.stringify(l)),
        );
      else if (deliver) setImmediate(() => logged.forEach(deliver));
    },
  };
}

/**
 * A publisher for a process that serves no streams (the operator CLI, a benchmark): on a PostgreSQL server its
 * notifications reach the running servers' streams; on the embedded database the log is all there is (the server
 * is another process, and a stream that comes back is sent what it missed from the log).
 */
export const livePublisher = (database: Database): LivePublisher => publisher(database);

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
  let counted = 0;
  const deliver = ({ id, message }: { id: number; message: LiveMessage }) => {
    const { partnerId, ...event } = message;
    counted++;
    local.emit(`p:${partnerId}`, { id, event } satisfies LoggedEvent);
  };
  const { listener, ready } = listenOnServer(options.database, {
    channel: LIVE_CHANNEL,
    onMessage: (payload) => {
      try {
        deliver(JSON.parse(payload) as { id: number; message: LiveMessage });
      } catch (err) {
        options.onError?.(err);
      }
    },
    // messages sent while the connection was down are lost: every stream refetches what it shows
    onReconnect: () => local.emit('resync'),
    onError: options.onError,
  });

  return {
    ready,
    ...publisher(options.database, deliver),
    /**
     * What a stream that last saw event `lastId` missed, from the log (any instance wrote it). Undefined when the
     * log cannot tell (the id is unknown or too old, or more than LIVE_REPLAY_LIMIT events): the stream must refetch.
     */
    async missed(partnerId: string, lastId: number): Promise<LoggedEvent[] | undefined> {
      const found = await liveEventsSince(options.database.db, partnerId, lastId, LIVE_REPLAY_OVERLAP_SECONDS, LIVE_REPLAY_LIMIT);
      if (!found || found.truncated) return undefined;
      return found.events.map(({ id, payload }) => ({ id, event: payload as LiveEvent }));
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
