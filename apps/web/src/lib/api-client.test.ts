import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, CHANGE_NOT_CONFIRMED_MESSAGE, api, apiDownload, apiStream, setAuthHooks } from './api-client.ts';
import { resetConnection, tryNow, useConnection } from './connection.ts';
import { setTestMode } from './test-mode.ts';

type Call = { url: string; init: RequestInit };

function reply(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}
const expired = () => reply(401, { code: 'TokenExpired', message: 'expired', requestId: 'r' });

/** Sign-in hooks whose token is 'old' until a refresh (which works) makes it 'new'; both hooks are spies. */
function refreshingHooks() {
  let token = 'old';
  const refresh = vi.fn(async () => {
    token = 'new';
    return true;
  });
  const lost = vi.fn();
  setAuthHooks({ token: () => token, refresh, onSessionLost: lost });
  return { refresh, lost };
}

describe('api client', () => {
  let calls: Call[];
  let replies: Response[];

  beforeEach(() => {
    calls = [];
    replies = [];
    document.body.innerHTML = '';
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      const next = replies.shift();
      if (!next) throw new TypeError('no reply queued');
      return next;
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    setAuthHooks(undefined);
  });

  const headers = (c: Call) => c.init.headers as Record<string, string>;

  it('sends JSON with the device id, language and token, and parses the reply', async () => {
    setAuthHooks({ token: () => 'tok', refresh: async () => true, onSessionLost: () => {} });
    replies.push(reply(200, { ok: 1 }));
    expect(await api.get('partner/profile')).toEqual({ ok: 1 });
    expect(calls[0]!.url).toBe('/api/v1/partner/profile');
    expect(headers(calls[0]!).authorization).toBe('Bearer tok');
    expect(headers(calls[0]!)['x-device-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(headers(calls[0]!)['accept-language']).toBe('en');
    // past the browser's cache, where a second call of the same URL would wait for the first one's answer
    expect(calls[0]!.init.cache).toBe('no-store');
  });

  it('asks for the test side (x-portal-mode: test) on every call while the test view is on, and only then', async () => {
    setAuthHooks({ token: () => 'tok', refresh: async () => true, onSessionLost: () => {} });
    document.body.innerHTML = '<input type="hidden" id="_csrf" name="_csrf" value="c">';
    replies.push(reply(200, {}));
    await api.get('partner/balance');
    setTestMode(true);
    replies.push(reply(200, {}), reply(200, {}), reply(200, {}), new Response('x'));
    await api.get('partner/balance');
    await api.post('partner/accounts', {});
    await apiStream('partner/events', new AbortController().signal);
    await apiDownload('partner/balance/statement.csv');
    setTestMode(false);
    replies.push(reply(200, {}));
    await api.get('partner/balance');
    expect(calls.map((c) => `${c.init.method} ${c.url} ${headers(c)['x-portal-mode'] ?? 'live'}`)).toEqual([
      'GET /api/v1/partner/balance live',
      'GET /api/v1/partner/balance test',
      'POST /api/v1/partner/accounts test',
      'GET /api/v1/partner/events test',
      'GET /api/v1/partner/balance/statement.csv test',
      'GET /api/v1/partner/balance live',
    ]);
  });

  it('fetches the request-forgery token once, keeps it in the hidden _csrf input and sends it', async () => {
    replies.push(reply(200, { csrf: 'c1' }), reply(200, {}), reply(200, {}));
    await api.post('users/login', { email: 'a' });
    await api.post('users/login', { email: 'b' });
    expect(calls.map((c) => c.url)).toEqual(['/api/v1/security/csrf', '/api/v1/users/login', '/api/v1/users/login']);
    expect(headers(calls[1]!)['x-csrf-token']).toBe('c1');
    expect(headers(calls[2]!)['x-csrf-token']).toBe('c1');
    const input = document.getElementById('_csrf') as HTMLInputElement;
    expect(input.name).toBe('_csrf');
    expect(input.value).toBe('c1');
  });

  it('turns the error shape into a typed error', async () => {
    replies.push(reply(404, { code: 'NotFound', message: 'No route', requestId: 'r1' }));
    const err = await api.get('nope').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 404, code: 'NotFound', message: 'No route', requestId: 'r1' });
  });

  it('on a 401 refreshes once and retries once', async () => {
    const { refresh, lost } = refreshingHooks();
    replies.push(expired(), reply(200, { v: 2 }));
    expect(await api.get('partner/accounts')).toEqual({ v: 2 });
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(headers(calls[1]!).authorization).toBe('Bearer new');
    expect(lost).not.toHaveBeenCalled();
  });

  it('loses the session when the refresh fails', async () => {
    const lost = vi.fn();
    setAuthHooks({ token: () => 't', refresh: async () => false, onSessionLost: lost });
    replies.push(expired());
    await expect(api.get('partner/accounts')).rejects.toBeInstanceOf(ApiError);
    expect(lost).toHaveBeenCalledTimes(1);
  });

  it('shows InvalidLogin as it is, with no refresh', async () => {
    const refresh = vi.fn(async () => true);
    setAuthHooks({ token: () => undefined, refresh, onSessionLost: () => {} });
    document.body.innerHTML = '<input type="hidden" id="_csrf" name="_csrf" value="c">';
    replies.push(reply(401, { code: 'InvalidLogin', message: 'Incorrect username or password.', requestId: 'r' }));
    await expect(api.post('users/login', {})).rejects.toMatchObject({ code: 'InvalidLogin', message: 'Incorrect username or password.' });
    expect(refresh).not.toHaveBeenCalled();
  });

  it('on a 403 CsrfTokenInvalid fetches a new request-forgery token and retries once with it', async () => {
    document.body.innerHTML = '<input type="hidden" id="_csrf" name="_csrf" value="stale">';
    replies.push(reply(403, { code: 'CsrfTokenInvalid', message: 'csrf', requestId: 'r' }), reply(200, { csrf: 'fresh' }), reply(200, { saved: true }));
    expect(await api.post('partner/payout-config', { type: 'MANUAL' })).toEqual({ saved: true });
    expect(calls.map((c) => `${c.init.method} ${c.url}`)).toEqual([
      'POST /api/v1/partner/payout-config',
      'POST /api/v1/security/csrf',
      'POST /api/v1/partner/payout-config',
    ]);
    expect(headers(calls[0]!)['x-csrf-token']).toBe('stale');
    expect(headers(calls[2]!)['x-csrf-token']).toBe('fresh');
    expect(calls[2]!.init.body).toBe(JSON.stringify({ type: 'MANUAL' }));
    expect((document.getElementById('_csrf') as HTMLInputElement).value).toBe('fresh');
  });

  it('retries a refused request-forgery token only once: a second refusal is the error', async () => {
    document.body.innerHTML = '<input type="hidden" id="_csrf" name="_csrf" value="stale">';
    const refused = () => reply(403, { code: 'CsrfTokenInvalid', message: 'csrf refused', requestId: 'r' });
    replies.push(refused(), reply(200, { csrf: 'fresh' }), refused(), reply(200, { csrf: 'fresher' }), reply(200, {}));
    await expect(api.post('partner/low-balance-limit', {})).rejects.toMatchObject({ status: 403, code: 'CsrfTokenInvalid', message: 'csrf refused' });
    expect(calls.map((c) => c.url)).toEqual(['/api/v1/partner/low-balance-limit', '/api/v1/security/csrf', '/api/v1/partner/low-balance-limit']);
  });

  it('does not retry another 403, nor a refused token on a read', async () => {
    document.body.innerHTML = '<input type="hidden" id="_csrf" name="_csrf" value="c">';
    replies.push(reply(403, { code: 'Forbidden', message: 'admins only', requestId: 'r' }));
    await expect(api.post('partner/payout-config', {})).rejects.toMatchObject({ code: 'Forbidden' });
    replies.push(reply(403, { code: 'CsrfTokenInvalid', message: 'csrf', requestId: 'r' }));
    await expect(api.get('partner/profile')).rejects.toMatchObject({ code: 'CsrfTokenInvalid' });
    expect(calls).toHaveLength(2);
  });

  it('after one refresh and retry, a second 401 ends the session instead of refreshing again', async () => {
    const { refresh, lost } = refreshingHooks();
    // more 401s are queued than the client may use: a client that loops would take them
    replies.push(expired(), expired(), expired(), expired());
    await expect(api.get('partner/accounts')).rejects.toMatchObject({ status: 401, code: 'TokenExpired' });
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(lost).toHaveBeenCalledTimes(1);
    expect(calls.map((c) => headers(c).authorization)).toEqual(['Bearer old', 'Bearer new']);
    expect(replies).toHaveLength(2);
  });

  describe('an outage (no reply, 502/503/504) is never a sign-out', () => {
    const noReply = () => new TypeError('Failed to fetch');
    let outcomes: (Response | Error)[];
    let probes: number;
    let serverBack: boolean;
    beforeEach(() => {
      outcomes = [];
      probes = 0;
      serverBack = false;
      vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
        if (url === '/readyz') {
          probes++;
          if (!serverBack) throw noReply();
          return reply(200, { status: 'ok' });
        }
        calls.push({ url, init });
        const next = outcomes.shift();
        if (!next) throw noReply();
        if (next instanceof Error) throw next;
        return next;
      });
    });
    afterEach(() => resetConnection());

    const session = () => {
      document.body.innerHTML = '<input type="hidden" id="_csrf" name="_csrf" value="c">';
      const refresh = vi.fn(async () => true);
      const lost = vi.fn();
      setAuthHooks({ token: () => 't', refresh, onSessionLost: lost });
      return { refresh, lost };
    };
    const settle = () => new Promise((r) => setTimeout(r, 10));

    it('a read waits, with "Reconnecting...", and is sent again once the server answers: no refresh, no logout', async () => {
      const { refresh, lost } = session();
      outcomes.push(noReply());
      const answer = api.get('partner/accounts');
      await settle();
      expect(useConnection.getState().status).toBe('reconnecting');
      // the server still away: the probe fails, the read keeps waiting
      tryNow();
      await settle();
      expect(probes).toBe(1);
      expect(calls).toHaveLength(1);
      serverBack = true;
      outcomes.push(reply(200, { v: 2 }));
      tryNow();
      expect(await answer).toEqual({ v: 2 });
      expect(useConnection.getState().status).toBe('online');
      expect(calls).toHaveLength(2);
      expect(refresh).not.toHaveBeenCalled();
      expect(lost).not.toHaveBeenCalled();
    });

    it("waits as long as a 503's Retry-After says, then tries", async () => {
      session();
      outcomes.push(
        new Response(JSON.stringify({ code: 'ServiceUnavailable', message: 'away', requestId: 'r' }), { status: 503, headers: { 'retry-after': '5' } }),
      );
      const started = Date.now();
      const answer = api.get('partner/profile');
      await settle();
      const state = useConnection.getState();
      expect(state.status).toBe('reconnecting');
      if (state.status === 'reconnecting') expect(state.nextTryAt - started).toBeGreaterThanOrEqual(4900);
      serverBack = true;
      outcomes.push(reply(200, { ok: true }));
      tryNow();
      expect(await answer).toEqual({ ok: true });
    });

    it('backs off between probes: 1 s, 2 s, 3 s, then 5 s', async () => {
      session();
      void api.get('partner/accounts').catch(() => undefined);
      await settle();
      const first = useConnection.getState();
      tryNow();
      await settle();
      const second = useConnection.getState();
      tryNow();
      await settle();
      const third = useConnection.getState();
      const gap = (s: typeof first) => (s.status === 'reconnecting' ? s.nextTryAt - Date.now() : 0);
      expect(first.status === 'reconnecting' && first.attempt).toBe(0);
      expect(gap(second)).toBeGreaterThan(1500);
      expect(gap(second)).toBeLessThanOrEqual(2000);
      expect(gap(third)).toBeGreaterThan(2500);
      expect(gap(third)).toBeLessThanOrEqual(3000);
    });

    it('a change is not sent again blindly: the caller is told it may not have been saved', async () => {
      const { refresh, lost } = session();
      outcomes.push(noReply(), reply(200, { never: 'sent' }));
      const err = await api.post('partner/webhook', { url: 'https://example.com' }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'NetworkError', message: CHANGE_NOT_CONFIRMED_MESSAGE });
      expect(calls.filter((c) => c.url.endsWith('/partner/webhook'))).toHaveLength(1);
      expect(useConnection.getState().status).toBe('reconnecting');
      expect(refresh).not.toHaveBeenCalled();
      expect(lost).not.toHaveBeenCalled();
    });

    it('a change with its own idempotency key is sent again, the same, once the server is back', async () => {
      session();
      outcomes.push(noReply());
      const answer = api.post('partner/settlement/withdrawal', { sequenceId: 'seq-1' }, { idempotent: true });
      await settle();
      serverBack = true;
      outcomes.push(reply(201, { settlement: 'booked' }));
      tryNow();
      expect(await answer).toEqual({ settlement: 'booked' });
      const sent = calls.filter((c) => c.url.endsWith('/withdrawal')).map((c) => c.init.body);
      expect(sent).toEqual(['{"sequenceId":"seq-1"}', '{"sequenceId":"seq-1"}']);
    });

    it('lets a waiting read go when it is aborted', async () => {
      session();
      const controller = new AbortController();
      const answer = api.get('partner/accounts', { signal: controller.signal }).catch((e: unknown) => e);
      await settle();
      controller.abort();
      expect(await answer).toMatchObject({ name: 'AbortError' });
    });

    it('a call made without a session (sign-in) reports the network error', async () => {
      const refresh = vi.fn(async () => true);
      const lost = vi.fn();
      setAuthHooks({ token: () => undefined, refresh, onSessionLost: lost });
      document.body.innerHTML = '<input type="hidden" id="_csrf" name="_csrf" value="c">';
      outcomes.push(noReply(), reply(200, {}));
      await expect(api.post('users/login', {})).rejects.toMatchObject({ code: 'NetworkError' });
      expect(refresh).not.toHaveBeenCalled();
      expect(lost).not.toHaveBeenCalled();
      expect(calls).toHaveLength(1);
    });
  });

  it('hands the 401 a refresh could not cure to the session, with its reason', async () => {
    const lost = vi.fn();
    setAuthHooks({ token: () => 't', refresh: async () => false, onSessionLost: lost });
    replies.push(reply(401, { code: 'SessionEnded', message: 'You no longer have access to Acme Remit.', requestId: 'r' }));
    await expect(api.get('partner/accounts')).rejects.toMatchObject({ code: 'SessionEnded' });
    expect(lost).toHaveBeenCalledWith(expect.objectContaining({ code: 'SessionEnded', message: 'You no longer have access to Acme Remit.' }));
  });

  describe('the request-forgery token is the one of the session the call names', () => {
    /** An access token whose claims name session `sid` (the page reads the claim; the server checks the signature). */
    const tokenOf = (sid: string) => `h.${btoa(JSON.stringify({ sid })).replace(/=+$/, '')}.s`;
    const csrfCalls = () => calls.filter((c) => c.url === '/api/v1/security/csrf');

    it('a call sent without the access token from a signed-in tab asks for a token of no session, and is sent once', async () => {
      setAuthHooks({ token: () => tokenOf('s1'), refresh: async () => true, onSessionLost: () => {} });
      replies.push(reply(200, { csrf: 'session-token' }), reply(200, {}));
      await api.post('partner/payout-config', { type: 'MANUAL' });
      replies.push(reply(200, { csrf: 'no-session-token' }), reply(200, { valid: true }));
      expect(await api.post('users/invitation', { token: 't' }, { auth: false })).toEqual({ valid: true });
      expect(csrfCalls().map((c) => headers(c).authorization)).toEqual([`Bearer ${tokenOf('s1')}`, undefined]);
      const sent = calls.filter((c) => c.url === '/api/v1/users/invitation');
      expect(sent).toHaveLength(1);
      expect(headers(sent[0]!).authorization).toBeUndefined();
      expect(headers(sent[0]!)['x-csrf-token']).toBe('no-session-token');
    });

    it("the session's own calls (renew: false) carry the access token and its session's token; their 401 is the answer", async () => {
      const refresh = vi.fn(async () => true);
      const lost = vi.fn();
      setAuthHooks({ token: () => tokenOf('s2'), refresh, onSessionLost: lost });
      replies.push(reply(200, { csrf: 's2-token' }), reply(200, { accessToken: 'next' }));
      await api.post('users/refresh', {}, { renew: false });
      replies.push(reply(401, { code: 'SessionEnded', message: 'Your session has ended. Sign in again.', requestId: 'r' }));
      await expect(api.post('users/logout', {}, { renew: false })).rejects.toMatchObject({ status: 401, code: 'SessionEnded' });
      // one token for both (the session's), the bearer on both, and no renewal nor sign-out from the client's side
      expect(csrfCalls()).toHaveLength(1);
      for (const path of ['/api/v1/users/refresh', '/api/v1/users/logout']) {
        const sent = calls.filter((c) => c.url === path);
        expect(sent.map((c) => [headers(c).authorization, headers(c)['x-csrf-token']])).toEqual([[`Bearer ${tokenOf('s2')}`, 's2-token']]);
      }
      expect(refresh).not.toHaveBeenCalled();
      expect(lost).not.toHaveBeenCalled();
      // leaves the client holding a token of no session, as the other tests expect
      setAuthHooks(undefined);
      replies.push(reply(200, { csrf: 'c' }), reply(200, {}));
      await api.post('users/login', {});
    });
  });
});
