import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { browserMissing, holdClocks, launch, watchCsp } from './support/browser.ts';
import { apiSignIn, signInAs } from './support/portal.ts';
import { startServer, type RunningServer } from './support/server.ts';
import { DATABASES, serverDatabase } from '../apps/server/test/harness.ts';

/** The access token's life on this test's server (the shortest the server takes): the portal renews it a quarter of its life (2.5 s) before its end. */
const TOKEN_SECONDS = 10;
const IDLE_WARNING_SECONDS = 20;
const IDLE_LOGOUT_SECONDS = 5;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A payout of `email`'s partner to a Kenyan M-Pesa phone, made through the API as the partner's server would. */
async function payOut(baseUrl: string, email: string) {
  const api = await apiSignIn(baseUrl, email);
  const { channels } = (await (await api.get('/api/v1/channels?country=KE&rampType=withdraw')).json()) as { channels: { id: string; channelType: string }[] };
  const { networks } = (await (await api.get('/api/v1/networks?country=KE')).json()) as { networks: { id: string; code: string }[] };
  const made = await api.post('/api/v1/partner/disbursement', {
    country: 'KE',
    channelId: channels.find((c) => c.channelType === 'momo')!.id,
    networkId: networks.find((n) => n.code === 'MPESA')!.id,
    accountNumber: '+254712345678',
    recipient: { name: 'Amina Juma' },
    amount: '1500',
    sequenceId: crypto.randomUUID(),
  });
  expect(made.status, await made.clone().text()).toBe(201);
}

/** What the tabs of one person asked the server, and where they went, for the assertions at the end. */
type Record_ = {
  refreshes: { tab: string; status: number; at: number }[];
  logouts: { tab: string; status: number }[];
  forbidden: string[];
  onLogin: { tab: string; at: number }[];
  /** every API call answered, in order: `A: 200 GET /api/v1/...` */
  calls: string[];
};

/**
 * A person keeps working across the renewals of their access token (a short one here, ACCESS_TOKEN_SECONDS=10), in two
 * tabs, with the live updates flowing: on schedule, and after the server answered that a token had expired (the tab's
 * timers held, as a browser holds a background tab's, past the token's end). Never on /login, every refresh 200, no
 * 403 anywhere; and the idle rule still signs a tab left alone out.
 */
describe.skipIf(browserMissing).each(DATABASES)('a session outlives its access tokens (%s)', (kind) => {
  let server: RunningServer;
  let browser: Browser & { cspViolations: string[] };
  let database: { url: string; drop(): Promise<void> } | undefined;
  let context: BrowserContext | undefined;

  beforeAll(async () => {
    if (kind === 'postgres') database = await serverDatabase();
    [server, browser] = await Promise.all([
      startServer({
        ACCESS_TOKEN_SECONDS: String(TOKEN_SECONDS),
        IDLE_WARNING_SECONDS: String(IDLE_WARNING_SECONDS),
        IDLE_LOGOUT_SECONDS: String(IDLE_LOGOUT_SECONDS),
        // the demo's generator adds a payment every 2 s: the open table learns of it through the live stream
        DEMO_LIVE: 'true',
        DEMO_LIVE_SECONDS: '2',
        ...(database ? { DATABASE_URL: database.url } : {}),
      }),
      launch(),
    ]);
  });
  afterEach(async () => {
    await context?.close();
    expect(browser.cspViolations.splice(0), 'Content-Security-Policy violations').toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await database?.drop();
  });

  it(
    `two tabs stay signed in across renewals on schedule and after an expired-token reply; ${kind === 'pglite' ? 'the idle rule still signs them out' : 'a sign-out from a tab is answered at once'}`,
    async () => {
      context = await browser.newContext({ locale: 'en-US' });
      // the pages' clocks are real until the test holds them (the expired-token part)
      await context.clock.install();
      const record: Record_ = { refreshes: [], logouts: [], forbidden: [], onLogin: [], calls: [] };
      const open = async (name: string) => {
        const page = await context!.newPage();
        await watchCsp(page, browser.cspViolations);
        page.on('response', (res) => {
          const { pathname } = new URL(res.url());
          if (!pathname.startsWith('/api/')) return;
          const call = `${name}: ${res.status()} ${res.request().method()} ${pathname}`;
          if (res.status() === 403) record.forbidden.push(call);
          if (pathname.endsWith('/users/refresh')) record.refreshes.push({ tab: name, status: res.status(), at: Date.now() });
          record.calls.push(call);
          if (pathname.endsWith('/users/logout')) record.logouts.push({ tab: name, status: res.status() });
        });
        page.on('framenavigated', (frame) => {
          if (frame === page.mainFrame() && new URL(frame.url()).pathname === '/login') record.onLogin.push({ tab: name, at: Date.now() });
        });
        return page;
      };
      const renewals = (tab: string, since = 0) => record.refreshes.filter((r) => r.tab === tab && r.at >= since).length;
      const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();

      // A signs in and stays on the transactions (the live rows come to it); B opens signed in (a refresh without a token)
      const a = await open('A');
      await signInAs(a, server.url, 'admin@acme.test');
      await a.waitForURL('**/transactions');
      await a.getByTestId('transaction-row').first().waitFor();
      // from here on, no tab may go to the sign-in page
      record.onLogin.length = 0;
      const b = await open('B');
      await b.goto(`${server.url}/balance`);
      await b.getByTestId('usd-available').filter({ hasText: 'USD' }).waitFor();
      const signedIn = Date.now();
      const firstRow = () => a.locator('[data-testid="transaction-row"] button[aria-label="Copy ID"]').first().getAttribute('data-copy');

      // work for three renewals of each tab: A moves about its table, B goes from screen to screen
      const screens = ['Settings', 'Balance', 'Transactions'];
      // when the tabs were last used: the idle count starts there
      let lastActivity = Date.now();
      const work = async (until: () => boolean, limitMs: number) => {
        const deadline = Date.now() + limitMs;
        for (let step = 0; !until(); step++) {
          expect(Date.now(), 'the renewals did not come in time').toBeLessThan(deadline);
          expect(record.onLogin, `a tab went to /login; ${record.calls.filter((c) => c.includes('/users/')).join(', ')}`).toEqual([]);
          await a.mouse.move(100 + (step % 7) * 40, 200 + (step % 3) * 30);
          if (step % 3 === 0) await nav(b, screens[(step / 3) % screens.length]!);
          lastActivity = Date.now();
          await sleep(1000);
        }
      };
      await work(() => renewals('A', signedIn) >= 3 && renewals('B', signedIn) >= 3, (TOKEN_SECONDS * 5 + 10) * 1000);
      console.log(
        `${kind}: renewals in ${((Date.now() - signedIn) / 1000).toFixed(1)} s: A ${renewals('A', signedIn)}, B ${renewals('B', signedIn)}, all ${record.refreshes.map((r) => r.status).join(' ')}`,
      );
      // the live stream carried on across them: a payout made now (besides the demo's, which may all have been Kora's
      // or collections) waits above the rows, and shows when asked for
      const before = await firstRow();
      await payOut(server.url, 'admin@acme.test');
      await a.getByTestId('show-new-rows').click({ timeout: 10_000 });
      await expect.poll(firstRow, { timeout: 5_000 }).not.toBe(before);

      // the tabs' timers held past the token's end (a background tab, a laptop asleep): the scheduled renewal does not
      // come, and B's next screen is answered 401 TokenExpired by the server; B renews with the expired token and carries on
      await holdClocks(context);
      await sleep((TOKEN_SECONDS + 2) * 1000);
      const callsBefore = record.calls.length;
      // a screen B has not opened yet, so that its data is asked for (not drawn from the tab's cache)
      await nav(b, 'Enabled Countries');
      const calls = () => record.calls.slice(callsBefore).filter((c) => c.startsWith('B: '));
      const expiredCall = () => calls().find((c) => c.startsWith('B: 401 GET '));
      // the same call, answered once the token is renewed
      const cured = () => {
        const expired = expiredCall();
        return expired !== undefined && calls().includes(expired.replace(': 401 ', ': 200 '));
      };
      for (let i = 0; i < 100 && !cured(); i++) await context.clock.runFor(100);
      expect(cured(), calls().join('\n')).toBe(true);
      await b.getByTestId('country-BJ').waitFor({ timeout: 1000 });
      const expired = calls().indexOf(expiredCall()!);
      expect(calls().slice(expired + 1)).toContain('B: 200 POST /api/v1/users/refresh');
      console.log(`${kind}: the tabs held ${TOKEN_SECONDS + 2} s; then ${calls().join(', ')}`);
      await context.clock.resume();
      // and both go on renewing on schedule
      const resumed = Date.now();
      await work(() => renewals('A', resumed) >= 1 && renewals('B', resumed) >= 1, (TOKEN_SECONDS * 2 + 10) * 1000);

      expect(record.onLogin, 'a tab went to /login').toEqual([]);
      expect(record.forbidden, 'a 403').toEqual([]);
      expect(
        record.refreshes.filter((r) => r.status !== 200),
        'a refresh other than 200',
      ).toEqual([]);
      // every 401 (an expired token) was cured: the same call answered 200 after it, in the same tab
      const uncured = record.calls.filter((call, i) => call.includes(': 401 ') && !record.calls.slice(i + 1).includes(call.replace(': 401 ', ': 200 ')));
      expect(uncured, 'a 401 that the renewal did not cure').toEqual([]);

      if (kind === 'pglite') {
        // left alone: the warning, then both tabs signed out for inactivity, their sign-out call answered at once
        // measured from the last mouse move or click, not from here: the checks above take a second on a busy machine
        const idle = lastActivity;
        for (const page of [a, b]) await page.waitForURL('**/login', { timeout: (IDLE_WARNING_SECONDS + IDLE_LOGOUT_SECONDS + 15) * 1000 });
        const after = (Date.now() - idle) / 1000;
        console.log(`${kind}: signed out for inactivity ${after.toFixed(1)} s after the last activity`);
        expect(after).toBeGreaterThanOrEqual(IDLE_WARNING_SECONDS + IDLE_LOGOUT_SECONDS - 1);
        for (const page of [a, b]) expect(await page.getByTestId('sign-in-flash').textContent()).toBe('You were logged out after a period of inactivity.');
      } else {
        // signing out from a signed-in tab: the other follows
        await a.getByRole('button', { name: 'Log out' }).click();
        for (const page of [a, b]) await page.waitForURL('**/login', { timeout: 5000 });
      }
      // the sign-out call is sent as the tab leaves: wait for its answer
      await expect.poll(() => record.logouts.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
      expect(
        record.logouts.filter((l) => l.status !== 200),
        'a sign-out call other than 200',
      ).toEqual([]);
      expect(record.forbidden, 'a 403').toEqual([]);
      console.log(`${kind}: refreshes ${record.refreshes.length} (all 200), sign-out calls ${record.logouts.map((l) => l.status).join(' ')}, 403s 0`);
    },
    (TOKEN_SECONDS * 10 + IDLE_WARNING_SECONDS + IDLE_LOGOUT_SECONDS + 90) * 1000,
  );
});
