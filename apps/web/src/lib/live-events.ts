import { useEffect } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { LIVE_EVENTS_PATH, LiveEvent } from '@portal/contract/payments';
import { apiStream } from './api-client.ts';

/**
 * The queries a change makes stale: the transaction tables (search pages), the balance (accounts, read by the
 * balance screen and the banners) and the payment details. Only queries on screen refetch; the rest refetch when
 * they are next shown.
 */
export const LIVE_QUERY_KEYS = [['transactions'], ['partner', 'accounts'], ['payment']] as const;

/** Changes arriving within this many milliseconds are refetched together. */
export const LIVE_COALESCE_MS = 150;

type Listener = (event: LiveEvent) => void;
const listeners = new Set<Listener>();
/** Calls `listener` with every change the stream delivers (for screens that react to one payment). */
export function onLiveEvent(listener: Listener) {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/** Splits a server-sent event stream's text into its events; answers what is left of an unfinished one. */
export function parseEvents(buffer: string, onEvent: (type: string, data: string) => void): string {
  let end: number;
  while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
    const block = buffer.slice(0, end);
    buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
    let type = 'message';
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith('event:')) type = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (data.length > 0) onEvent(type, data.join('\n'));
  }
  return buffer;
}

function invalidator(qc: QueryClient) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    schedule() {
      if (timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        for (const queryKey of LIVE_QUERY_KEYS) void qc.invalidateQueries({ queryKey: [...queryKey] });
      }, LIVE_COALESCE_MS);
    },
    cancel: () => timer && clearTimeout(timer),
  };
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });

/**
 * Keeps the signed-in frame's data live: holds the partner's event stream (GET events, with the session's token;
 * fetch, not EventSource, so the token goes in the header as on every call) and refetches what a change makes
 * stale. Reconnects by itself (1 s, doubling to 30 s), and refetches after each reconnection since changes may have
 * been missed meanwhile.
 */
export function useLiveEvents(enabled = true) {
  const qc = useQueryClient();
  useEffect(() => {
    if (!enabled || typeof fetch === 'undefined' || typeof TextDecoder === 'undefined') return;
    const controller = new AbortController();
    const refetch = invalidator(qc);
    const run = async () => {
      let delay = 1000;
      let connected = false;
      while (!controller.signal.aborted) {
        try {
          const res = await apiStream(LIVE_EVENTS_PATH, controller.signal);
          if (!res.body) throw new Error('no stream');
          if (connected) refetch.schedule();
          connected = true;
          delay = 1000;
          const reader = res.body.getReader();
          const decoder = new TextDecoder();
          let buffer = '';
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            buffer = parseEvents(buffer + decoder.decode(value, { stream: true }), (type, data) => {
              if (type === 'resync') return refetch.schedule();
              if (type !== 'change') return;
              const parsed = LiveEvent.safeParse(JSON.parse(data));
              if (!parsed.success) return;
              listeners.forEach((l) => l(parsed.data));
              refetch.schedule();
            });
          }
        } catch {
          // a lost connection or a refused call: try again below (a lost session logs out through the api client)
        }
        if (controller.signal.aborted) break;
        await sleep(delay, controller.signal);
        delay = Math.min(delay * 2, 30_000);
      }
    };
    void run();
    return () => {
      controller.abort();
      refetch.cancel();
    };
  }, [enabled, qc]);
}
