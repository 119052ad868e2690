import fs from 'node:fs';
import path from 'node:path';
import { generateSync } from 'otplib';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { DEMO_PASSWORD, DEMO_USERS } from '../../apps/server/src/db/seed/demo.ts';

export { DEMO_PASSWORD };

/** Authenticator secrets of the demo users that have one, from the seed itself. */
export const SECRETS: Record<string, string> = Object.fromEntries(
  DEMO_USERS.filter((u) => u.totpSecret && u.status === 'active').map((u) => [u.email, u.totpSecret!]),
);

/** The authenticator code an app would show now for this secret. */
export const totp = (secret: string) => generateSync({ secret, epoch: Math.floor(Date.now() / 1000) });

/**
 * A code for a sign-in of this persona that the server has not seen yet. The server accepts the codes of one 30-second
 * step either side of now (clock drift), each step once and in order (replay protection): so three sign-ins of a persona
 * fit in one step (the previous, the current, the next code), as an authenticator app whose clock is a little off would
 * give them; a fourth waits for the next step, as a person would. The previous step's code is not used in the last
 * seconds of a step, when it could slip out of the server's window before the code arrives.
 */
const lastStep = new Map<string, number>();
/** A new server's database has seen no code yet: every step is free again (the files of a run share this module). */
export const forgetUsedCodes = () => lastStep.clear();
export async function freshTotp(email: string): Promise<string> {
  const secret = SECRETS[email]!;
  for (;;) {
    const seconds = Date.now() / 1000;
    const now = Math.floor(seconds / 30);
    const earliest = 30 - (seconds % 30) > 5 ? now - 1 : now;
    const step = Math.max(earliest, (lastStep.get(email) ?? -Infinity) + 1);
    if (step <= now + 1) {
      lastStep.set(email, step);
      return generateSync({ secret, epoch: step * 30 });
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

export async function submitLogin(page: Page, baseUrl: string, email: string, password: string) {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Signs a demo persona in through the screens, with a code computed from its secret. */
export async function signInAs(page: Page, baseUrl: string, email: string, options: { beforeVerify?: (page: Page) => Promise<void> } = {}) {
  await submitLogin(page, baseUrl, email, DEMO_PASSWORD);
  await page.waitForURL('**/two-factor-authentication');
  await page.getByLabel('Authentication code').fill(await freshTotp(email));
  await options.beforeVerify?.(page);
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/two-factor'));
}

const SHOTS = path.resolve(import.meta.dirname, '../screenshots');

type Size = { width: number; height: number };

/** Desktop and 375 px wide screenshots of the current page (1280×800 and 375×740 unless `sizes` say), into e2e/screenshots. */
export async function screenshots(
  page: Page,
  name: string,
  sizes: { desktop: Size; phone: Size } = { desktop: { width: 1280, height: 800 }, phone: { width: 375, height: 740 } },
) {
  fs.mkdirSync(SHOTS, { recursive: true });
  const size = page.viewportSize() ?? sizes.desktop;
  await page.setViewportSize(sizes.desktop);
  await page.screenshot({ path: path.join(SHOTS, `${name}-desktop.png`), fullPage: true });
  await page.setViewportSize(sizes.phone);
  await page.screenshot({ path: path.join(SHOTS, `${name}-mobile.png`), fullPage: true });
  await page.setViewportSize(size);
}

/**
 * A signed-in API caller without a browser, as the portal calls the API: cookies kept, the request-forgery token
 * on every POST, the access token from a sign-in with the persona's authenticator code.
 */
export async function apiSignIn(baseUrl: string, email: string) {
  const jar = new Map<string, string>();
  let csrf = '';
  let token = '';
  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown): Promise<Response> => {
    const headers: Record<string, string> = { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (method !== 'GET' && csrf) headers['x-csrf-token'] = csrf;
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(`${baseUrl}${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return res;
  };
  csrf = ((await (await call('POST', '/api/v1/security/csrf')).json()) as { csrf: string }).csrf;
  const login = (await (await call('POST', '/api/v1/users/login', { email, password: DEMO_PASSWORD })).json()) as { session: string };
  const answer = await call('POST', '/api/v1/users/challenge-response', {
    session: login.session,
    challengeName: 'SOFTWARE_TOKEN_MFA',
    username: email,
    userCode: await freshTotp(email),
  });
  if (answer.status !== 200) throw new Error(`sign-in of ${email} failed: ${answer.status} ${await answer.text()}`);
  token = ((await answer.json()) as { accessToken: string }).accessToken;
  // a request-forgery token is bound to its session: the one of before the sign-in served none
  csrf = ((await (await call('POST', '/api/v1/security/csrf')).json()) as { csrf: string }).csrf;
  return {
    get: (url: string) => call('GET', url),
    post: (url: string, body: unknown = {}) => call('POST', url, body),
    put: (url: string, body: unknown = {}) => call('PUT', url, body),
  };
}

/** A page of the server's browser (with `options`: its viewport and any other) on which `email` has signed in. */
export async function signedInPage(env: { server: { url: string }; browser: Browser }, email: string, options: BrowserContextOptions = {}) {
  const page = await env.browser.newPage(options);
  await signInAs(page, env.server.url, email);
  return page;
}
