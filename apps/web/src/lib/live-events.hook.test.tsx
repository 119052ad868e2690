import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signIn } from '../testing/factories.ts';
import { installAuthHooks, setNavigator, takeFlash } from './session/session.ts';
import { useSession } from './session/session-store.ts';
import { MONEY_TOPICS, liveQueries, onLiveEvent, useLiveEvents } from './live-events.ts';

/** A server-sent event stream the test writes into. */
function stream() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  const enc = new TextEncoder();
  return { body, write: (text: string) => controller.enqueue(enc.encode(text)), end: () => controller.close() };
}

afterEach(() => vi.unstubAllGlobals());

describe('useLiveEvents', () => {
  it('opens the stream with the token and refetches the tables, balance and payments a change makes stale', async () => {
    // what the transaction and payment screens register when they load
    liveQueries(MONEY_TOPICS, ['transactions'], ['payment']);
    signIn('admin');
    installAuthHooks();
    const s = stream();
    const requests: { url: string; auth: string | undefined }[] = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
      requests.push({ url, auth: (init.headers as Record<string, string>).authorization });
      return new Response(s.body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    });
    const qc = new QueryClient();
    const invalidated: unknown[] = [];
    const spy = vi.spyOn(qc, 'invalidateQueries').mockImplementation(async (filters) => void invalidated.push(filters?.queryKey));
    const seen: string[] = [];
    const off = onLiveEvent((e) => seen.push(`${e.id}:${e.status}`));
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={qc}>{children}</QueryClientProvider>;
    const { unmount } = renderHook(() => useLiveEvents(true), { wrapper });
    await waitFor(() => expect(requests).toHaveLength(1));
    expect(requests[0]).toEqual({ url: '/api/v1/events', auth: 'Bearer token-admin' });
    s.write('retry: 2000\n\nevent: change\ndata: {"table":"payments","kind":"disbursement","id":"p1","status":"pending","at":"2026-11-23T10:00:00.000Z"}\n\n');
    s.write('event: change\ndata: {"table":"payments","kind":"disbursement","id":"p1","status":"processing","at":"2026-11-23T10:00:01.000Z"}\n\n');
    // (screens loaded by other test files may have registered more queries of these topics)
    await waitFor(() => expect(invalidated).toEqual(expect.arrayContaining([['partner', 'accounts'], ['transactions'], ['payment']])));
    // two changes in one burst: one refetch of each
    expect(new Set(invalidated.map((key) => JSON.stringify(key))).size).toBe(invalidated.length);
    expect(seen).toEqual(['p1:pending', 'p1:processing']);
    unmount();
    off();
    spy.mockRestore();
  });

  it('reconnects when a server ends the stream, as soon as it asks, with the last event id it saw', async () => {
    signIn('admin');
    installAuthHooks();
    const streams = [stream(), stream()];
    const requests: { at: number; lastEventId: string | undefined }[] = [];
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit = {}) => {
      requests.push({ at: Date.now(), lastEventId: (init.headers as Record<string, string>)['last-event-id'] });
      return new Response(streams[requests.length - 1]!.body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    });
    const qc = new QueryClient();
    const spy = vi.spyOn(qc, 'invalidateQueries').mockResolvedValue(undefined);
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={qc}>{children}</QueryClientProvider>;
    const { unmount } = renderHook(() => useLiveEvents(true), { wrapper });
    await waitFor(() => expect(requests).toHaveLength(1));
    expect(requests[0]!.lastEventId).toBeUndefined();
    const first = streams[0]!;
    first.write(
      'retry: 2000\n\nid: 17\nevent: change\ndata: {"table":"payments","kind":"disbursement","id":"p1","status":"pending","at":"2026-11-23T10:00:00.000Z"}\n\n',
    );
    first.write('id: 18\nevent: change\ndata: {"table":"payments","kind":"disbursement","id":"p1","status":"processing","at":"2026-11-23T10:00:01.000Z"}\n\n');
    // the server shuts down: come back after 250 ms, not the 2 s asked before
    first.write('retry: 250\nevent: reconnect\ndata: {}\n\n');
    const ended = Date.now();
    first.end();
    await waitFor(() => expect(requests).toHaveLength(2), { timeout: 1500 });
    expect(requests[1]!.lastEventId).toBe('18');
    expect(requests[1]!.at - ended).toBeGreaterThanOrEqual(200);
    expect(requests[1]!.at - ended).toBeLessThan(1000);
    // the new server replays from just before 18 (at least once): 17 and 18 are not handed on again, 19 is
    const seen: string[] = [];
    const off = onLiveEvent((e) => seen.push(e.status));
    streams[1]!.write(
      'id: 17\nevent: change\ndata: {"table":"payments","kind":"disbursement","id":"p1","status":"pending","at":"2026-11-23T10:00:00.000Z"}\n\n',
    );
    streams[1]!.write(
      'id: 19\nevent: change\ndata: {"table":"payments","kind":"disbursement","id":"p1","status":"complete","at":"2026-11-23T10:00:02.000Z"}\n\n',
    );
    await waitFor(() => expect(seen).toEqual(['complete']));
    off();
    unmount();
    spy.mockRestore();
  });

  it('opens nothing when signed out (disabled)', () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const qc = new QueryClient();
    renderHook(() => useLiveEvents(false), {
      wrapper: ({ children }: { children: ReactNode }) => <QueryClientProvider client={qc}>{children}</QueryClientProvider>,
    });
    expect(fetch).not.toHaveBeenCalled();
  });
  /** Renders the hook over a stream the test writes into; answers the stream, the invalidated keys and an unmount. */
  async function open() {
    signIn('admin');
    installAuthHooks();
    const s = stream();
    vi.stubGlobal('fetch', async (url: string) => {
      if (url.endsWith('/users/logout')) return new Response('{}', { status: 200 });
      return new Response(s.body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    });
    const qc = new QueryClient();
    const invalidated: unknown[] = [];
    vi.spyOn(qc, 'invalidateQueries').mockImplementation(async (filters) => void invalidated.push(filters?.queryKey));
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={qc}>{children}</QueryClientProvider>;
    const hook = renderHook(() => useLiveEvents(true), { wrapper });
    await new Promise((r) => setTimeout(r, 20));
    return { s, invalidated, unmount: hook.unmount };
  }

  it("refetches only what a change's topic shows: a webhook delivery refetches the webhooks' queries, not the tables", async () => {
    liveQueries(MONEY_TOPICS, ['transactions']);
    liveQueries('webhooks', ['webhooks'], ['webhook-activity']);
    const { s, invalidated, unmount } = await open();
    s.write('id: 5\nevent: change\ndata: {"table":"webhooks","kind":"delivery","id":"d1","status":"failed","at":"2026-11-23T10:00:00.000Z"}\n\n');
    await waitFor(() => expect(invalidated).toEqual(expect.arrayContaining([['webhooks'], ['webhook-activity']])));
    expect(invalidated).not.toContainEqual(['transactions']);
    expect(invalidated).not.toContainEqual(['partner', 'accounts']);
    unmount();
  });

  it("reads the profile again when access changed (a role, the partner's flags), once for a burst", async () => {
    const { s, invalidated, unmount } = await open();
    // a reconnection's catch-up, or every stream told at once that the database is back: many in a moment
    for (let i = 0; i < 5; i++) s.write(`event: access\ndata: {"reason":"${i % 2 ? 'role' : 'partner'}"}\n\n`);
    await waitFor(() => expect(invalidated).toEqual([['partner', 'profile']]));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(invalidated).toEqual([['partner', 'profile']]);
    s.write('event: access\ndata: {"reason":"role"}\n\n');
    await waitFor(() =>
      expect(invalidated).toEqual([
        ['partner', 'profile'],
        ['partner', 'profile'],
      ]),
    );
    unmount();
  });

  it('signs out with the reason in words when the session ended, and stops listening', async () => {
    const went: string[] = [];
    setNavigator((to) => went.push(to));
    const { s, unmount } = await open();
    expect(useSession.getState().verified).toBe(true);
    s.write('event: ended\ndata: {"reason":"removed","message":"You no longer have access to Acme Remit."}\n\n');
    await waitFor(() => expect(went).toEqual(['/login']));
    expect(useSession.getState().verified).toBe(false);
    expect(takeFlash()).toBe('You no longer have access to Acme Remit.');
    unmount();
  });

  /** Web Locks as a browser keeps them: one holder of a name at a time, the others wait in turn (or not, `ifAvailable`). */
  function locks() {
    let held = false;
    const waiting: (() => void)[] = [];
    type Callback = (lock: object | null) => unknown;
    const take = async (cb: Callback) => {
      held = true;
      try {
        return await cb({});
      } finally {
        held = false;
        waiting.shift()?.();
      }
    };
    return {
      request(_name: string, options: { ifAvailable?: boolean; signal?: AbortSignal }, cb: Callback) {
        if (!held) return take(cb);
        if (options.ifAvailable) return Promise.resolve(cb(null));
        return new Promise((resolve, reject) => {
          const turn = () => resolve(take(cb));
          waiting.push(turn);
          options.signal?.addEventListener('abort', () => (waiting.splice(waiting.indexOf(turn), 1), reject(new DOMException('aborted', 'AbortError'))));
        });
      },
    };
  }

  it("shares one stream between a browser's tabs: one holds it and passes each change on; when it closes, another resumes from the last id", async () => {
    Object.defineProperty(navigator, 'locks', { value: locks(), configurable: true });
    try {
      liveQueries('webhooks', ['webhooks']);
      signIn('admin');
      installAuthHooks();
      const streams = [stream(), stream()];
      const requests: (string | undefined)[] = [];
      vi.stubGlobal('fetch', async (_url: string, init: RequestInit = {}) => {
        requests.push((init.headers as Record<string, string>)['last-event-id']);
        return new Response(streams[requests.length - 1]!.body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
      });
      const tab = () => {
        const qc = new QueryClient();
        const invalidated: unknown[] = [];
        vi.spyOn(qc, 'invalidateQueries').mockImplementation(async (filters) => void invalidated.push(filters?.queryKey));
        const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={qc}>{children}</QueryClientProvider>;
        return { invalidated, ...renderHook(() => useLiveEvents(true), { wrapper }) };
      };
      const first = tab();
      const second = tab();
      await waitFor(() => expect(requests).toEqual([undefined]));
      streams[0]!.write('id: 41\nevent: change\ndata: {"table":"webhooks","kind":"delivery","id":"d1","status":"failed","at":"2026-11-23T10:00:00.000Z"}\n\n');
      await waitFor(() => expect(first.invalidated).toContainEqual(['webhooks']));
      await waitFor(() => expect(second.invalidated).toContainEqual(['webhooks']));
      // still the one stream
      expect(requests).toEqual([undefined]);
      first.unmount();
      await waitFor(() => expect(requests).toEqual([undefined, '41']));
      second.unmount();
    } finally {
      Reflect.deleteProperty(navigator, 'locks');
    }
  });
});
