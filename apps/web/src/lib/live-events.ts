import { useEffect } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { LIVE_EVENTS_PATH, LIVE_TOPICS, LiveAccessEvent, LiveEndedEvent, LiveEvent, type LiveTopic } from '@portal/contract/live';
import { apiStream } from './api-client.ts';
import { reportOutage, useConnection } from './connection.ts';
import { profileQuery } from './partner/profile.ts';
import { logout } from './session/session.ts';
import { useSession } from './session/session-store.ts';

type QueryKey = readonly unknown[];
/**
 * The queries each topic's changes make stale. Whoever owns a query says which topic it shows (`liveQueries`), when
 * its module loads: a screen never loaded has nothing to refetch. Only queries on screen refetch; the rest refetch
 * when they are next shown.
 */
const topicQueries = new Map<LiveTopic, QueryKey[]>(LIVE_TOPICS.map((topic) => [topic, []]));

/** Says that the query (key prefix) shows rows of these topics, so that their changes refetch it. */
export function liveQueries(topics: LiveTopic | readonly LiveTopic[], ...keys: QueryKey[]) {
  for (const topic of typeof topics === 'string' ? [topics] : topics) {
    const known = topicQueries.get(topic)!;
    for (const key of keys) if (!known.some((k) => JSON.stringify(k) === JSON.stringify(key))) known.push(key);
  }
}

/** The balance (accounts, read by the balance screen and the banners) moves with the money. */
export const MONEY_TOPICS = ['payments', 'collections', 'settlements'] as const satisfies readonly LiveTopic[];
liveQueries(MONEY_TOPICS, ['partner', 'accounts']);

/** Changes arriving within this many milliseconds are refetched together. */
export const LIVE_COALESCE_MS = 150;

type Listener = (event: LiveEvent) => void;
const listeners = new Set<Listener>();
/** Calls `listener` with every change the stream delivers (for screens that react to one payment). */
export function onLiveEvent(listener: Listener) {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/** One server-sent event: its type, data, and the `id:` and `retry:` fields when it has them. */
export type StreamEvent = { type: string; data: string; id?: string; retry?: number };

/**
 * Splits a server-sent event stream's text into its events (those with data or a `retry:`); answers what is left
 * of an unfinished one.
 */
export function parseEvents(buffer: string, onEvent: (event: StreamEvent) => void): string {
  let end: number;
  while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
    const block = buffer.slice(0, end);
    buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
    const event: StreamEvent = { type: 'message', data: '' };
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith('event:')) event.type = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      else if (line.startsWith('id:')) event.id = line.slice(3).trim();
      else if (/^retry:\s*\d+$/.test(line)) event.retry = Number(line.slice(6).trim());
    }
    event.data = data.join('\n');
    if (data.length > 0 || event.retry !== undefined) onEvent(event);
  }
  return buffer;
}

/**
 * Refetches what changes made stale, a burst of them (a reconnection's catch-up, the database back after a loss) at
 * once: the topics changed, and the profile when access changed (`access`, however many of them came).
 */
function invalidator(qc: QueryClient) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  // the topics changed since the last refetch; every topic when the stream cannot tell what it missed
  const due = new Set<LiveTopic>();
  let profileDue = false;
  const arm = () => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      const keys = new Map<string, QueryKey>();
      for (const t of due) for (const key of topicQueries.get(t)!) keys.set(JSON.stringify(key), key);
      if (profileDue) keys.set(JSON.stringify(profileQuery.queryKey), profileQuery.queryKey);
      due.clear();
      profileDue = false;
      for (const queryKey of keys.values()) void qc.invalidateQueries({ queryKey: [...queryKey] });
    }, LIVE_COALESCE_MS);
  };
  return {
    schedule(topic?: LiveTopic) {
      for (const t of topic ? [topic] : LIVE_TOPICS) due.add(t);
      arm();
    },
    /** the user's role or the partner's flags changed: the profile is read again (which redraws guards and navigation) */
    access() {
      profileDue = true;
      arm();
    },
    cancel: () => timer && clearTimeout(timer),
  };
}

/** Reads an event's JSON data with its schema; undefined when it is not what the schema says. */
function read<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } }, data: string): T | undefined {
  try {
    const parsed = schema.safeParse(JSON.parse(data));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });

/** Milliseconds before the first reconnection, doubling to RECONNECT_MAX_MS while the server stays away. */
const RECONNECT_FIRST_MS = 1000;
const RECONNECT_MAX_MS = 30_000;
/** Event ids remembered, so that one replayed after a reconnection is not handed on twice. */
const SEEN_IDS_KEPT = 2000;

/**
 * Holds the event stream, reconnecting, until `signal` aborts; hands every event to `deliver`. `resume` answers the
 * last event id seen (sent as `Last-Event-ID`); after a reopening without one, a `resync` is delivered, since what
 * changed meanwhile is unknown. `followed`: another tab held the stream before this one, so the first opening is a
 * reopening too.
 */
async function holdStream(signal: AbortSignal, deliver: (event: StreamEvent) => void, resume: () => string | undefined, followed: boolean) {
  let delay = RECONNECT_FIRST_MS;
  let opened = followed;
  while (!signal.aborted) {
    // the wait the server asked for (`retry:`), used once the stream it sent it on has ended
    let asked: number | undefined;
    let streamed = false;
    try {
      const lastId = resume();
      const res = await apiStream(LIVE_EVENTS_PATH, signal, lastId ? { 'last-event-id': lastId } : undefined);
      if (!res.body) throw new Error('no stream');
      if (opened && lastId === undefined) deliver({ type: 'resync', data: '' });
      opened = true;
      streamed = true;
      delay = RECONNECT_FIRST_MS;
      const reader = res.body.getReader();
      // the stream ends with the hook, even where the body does not end with its call's signal
      const stop = () => void reader.cancel().catch(() => undefined);
      signal.addEventListener('abort', stop, { once: true });
      const decoder = new TextDecoder();
      let buffer = '';
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer = parseEvents(buffer + decoder.decode(value, { stream: true }), (event) => {
            if (event.retry !== undefined) asked = event.retry;
            deliver(event);
          });
        }
      } finally {
        signal.removeEventListener('abort', stop);
      }
    } catch {
      // a lost connection or a refused call: try again below (a lost session logs out through the api client)
    }
    if (signal.aborted) break;
    if (streamed) {
      await sleep(asked ?? RECONNECT_FIRST_MS, signal);
    } else {
      await sleep(delay, signal);
      delay = Math.min(delay * 2, RECONNECT_MAX_MS);
    }
  }
}

/** What the tab holding the stream tells the others when it finds the server away (never a server's event type). */
const OUTAGE = 'portal:outage';

/**
 * The tabs of a browser share one stream: each open stream holds one of the six connections a browser keeps to a
 * server over HTTP/1.1, and with a stream per tab, six tabs would leave none for the calls. The tab holding a lock
 * (Web Locks) holds the stream and passes each event to the others on a `BroadcastChannel`; when it closes, another
 * tab takes the lock and reopens the stream from the last event id it heard. This tab hears the events another tab's
 * stream passes on, and holds the stream (`hold`) whenever it has the lock. False where the browser has neither: each
 * tab then holds its own.
 */
function shareStream(
  name: string,
  signal: AbortSignal,
  hear: (event: StreamEvent) => void,
  hold: (pass: (event: StreamEvent) => void, followed: boolean) => Promise<void>,
): boolean {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (!locks || typeof BroadcastChannel === 'undefined') return false;
  const channel = new BroadcastChannel(name);
  // the holder's stream is the other tabs' link to the server too: when it finds the server away, they say
  // "Reconnecting..." and probe it as if a call of theirs had failed
  channel.onmessage = (e: MessageEvent<StreamEvent>) => (e.data.type === OUTAGE ? reportOutage() : hear(e.data));
  signal.addEventListener('abort', () => channel.close(), { once: true });
  // passed on first: hearing `ended` stops this tab's stream
  const pass = (event: StreamEvent) => {
    if (!signal.aborted) channel.postMessage(event);
    hear(event);
  };
  const holding = (followed: boolean) => {
    const unwatch = useConnection.subscribe((now, before) => {
      if (now.status === 'reconnecting' && before.status === 'online' && !signal.aborted) channel.postMessage({ type: OUTAGE, data: '' });
    });
    return hold(pass, followed).finally(unwatch);
  };
  const waited = () => locks.request(name, { signal }, () => holding(true));
  void locks
    .request(name, { ifAvailable: true }, (lock) => (lock ? holding(false) : waited()))
    // the tab left before it had the lock
    .catch(() => undefined);
  return true;
}

/**
 * Keeps the signed-in frame's data live: holds the partner's event stream (GET events, with the session's token;
 * fetch, not EventSource, so the token goes in the header as on every call) and refetches what a change makes
 * stale. The tabs of a browser share one stream (`shareStream`). It reconnects by itself (1 s, doubling to 30 s;
 * sooner when the server asks with `retry:`, as one that shuts down does; through an outage the call waits for the
 * server), sending the last event id it saw (`Last-Event-ID`) so that the server, whichever instance answers, sends
 * what was missed. When the server cannot tell (`resync`), everything on screen is refetched. The stream also carries
 * the session's access: `access` (a role or the partner's flags changed) reads the profile again, which redraws
 * navigation, buttons and guards; `ended` (logout, removal, password reset...) signs every tab out with the reason
 * in words.
 */
export function useLiveEvents(enabled = true) {
  const qc = useQueryClient();
  const userId = useSession((s) => s.user?.id);
  useEffect(() => {
    if (!enabled || typeof fetch === 'undefined' || typeof TextDecoder === 'undefined') return;
    const controller = new AbortController();
    const refetch = invalidator(qc);
    let lastId: string | undefined;
    // a replay may send again what came shortly before the last id (at least once): each id counts once
    const seen = new Set<string>();
    const handle = (event: StreamEvent) => {
      if (event.type === 'resync') return refetch.schedule();
      if (event.type === 'access') {
        if (read(LiveAccessEvent, event.data)) refetch.access();
        return;
      }
      if (event.type === 'ended') {
        const ended = read(LiveEndedEvent, event.data);
        if (ended) {
          controller.abort();
          logout({ message: ended.message, callServer: false });
        }
        return;
      }
      if (event.type !== 'change') return;
      if (event.id) {
        if (seen.has(event.id)) return;
        seen.add(event.id);
        if (seen.size > SEEN_IDS_KEPT) seen.delete(seen.values().next().value!);
        lastId = event.id;
      }
      const change = read(LiveEvent, event.data);
      if (!change) return;
      listeners.forEach((l) => l(change));
      refetch.schedule(change.table);
    };
    const hold = (deliver: (event: StreamEvent) => void, followed: boolean) => holdStream(controller.signal, deliver, () => lastId, followed);
    if (!shareStream(`portal-live-events:${userId ?? ''}`, controller.signal, handle, hold)) void hold(handle, false);
    return () => {
      controller.abort();
      refetch.cancel();
    };
  }, [enabled, qc, userId]);
}
