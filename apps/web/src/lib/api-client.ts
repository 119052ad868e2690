import type { z } from 'zod';
import { API_PREFIX } from '@portal/contract/api';
import { ErrorBody, type ErrorCode } from '@portal/contract/errors';
import { deviceId } from './device-id.ts';

/** A failed call: the server's code and message, or NetworkError when no reply came. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | 'NetworkError',
    message: string,
    readonly requestId?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export type AuthHooks = {
  /** the current access token, if signed in */
  token(): string | undefined;
  /** refreshes the access token; resolves false when the session cannot go on */
  refresh(): Promise<boolean>;
  /** called when a refresh failed: log out, clear the session, go to /login */
  onSessionLost(): void;
};

let hooks: AuthHooks | undefined;
export function setAuthHooks(next: AuthHooks | undefined) {
  hooks = next;
}

// ---- request-forgery token (transaction-data §7): kept in a hidden input named _csrf on the page body
const CSRF_INPUT = '_csrf';

function readCsrfInput(): string {
  const el = document.getElementById(CSRF_INPUT) as HTMLInputElement | null;
  return el?.value ?? '';
}

function writeCsrfInput(token: string) {
  let el = document.getElementById(CSRF_INPUT) as HTMLInputElement | null;
  if (!el) {
    el = document.createElement('input');
    el.type = 'hidden';
    el.id = CSRF_INPUT;
    el.name = CSRF_INPUT;
    document.body.appendChild(el);
  }
  el.value = token;
}

let csrfInFlight: Promise<string> | undefined;

/** The token from the hidden input, or fetched and stored there. On failure: logged, empty token. */
export async function csrfToken(forceNew = false): Promise<string> {
  if (!forceNew) {
    const existing = readCsrfInput();
    if (existing) return existing;
  }
  csrfInFlight ??= (async () => {
    try {
      const res = await fetch(`${API_PREFIX}/security/csrf`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-device-id': deviceId() },
        body: '{}',
        credentials: 'same-origin',
      });
      if (!res.ok) throw new Error(`csrf endpoint answered ${res.status}`);
      const { csrf } = (await res.json()) as { csrf: string };
      writeCsrfInput(csrf);
      return csrf;
    } catch (err) {
      console.error('could not fetch the request-forgery token', err);
      return '';
    } finally {
      csrfInFlight = undefined;
    }
  })();
  return csrfInFlight;
}

export type RequestOptions<T> = {
  body?: unknown;
  /** zod schema the reply is parsed with */
  schema?: z.ZodType<T>;
  /** send the access token (default true) */
  auth?: boolean;
  signal?: AbortSignal;
  /** headers of the call's own (e.g. Last-Event-ID) */
  headers?: Record<string, string>;
};

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

async function send(method: string, path: string, options: RequestOptions<unknown>, csrfFresh: boolean): Promise<Response> {
  const headers: Record<string, string> = {
    accept: 'application/json',
    'accept-language': document.documentElement.lang || 'en',
    'x-device-id': deviceId(),
    ...options.headers,
  };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const token = options.auth === false ? undefined : hooks?.token();
  if (token) headers.authorization = `Bearer ${token}`;
  if (MUTATING.has(method)) headers['x-csrf-token'] = await csrfToken(csrfFresh);
  try {
    return await fetch(`${API_PREFIX}/${path.replace(/^\//, '')}`, {
      method,
      headers,
      body: options.body === undefined ? (MUTATING.has(method) ? '{}' : undefined) : JSON.stringify(options.body),
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, 'NetworkError', 'The server could not be reached. Check your connection and try again.');
  }
}

async function toError(res: Response): Promise<ApiError> {
  try {
    const parsed = ErrorBody.safeParse(await res.json());
    if (parsed.success) return new ApiError(res.status, parsed.data.code, parsed.data.message, parsed.data.requestId);
  } catch {
    // not JSON: fall through
  }
  return new ApiError(res.status, res.status >= 500 ? 'InternalError' : 'BadRequest', `Request failed (${res.status})`);
}

/** The message of portal-core §8 when a signed-in call cannot go on: shown on the sign-in page after the logout. */
export const SESSION_LOST_MESSAGE = 'something went wrong';

const isNoReply = (err: unknown): err is ApiError => err instanceof ApiError && err.code === 'NetworkError';

/**
 * Sends, and for a signed-in call that got no reply at all (network error, connection dropped) refreshes the token
 * and sends once more; when the refresh or that retry fails too, the session is lost (portal-core §8: "a reply
 * without a response: refresh the token and retry once; if that fails log out ... show 'something went wrong'").
 * Calls without a token (sign-in, refresh itself) just report the network error.
 */
async function sendOrRetry(method: string, path: string, options: RequestOptions<unknown>): Promise<{ res: Response; refreshed: boolean }> {
  try {
    return { res: await send(method, path, options, false), refreshed: false };
  } catch (err) {
    const signedIn = options.auth !== false && hooks !== undefined && hooks.token() !== undefined;
    if (!isNoReply(err) || !signedIn || !hooks) throw err;
    const session = hooks;
    const refreshed = await session.refresh().catch(() => false);
    if (!refreshed) {
      session.onSessionLost();
      throw err;
    }
    try {
      return { res: await send(method, path, options, false), refreshed: true };
    } catch (again) {
      if (isNoReply(again)) session.onSessionLost();
      throw again;
    }
  }
}

/**
 * One call to the portal API, answered with its successful Response. No reply at all, or a 401 other than
 * InvalidLogin, refreshes the token once and retries once; if that fails the session is lost (portal-core §8). A
 * refused request-forgery token is fetched anew and retried once.
 */
async function call(method: string, path: string, options: RequestOptions<unknown>): Promise<Response> {
  const first = await sendOrRetry(method, path, options);
  let res = first.res;
  if (res.status === 403 && MUTATING.has(method)) {
    const err = await toError(res.clone());
    if (err.code === 'CsrfTokenInvalid') res = await send(method, path, options, true);
  }
  if (res.status === 401 && options.auth !== false && hooks) {
    const err = await toError(res.clone());
    if (err.code !== 'InvalidLogin') {
      // one refresh and one retry per call, whichever failure asked for it first
      const ok = !first.refreshed && (await hooks.refresh().catch(() => false));
      if (!ok) {
        hooks.onSessionLost();
        throw err;
      }
      res = await send(method, path, options, false);
      if (res.status === 401) {
        hooks.onSessionLost();
        throw await toError(res);
      }
    }
  }
  if (!res.ok) throw await toError(res);
  return res;
}

/** A JSON call, its reply parsed with the schema when one is given. */
export async function apiRequest<T = unknown>(method: string, path: string, options: RequestOptions<T> = {}): Promise<T> {
  const res = await call(method, path, options);
  if (res.status === 204) return undefined as T;
  const data: unknown = await res.json();
  return options.schema ? options.schema.parse(data) : (data as T);
}

/** A streamed reply (server-sent events), with the token and the same refresh and session handling; the caller reads its body. */
export async function apiStream(path: string, signal: AbortSignal, headers?: Record<string, string>): Promise<Response> {
  return call('GET', path, { signal, ...(headers ? { headers } : {}) });
}

/** A file from the API (with the token and the same refresh and session handling), as a Blob. */
export async function apiDownload(path: string): Promise<Blob> {
  return (await call('GET', path, {})).blob();
}

export const api = {
  get: <T>(path: string, options?: RequestOptions<T>) => apiRequest<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions<T>) => apiRequest<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions<T>) => apiRequest<T>('PUT', path, { ...options, body }),
  delete: <T>(path: string, options?: RequestOptions<T>) => apiRequest<T>('DELETE', path, options),
};
