import type { z } from 'zod';
import { API_PREFIX } from '@portal/contract/api';
import { ErrorBody, type ErrorCode } from '@portal/contract/errors';
import { reportOnline, reportOutage, untilOnline } from './connection.ts';
import { deviceId } from './device-id.ts';
import { commonMessages } from './common-messages.ts';
import { translator } from './i18n.ts';
import { testModeHeaders } from './test-mode.ts';

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
  /** refreshes the access token; resolves false when the session cannot go on (a 401 a refresh cannot cure) */
  refresh(): Promise<boolean>;
  /** called when a 401 could not be cured: log out with the reason in words, go to /login */
  onSessionLost(err: ApiError): void;
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

/** The token being fetched, and the session it is asked for. */
let csrfInFlight: { session: string; token: Promise<string> } | undefined;
/** A token on its way in another reply (the start data's): calls that need one wait for it rather than ask for one. */
let csrfArriving: Promise<unknown> | undefined;

/** The session a bearer token names (its `sid` claim), '' without one: the request-forgery token is bound to it. */
function sessionOfToken(token: string | undefined): string {
  try {
    const claims = JSON.parse(atob((token?.split('.')[1] ?? '').replace(/-/g, '+').replace(/_/g, '/'))) as { sid?: unknown };
    return typeof claims.sid === 'string' ? claims.sid : '';
  } catch {
    return '';
  }
}
/** The session the stored request-forgery token was issued for. */
let csrfSession = '';

/**
 * The request-forgery token for a call that carries this bearer (none: a call without a session). The server binds a
 * token to the session the call names, so it is the one in the hidden input when that was issued for the same
 * session, else one fetched with the same bearer and stored there. On failure: logged, empty token.
 */
async function csrfToken(bearer: string | undefined, forceNew = false): Promise<string> {
  if (!forceNew && csrfArriving) await csrfArriving;
  const session = sessionOfToken(bearer);
  if (!forceNew && session === csrfSession) {
    const existing = readCsrfInput();
    if (existing) return existing;
  }
  if (csrfInFlight?.session === session) return csrfInFlight.token;
  const fetching = { session, token: Promise.resolve('') };
  fetching.token = (async () => {
    try {
      const res = await fetch(`${API_PREFIX}/security/csrf`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-device-id': deviceId(), ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
        body: '{}',
        credentials: 'same-origin',
      });
      if (!res.ok) throw new Error(`csrf endpoint answered ${res.status}`);
      const { csrf } = (await res.json()) as { csrf: string };
      csrfSession = session;
      writeCsrfInput(csrf);
      return csrf;
    } catch (err) {
      console.error('could not fetch the request-forgery token', err);
      return '';
    } finally {
      if (csrfInFlight === fetching) csrfInFlight = undefined;
    }
  })();
  csrfInFlight = fetching;
  return fetching.token;
}

/**
 * Takes the request-forgery token that another reply brings (the start data's, asked for with this session's bearer):
 * until it arrives, calls that need a token wait for it; when it brings none, they ask for their own.
 */
export function csrfFrom(token: Promise<string | undefined>) {
  const session = sessionOfToken(hooks?.token());
  const arriving = token.then(
    (t) => {
      if (!t) return;
      csrfSession = session;
      writeCsrfInput(t);
    },
    () => undefined,
  );
  csrfArriving = arriving;
  void arriving.then(() => {
    if (csrfArriving === arriving) csrfArriving = undefined;
  });
}

/** The token held for the session this bearer names, without asking for one ('' when none is held). */
function heldCsrfToken(bearer: string | undefined): string {
  return sessionOfToken(bearer) === csrfSession ? readCsrfInput() : '';
}

export type RequestOptions<T> = {
  body?: unknown;
  /** zod schema the reply is parsed with */
  schema?: z.ZodType<T>;
  /** send the access token (default true) */
  auth?: boolean;
  /**
   * a 401 renews the access token and sends the call again (default true). False for the session's own calls (refresh,
   * logout): they carry the access token, expired or not, to name their session (the request-forgery token is bound
   * to it), and a 401 is their answer
   */
  renew?: boolean;
  signal?: AbortSignal;
  /** headers of the call's own (e.g. Last-Event-ID) */
  headers?: Record<string, string>;
  /**
   * sending the call again changes nothing more: a read sent as a POST (a list of reports), or a change that carries its own
   * idempotency key (a withdrawal's sequenceId). Like a GET it waits through an outage and is sent again; other
   * changes are not re-sent blindly.
   */
  idempotent?: boolean;
  /**
   * a read sent as a POST for its body (a search): sent again through outages like a GET, and with the request-forgery
   * token only when one is held (the server asks none of a read), so it never waits for one
   */
  read?: boolean;
};

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

async function send(method: string, path: string, options: RequestOptions<unknown>, csrfFresh: boolean): Promise<Response> {
  const headers: Record<string, string> = {
    accept: 'application/json',
    'accept-language': document.documentElement.lang || 'en',
    'x-device-id': deviceId(),
    // the test view asks for the test side of the partner's data (the routes of other data do not read it)
    ...testModeHeaders(),
    ...options.headers,
  };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const token = options.auth === false ? undefined : hooks?.token();
  if (token) headers.authorization = `Bearer ${token}`;
  if (MUTATING.has(method)) {
    // the token of the session this call names (none for a call sent without the access token)
    const csrf = options.read ? heldCsrfToken(token) : await csrfToken(token, csrfFresh);
    if (csrf || !options.read) headers['x-csrf-token'] = csrf;
  }
  try {
    return await fetch(`${API_PREFIX}/${path.replace(/^\//, '')}`, {
      method,
      headers,
      body: options.body === undefined ? (MUTATING.has(method) ? '{}' : undefined) : JSON.stringify(options.body),
      credentials: 'same-origin',
      // past the browser's cache: the server's answers are stored nowhere (no-store), and a call the cache could hold
      // waits in Chrome for another call of the same URL to be answered first (through an outage, for seconds)
      cache: 'no-store',
      signal: options.signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, 'NetworkError', translator(commonMessages)('api.unreachable'));
  }
}

async function toError(res: Response): Promise<ApiError> {
  try {
    const parsed = ErrorBody.safeParse(await res.json());
    if (parsed.success) return new ApiError(res.status, parsed.data.code, parsed.data.message, parsed.data.requestId);
  } catch {
    // not JSON: fall through
  }
  return new ApiError(res.status, res.status >= 500 ? 'InternalError' : 'BadRequest', translator(commonMessages)('api.requestFailed', { status: res.status }));
}

/** Replies that mean the server (or its database) is away for a moment, not that the call was wrong. */
const OUTAGE_STATUSES = new Set([502, 503, 504]);

/** The words for a change that got no reply: it may or may not have been made (in English; the error says them in the language in force). */
export const CHANGE_NOT_CONFIRMED_MESSAGE = commonMessages.en['api.changeNotConfirmed'];

const isNoReply = (err: unknown): err is ApiError => err instanceof ApiError && err.code === 'NetworkError';

/** A failure that is an outage (no reply, 502/503/504): never a reason to end a session. */
export const isOutage = (err: unknown): err is ApiError => err instanceof ApiError && (err.code === 'NetworkError' || OUTAGE_STATUSES.has(err.status));

function retryAfterSeconds(res: Response): number | undefined {
  const header = res.headers.get('retry-after');
  return header && /^\d+$/.test(header.trim()) ? Number(header.trim()) : undefined;
}

const aborted = () => new DOMException('The call was aborted.', 'AbortError');

/**
 * Sends, through outages: no reply, or a 502/503/504, is reported to the connection (the "Reconnecting..." notice
 * and its probe) and never ends the session. A read then waits until the server is back and is sent again; a change
 * is not re-sent blindly (it may have been made): its caller gets the outage as the error, and a change that can be
 * sent again safely (a withdrawal with its sequenceId) says so itself.
 */
async function sendThroughOutages(method: string, path: string, options: RequestOptions<unknown>, csrfFresh: boolean): Promise<Response> {
  const read = !MUTATING.has(method) || options.idempotent === true || options.read === true;
  for (;;) {
    let res: Response | undefined;
    try {
      res = await send(method, path, options, csrfFresh);
    } catch (err) {
      if (!isNoReply(err)) throw err;
    }
    if (res && !OUTAGE_STATUSES.has(res.status)) {
      reportOnline();
      return res;
    }
    reportOutage(res ? retryAfterSeconds(res) : undefined);
    if (!read) {
      if (res) throw await toError(res);
      throw new ApiError(0, 'NetworkError', translator(commonMessages)('api.changeNotConfirmed'));
    }
    await untilOnline(options.signal);
    if (options.signal?.aborted) throw aborted();
  }
}

/**
 * One call to the portal API, answered with its successful Response. An outage waits (reads) or is the answer
 * (changes), never a sign-out. A 401 other than InvalidLogin refreshes the token once and sends again; a 401 the
 * refresh cannot cure ends the session with its reason. A refused request-forgery token is fetched anew and the call
 * sent once more.
 */
async function call(method: string, path: string, options: RequestOptions<unknown>): Promise<Response> {
  let refreshed = false;
  let csrfRetried = false;
  let csrfFresh = false;
  for (;;) {
    const res = await sendThroughOutages(method, path, options, csrfFresh);
    csrfFresh = false;
    if (res.status === 403 && MUTATING.has(method) && !csrfRetried) {
      const err = await toError(res.clone());
      if (err.code === 'CsrfTokenInvalid') {
        csrfRetried = csrfFresh = true;
        continue;
      }
    }
    if (res.status === 401 && options.auth !== false && options.renew !== false && hooks) {
      const err = await toError(res.clone());
      if (err.code !== 'InvalidLogin') {
        // one refresh per call; a second 401, or a refresh that cannot be made, ends the session
        if (!refreshed && (await hooks.refresh().catch(() => false))) {
          refreshed = true;
          continue;
        }
        hooks.onSessionLost(err);
        throw err;
      }
    }
    if (!res.ok) throw await toError(res);
    return res;
  }
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
