import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { browserMissing, holdClocks, launch, watchCsp } from './support/browser.ts';
import { apiSignIn, screenshots, signInAs } from './support/portal.ts';
import { startServer, type RunningServer } from './support/server.ts';
import { freePort } from '../apps/server/test/server-process.ts';
import { DATABASES, serverDatabase } from '../apps/server/test/harness.ts';
import { DEMO_USERS } from '../apps/server/src/db/seed/demo.ts';

/** A time a page wrote down (ms since the epoch, the browser's clock). */
type Stamped = { stamp?: number };
/** The page writes down when it is next clicked. */
const stampClick = (page: Page) =>
  page.evaluate(() => document.addEventListener('click', () => ((window as unknown as Stamped).stamp ??= Date.now()), { capture: true }));
/** The page writes down when the portal next moves it to a path starting with `prefix`. */
const stampMove = (page: Page, prefix: string) =>
  page.evaluate((prefix) => {
    for (const name of ['pushState', 'replaceState'] as const) {
      const original = history[name].bind(history);
      history[name] = (data: unknown, unused: string, url?: string | URL | null) => {
        if (url && new URL(String(url), location.href).pathname.startsWith(prefix)) (window as unknown as Stamped).stamp ??= Date.now();
        original(data, unused, url);
      };
    }
  }, prefix);
/** Seconds between what two pages wrote down. */
const between = async (from: Page, to: Page) => {
  const [a, b] = await Promise.all([from, to].map((p) => p.evaluate(() => (window as unknown as Stamped).stamp!)));
  return ((b! - a!) / 1000).toFixed(3);
};

/**
 * Sessions follow the person, not the tab: the tabs of one browser share one session (a new tab opens signed in,
 * a sign-out anywhere ends every tab, the idle count is the browser's), an outage is never a sign-out, and a change
 * of access made by someone else reaches the open screen within 2 s. Each test prints what it measured.
 */
describe.skipIf(browserMissing).each(DATABASES)('sessions follow the person (%s)', (kind) => {
  let server: RunningServer;
  let browser: Browser & { cspViolations: string[] };
  let port: number;
  let database: { url: string; drop(): Promise<void> } | undefined;
  const contexts: BrowserContext[] = [];
  // the demo's payment generator adds a payment each second, so that a table that carries on shows it
  const env = () => ({ PORT: String(port), DEMO_LIVE: 'true', DEMO_LIVE_SECONDS: '1', ...(database ? { DATABASE_URL: database.url } : {}) });
  // what runs only in the browser (tabs, the idle count) is shown once; what the server decides, on both databases
  const browserOnly = it.skipIf(kind === 'postgres');
  // another admin of Acme, calling the API: signed in once (a second sign-in would wait for the next code)
  let adminApi: Awaited<ReturnType<typeof apiSignIn>> | undefined;
  const admin = async () => (adminApi ??= await apiSignIn(server.url, 'admin@acme.test'));

  beforeAll(async () => {
    port = await freePort();
    if (kind === 'postgres') database = await serverDatabase();
    [server, browser] = await Promise.all([startServer(env()), launch()]);
  });
  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
    expect(browser.cspViolations.splice(0), 'Content-Security-Policy violations').toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await database?.drop();
  });

  /** A browser of its own (one person), whose tabs share cookies and storage. */
  async function person() {
    const context = await browser.newContext();
    contexts.push(context);
    const tab = async (path?: string) => {
      const page = await context.newPage();
      await watchCsp(page, browser.cspViolations);
      if (path) await page.goto(`${server.url}${path}`);
      return page;
    };
    return { context, tab };
  }
  const userId = (email: string) => DEMO_USERS.find((u) => u.email === email)!.id;
  const seconds = (since: number) => ((Date.now() - since) / 1000).toFixed(2);
  const loginMessage = (page: Page) => page.getByTestId('sign-in-flash').textContent();

  browserOnly('a new tab opens signed in; a sign-out in one tab ends the others at once; a sign-in in one is seen by the others', async () => {
    const { tab } = await person();
    const a = await tab();
    await signInAs(a, server.url, 'admin@acme.test');
    await a.waitForURL('**/transactions');

    // a link opened in a new tab, a bookmark: signed in, no second code
    const started = Date.now();
    const b = await tab('/balance');
    await b.getByTestId('usd-available').filter({ hasText: 'USD' }).waitFor();
    console.log(`new tab signed in and showing the balance in ${seconds(started)} s`);
    expect(new URL(b.url()).pathname).toBe('/balance');
    const c = await tab('/login');
    await c.waitForURL('**/transactions');

    // sign out in A: B and C go to the sign-in page, and say why (timed in the browser: the click in A, B's move)
    await stampClick(a);
    await stampMove(b, '/login');
    await a.getByRole('button', { name: 'Log out' }).click();
    await b.waitForURL('**/login', { timeout: 2000 });
    console.log(`a sign-out reached the other tab in ${await between(a, b)} s (from the click in one tab to the other's move)`);
    await c.waitForURL('**/login', { timeout: 2000 });
    expect(await loginMessage(b)).toBe('You signed out in another tab or window.');
    await screenshots(b, 'session-signed-out-elsewhere');
    // the browser holds no session any more: a new tab is not signed in
    const d = await tab('/transactions');
    await d.waitForURL('**/login');

    // a sign-in in B (by a colleague at the same browser) is seen by C, on the sign-in page: it opens the portal too
    await stampMove(c, '/');
    await signInAs(b, server.url, 'admin2@acme.test', { beforeVerify: stampClick });
    await c.waitForURL('**/transactions', { timeout: 5000 });
    console.log(`a sign-in reached the other tab in ${await between(b, c)} s (from Verify in one tab to the other's move)`);
    await c.getByText('admin2@acme.test', { exact: false }).waitFor();
  });

  browserOnly('activity in one tab keeps the others signed in past 300 s; the warning counts down in every tab and Stay signed in works from any', async () => {
    const { context, tab } = await person();
    await context.clock.install();
    const a = await tab();
    await signInAs(a, server.url, 'treasury@acme.test');
    await a.waitForURL('**/transactions');
    const b = await tab('/balance');
    await b.getByTestId('usd-available').filter({ hasText: 'USD' }).waitFor();
    // from here the pages' time moves only when the test moves it
    await holdClocks(context);

    // 200 s, activity in A, 200 s more: B has seen no activity of its own for 400 s, and stays
    await context.clock.fastForward(200_000);
    await a.mouse.move(40, 40);
    await a.mouse.move(200, 120);
    await context.clock.fastForward(200_000);
    await context.clock.runFor(2000);
    expect(await b.getByRole('dialog').count()).toBe(0);
    expect(new URL(b.url()).pathname).toBe('/balance');

    // 301 s after the last activity: the warning, in both tabs, counting down
    await context.clock.fastForward(101_000);
    await context.clock.runFor(1000);
    for (const page of [a, b]) await page.getByRole('dialog', { name: 'Are you still there?' }).waitFor();
    const left = () => b.getByTestId('idle-countdown').textContent();
    // 304 s without activity: 6 s left, then 3 s later 3
    expect(await left()).toBe('Logging out in 6 seconds.');
    await context.clock.runFor(3000);
    expect(await left()).toBe('Logging out in 3 seconds.');
    await screenshots(b, 'session-idle-warning');

    // Stay signed in, in B: the warning closes in A too
    await b.getByRole('button', { name: 'Stay signed in' }).click();
    // B's time of activity reaches A's storage by itself, some moments later on a busy machine; A's clock is held, so
    // its next check must come after that
    const stayed = await b.evaluate(() => localStorage.getItem('portal-last-activity'));
    await expect.poll(() => a.evaluate(() => localStorage.getItem('portal-last-activity'))).toBe(stayed);
    await context.clock.runFor(1500);
    await a.getByRole('dialog').waitFor({ state: 'detached' });

    // then nobody does anything: both tabs sign out after 310 s, with the reason
    await context.clock.fastForward(311_000);
    await context.clock.runFor(1000);
    for (const page of [a, b]) {
      await page.waitForURL('**/login');
      expect(await loginMessage(page)).toBe('You were logged out after a period of inactivity.');
    }
    // the token refresh both tabs sent just before (it was due too) is answered after the sign-out: it signs nobody back in
    await context.clock.runFor(2000);
    await a.waitForLoadState('networkidle');
    await b.waitForLoadState('networkidle');
    for (const page of [a, b]) {
      expect(new URL(page.url()).pathname).toBe('/login');
      expect(await loginMessage(page)).toBe('You were logged out after a period of inactivity.');
      // a tab signed in again would mark the browser signed in (the marker new tabs read)
      expect(await page.evaluate(() => localStorage.getItem('portal-signed-in'))).toBeNull();
    }
  });

  it('the server stopped for 20 s and started again on its data: both tabs stay signed in, say Reconnecting..., and carry on without a new code', async () => {
    const { tab } = await person();
    const a = await tab();
    await signInAs(a, server.url, 'admin@acme.test');
    await a.waitForURL('**/transactions');
    const firstRow = () => a.locator('[data-testid="transaction-row"] button[aria-label="Copy ID"]').first().getAttribute('data-copy');
    await a.getByTestId('transaction-row').first().waitFor();
    const b = await tab('/balance');
    await b.getByTestId('usd-available').filter({ hasText: 'USD' }).waitFor();
    let signIns = 0;
    for (const page of [a, b]) page.on('request', (r) => void (/\/users\/(login|challenge-response)$/.test(r.url()) && signIns++));

    let started = Date.now();
    await server.stop();
    await a.getByTestId('connection-notice').waitFor({ timeout: 10_000 });
    console.log(`"Reconnecting..." shown ${seconds(started)} s after the server stopped`);
    const before = await firstRow();
    await new Promise((resolve) => setTimeout(resolve, 20_000));
    for (const page of [a, b]) {
      expect(new URL(page.url()).pathname).not.toBe('/login');
      await page.getByTestId('connection-notice').waitFor();
    }
    expect(new URL(a.url()).pathname).toBe('/transactions');
    expect(await a.getByTestId('transaction-row').count()).toBeGreaterThan(0);
    await screenshots(a, 'session-reconnecting');

    started = Date.now();
    server = await startServer({ ...env(), DATA_DIR: server.dataDir });
    const restarted = Date.now();
    for (const page of [a, b]) await page.getByTestId('connection-notice').waitFor({ state: 'detached', timeout: 15_000 });
    console.log(
      `server back after ${seconds(started)} s (start ${((restarted - started) / 1000).toFixed(2)} s); both tabs reconnected ${seconds(restarted)} s after it was ready`,
    );
    // the table carries on: the demo's next payment comes without a reload (the live stream is back); it waits
    // above the rows on screen ("1 new transaction") and shows at the top when asked for
    await a.getByTestId('show-new-rows').click({ timeout: 30_000 });
    await expect.poll(firstRow, { timeout: 5_000 }).not.toBe(before);
    // and the other tab still works: the balance screen reads again
    await b.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    await b.getByTestId('repeat-summary').waitFor();
    expect(signIns).toBe(0);
  }, 150_000);

  it("a role taken away reaches the person's open screen within 2 s: Withdraw goes, an open withdrawal closes with a message", async () => {
    const thandi = await person();
    const page = await thandi.tab();
    await signInAs(page, server.url, 'treasury@acme.test');
    await page.goto(`${server.url}/balance`);
    await page.getByRole('button', { name: 'Withdraw' }).click();
    await page.getByRole('dialog', { name: 'Withdraw funds' }).waitFor();
    const started = Date.now();
    const res = await (await admin()).post('/api/v1/users/update', { userId: userId('treasury@acme.test'), role: 'view' });
    expect(res.status).toBe(200);
    await page.getByRole('dialog').waitFor({ state: 'detached', timeout: 2000 });
    await page.getByText(/Your role is now View only: only admin and treasury users can withdraw/).waitFor({ timeout: 2000 });
    console.log(`a role change reached the open screen in ${seconds(started)} s`);
    expect(await page.getByRole('button', { name: 'Withdraw' }).count()).toBe(0);
    await screenshots(page, 'session-role-changed');
    // a reload keeps the new role (the profile says it)
    await page.reload();
    await page.getByTestId('usd-available').filter({ hasText: 'USD' }).waitFor();
    expect(await page.getByRole('button', { name: 'Withdraw' }).count()).toBe(0);
    await (await admin()).post('/api/v1/users/update', { userId: userId('treasury@acme.test'), role: 'treasury' });
    await page.getByRole('button', { name: 'Withdraw' }).waitFor({ timeout: 2000 });
  });

  it('a removed user is signed out within 2 s, in every tab, and told: "You no longer have access to Acme Remit."', async () => {
    const femi = await person();
    const a = await femi.tab();
    await signInAs(a, server.url, 'viewer@acme.test');
    await a.waitForURL('**/transactions');
    const b = await femi.tab('/balance');
    await b.getByTestId('usd-available').filter({ hasText: 'USD' }).waitFor();
    const started = Date.now();
    const res = await (await admin()).put(`/api/v1/users/delete/${userId('viewer@acme.test')}`);
    expect(res.status).toBe(200);
    for (const page of [a, b]) await page.waitForURL('**/login', { timeout: 2000 });
    console.log(`a removal reached both open tabs in ${seconds(started)} s`);
    for (const page of [a, b]) expect(await loginMessage(page)).toBe('You no longer have access to Acme Remit.');
    await screenshots(a, 'session-removed');
  });
  it("a requester's open screen learns within 2 s that another admin approved its country change", async () => {
    const kwame = await person();
    const page = await kwame.tab();
    await signInAs(page, server.url, 'admin2@acme.test');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Enabled Countries' }).click();
    const benin = page.getByTestId('country-BJ');
    await benin.getByRole('button', { name: 'Enable Benin' }).click();
    await page.getByRole('dialog', { name: 'Enable Benin?' }).getByRole('button', { name: 'Request to enable' }).click();
    await benin.getByText('Pending enable').waitFor();
    await page.getByTestId('pending-countries-banner').waitFor();

    const { rates } = (await (await (await admin()).get('/api/v1/partner/rates')).json()) as { rates: { id: string; rateId: string; locale: string }[] };
    const rate = rates.find((r) => r.locale === 'BJ')!;
    const started = Date.now();
    const res = await (
      await admin()
    ).put('/api/v1/partner/rates/review', { rates: [{ partnerRateId: rate.id, platformRateId: rate.rateId, status: 'enabled' }] });
    expect(res.status).toBe(200);
    await benin.getByText('Enabled', { exact: true }).waitFor({ timeout: 2000 });
    await page.getByTestId('pending-countries-banner').waitFor({ state: 'detached', timeout: 2000 });
    console.log(`an approval reached the requester's open screen in ${seconds(started)} s`);
  });
});
