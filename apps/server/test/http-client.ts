import { DEMO_PASSWORD, DEMO_USERS } from '../src/db/seed/demo.ts';
import { currentStep, totpCode } from '../src/lib/totp.ts';

export type HttpReply = { status: number; retryAfter: string | null; body: unknown; text: string };

/**
 * A browser-like caller of a running server over real HTTP (a server process, or a load balancer in front of
 * several): keeps its cookies, fetches the request-forgery token (of its session) before the first mutating call, sends the
 * access token once signed in. A connection that fails answers status 0 instead of throwing.
 */
export function httpClient(baseUrl: string) {
  const jar = new Map<string, string>();
  let csrf: string | undefined;
  let token: string | undefined;
  const keep = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (value === '' || /max-age=0/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
  };
  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpReply> {
    if (method !== 'GET' && !csrf) {
      // bound to the session: asked for with the access token once signed in
      const issued = await fetch(`${baseUrl}/api/v1/security/csrf`, {
        method: 'POST',
        headers: { cookie: cookieHeader(), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      }).catch(() => undefined);
      if (!issued) return { status: 0, retryAfter: null, body: undefined, text: 'no connection' };
      keep(issued);
      if (!issued.ok) return { status: issued.status, retryAfter: issued.headers.get('retry-after'), body: undefined, text: await issued.text() };
      csrf = ((await issued.json()) as { csrf: string }).csrf;
    }
    const all: Record<string, string> = { cookie: cookieHeader(), ...headers };
    if (token) all.authorization = `Bearer ${token}`;
    if (method !== 'GET') {
      all['x-csrf-token'] = csrf!;
      all['content-type'] = 'application/json';
    }
    try {
      const res = await fetch(`${baseUrl}${path}`, { method, headers: all, ...(method !== 'GET' ? { body: JSON.stringify(body ?? {}) } : {}) });
      keep(res);
      const text = await res.text();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      return { status: res.status, retryAfter: res.headers.get('retry-after'), body: parsed, text };
    } catch (err) {
      return { status: 0, retryAfter: null, body: undefined, text: err instanceof Error ? err.message : String(err) };
    }
  }
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  return {
    get: (path: string, headers?: Record<string, string>) => call('GET', path, undefined, headers),
    post: (path: string, body?: unknown, headers?: Record<string, string>) => call('POST', path, body, headers),
    /** the access token, once signed in */
    token: () => token,
    /** the headers a mutating call sends (cookies, request-forgery token, access token), for a request made by hand */
    async mutatingHeaders(): Promise<Record<string, string>> {
      if (!csrf) await call('POST', '/api/v1/security/csrf');
      return { cookie: cookieHeader(), 'x-csrf-token': csrf!, ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' };
    },
    /**
     * Signs a demo user in with password and the authenticator code of `at` (ms; a code is taken once per user, so
     * callers signing the same user in twice move to the next 30 s step).
     */
    async signIn(email: string, at = Date.now()) {
      const secret = DEMO_USERS.find((u) => u.email === email)?.totpSecret;
      if (!secret) throw new Error(`${email} has no demo authenticator`);
      const login = await call('POST', '/api/v1/users/login', { email, password: DEMO_PASSWORD });
      if (login.status !== 200) throw new Error(`login ${email}: ${login.status} ${login.text}`);
      const { session } = login.body as { session: string };
      const res = await call('POST', '/api/v1/users/challenge-response', {
        session,
        challengeName: 'SOFTWARE_TOKEN_MFA',
        username: email,
        userCode: totpCode(secret, currentStep(at)),
      });
      if (res.status !== 200) throw new Error(`challenge ${email}: ${res.status} ${res.text}`);
      token = (res.body as { accessToken: string }).accessToken;
      // the token of before the sign-in served no session: the next mutating call asks for this session's
      csrf = undefined;
      return res.body as { accessToken: string; user: { id: string; partnerId: string } };
    },
  };
}

export type HttpClient = ReturnType<typeof httpClient>;
