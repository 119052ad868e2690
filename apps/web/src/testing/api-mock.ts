import { vi } from 'vitest';
import { API_PREFIX } from '@portal/contract/api';

/** One request the portal sent, as the mock saw it. */
export type ApiCall = { method: string; path: string; query: string; body: unknown; headers: Record<string, string> };
export type Reply = { status?: number; body?: unknown };
type Route = Reply | ((call: ApiCall) => Reply | Promise<Reply>);

export const apiError = (status: number, code: string, message: string): Reply => ({ status, body: { code, message, requestId: 'req-test' } });

/**
 * Replaces fetch with the portal API as a table of `'METHOD path'` → reply (or a function of the call). The real
 * api client runs: token, request-forgery token (answered here unless a route is given), error shape. A call
 * with no route answers 404 NotFound, so that a test sees what the screen asked for. The connection's probe
 * (`GET /readyz`) answers 200, the user's preferences (`GET user/preferences`) UTC, and the notifications and their
 * e-mail choices none, unless a route says otherwise.
 */
const BUILT_IN: Record<string, Reply | undefined> = {
  'POST security/csrf': { body: { csrf: 'csrf-test' } },
  'GET /readyz': { body: { status: 'ok' } },
  'GET user/preferences': { body: { timeZone: null, language: null, startScreen: 'transactions' } },
  // the frame's bell and Settings' e-mail choices: nothing yet, unless a test says otherwise
  'GET notifications': { body: { items: [], unread: 0 } },
  'GET user/notification-preferences': { body: { email: [] } },
};

export function mockApi(routes: Record<string, Route> = {}) {
  const table = new Map(Object.entries(routes));
  const calls: ApiCall[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const [pathPart = '', query = ''] = url.replace(`${API_PREFIX}/`, '').split('?');
    const call: ApiCall = {
      method: init.method ?? 'GET',
      path: pathPart,
      query,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      headers: (init.headers ?? {}) as Record<string, string>,
    };
    const key = `${call.method} ${call.path}`;
    // the request-forgery token and the connection's probe (after an outage) answer by themselves, unless given
    const builtIn: Reply | undefined = BUILT_IN[key];
    const route = table.get(key) ?? builtIn;
    if (!builtIn) calls.push(call);
    const reply = route === undefined ? apiError(404, 'NotFound', `no mock for ${key}`) : typeof route === 'function' ? await route(call) : route;
    return new Response(JSON.stringify(reply.body ?? {}), { status: reply.status ?? 200, headers: { 'content-type': 'application/json' } });
  });
  return {
    calls,
    /** the calls to one route, e.g. 'POST transactions/search' */
    to: (key: string) => calls.filter((c) => `${c.method} ${c.path}` === key),
    /** sets or replaces a route */
    on: (key: string, route: Route) => void table.set(key, route),
  };
}
