import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserMissing } from './support/browser.ts';
import { screenshots, signInAs } from './support/portal.ts';
import { serverAndBrowser } from './support/server.ts';

/** The chunks a page asked for, by file name (the portal's own scripts only). */
function scriptsOf(page: Page) {
  const names: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith('/assets/') && url.pathname.endsWith('.js')) names.push(url.pathname.slice('/assets/'.length));
  });
  return names;
}

describe.skipIf(browserMissing)('the first paint in Chromium', () => {
  const env = serverAndBrowser();

  it('loads the sign-in page without the signed-in frame, the screens, the QR code encoder or i18next', async () => {
    const page = await env.browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const scripts = scriptsOf(page);
    await page.goto(`${env.server.url}/login`);
    await page.getByRole('heading', { name: /sign in/i }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(scripts.some((s) => s.startsWith('login-'))).toBe(true);
    for (const prefix of ['app-layout-', 'transactions-', 'browser-', 'i18n-', 'team-', 'dialog-']) {
      expect(
        scripts.filter((s) => s.startsWith(prefix)),
        prefix,
      ).toEqual([]);
    }
    expect(errors).toEqual([]);
    await screenshots(page, 'first-paint-login');
    await page.close();
  });

  it('reloads /transactions signed in: its screen comes with the page and the rows show', async () => {
    const page = await env.browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await signInAs(page, env.server.url, 'admin@acme.test');
    await page.waitForURL('**/transactions');
    await page.getByRole('table').first().waitFor();
    const scripts = scriptsOf(page);
    const res = await page.reload();
    // the page names the screen's chunks itself, so the browser fetches them beside the entry
    const html = (await res?.text()) ?? '';
    expect(html).toMatch(/<meta name="portal-preload" content="\/assets\/app-layout-/);
    await page.getByRole('heading', { name: 'Transactions', level: 1 }).waitFor();
    await expect.poll(() => page.locator('tbody tr').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    expect(scripts.some((s) => s.startsWith('transactions-'))).toBe(true);
    expect(errors).toEqual([]);
    await screenshots(page, 'first-paint-transactions');
    await page.close();
  });

  it('runs React, then zod, then the libraries, then the entry, each once the one before is evaluated', async () => {
    const page = await env.browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // what the page's module scripts do, in order: added (with how many added before had not yet run), loaded
    await page.addInitScript(() => {
      const log: string[] = [];
      let pending = 0;
      (window as unknown as { moduleLog: string[] }).moduleLog = log;
      new MutationObserver((records) => {
        for (const r of records)
          for (const node of Array.from(r.addedNodes)) {
            if (!(node instanceof HTMLScriptElement) || node.type !== 'module') continue;
            const name = new URL(node.src).pathname
              .split('/')
              .pop()!
              .replace(/-[\w-]{8}\.js$/, '');
            log.push(`add ${name} pending=${pending}`);
            pending++;
            node.addEventListener('load', () => {
              pending--;
              log.push(`ran ${name}`);
            });
          }
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(`${env.server.url}/login`);
    await page.getByRole('heading', { name: /sign in/i }).waitFor();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { moduleLog: string[] }).moduleLog))
      .toEqual(['stage-react', 'stage-zod', 'stage-libraries', 'index'].flatMap((name) => [`add ${name} pending=0`, `ran ${name}`]));
    expect(errors).toEqual([]);
    await page.close();
  });

  it.each([
    [1440, 900],
    [375, 812],
  ])('at %i px the page itself draws the frame and the screen skeleton, before any script runs', async (width, height) => {
    // no script at all: what shows is what the server sent
    const context = await env.browser.newContext({ viewport: { width, height }, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${env.server.url}/transactions`);
    await expect(page.getByRole('heading', { name: 'Transactions', level: 1 }).isVisible()).resolves.toBe(true);
    await expect(page.getByText('Your payments, collections, settlements and fees.').isVisible()).resolves.toBe(true);
    await expect(page.getByTestId('page-skeleton').isVisible()).resolves.toBe(true);
    await expect(page.getByRole('complementary', { name: 'Partner and navigation' }).isVisible()).resolves.toBe(true);
    if (width === 1440) await screenshots(page, 'first-paint-shell');
    // the sign-in page has no frame
    await page.goto(`${env.server.url}/login`);
    expect(await page.locator('#root').innerHTML()).toBe('');
    await context.close();
  });

  /** Holds the replies of one call until `release` (the start data by default: the frame must draw without it); counts the calls. */
  async function holdStart(page: Page, call = 'partner/start') {
    const held: Route[] = [];
    let release = false;
    await page.route(`**/api/v1/${call}`, async (route) => {
      if (release) return route.continue();
      held.push(route);
    });
    return {
      held,
      release: async () => {
        release = true;
        for (const route of held.splice(0)) await route.continue();
      },
    };
  }

  /** The layout shifts of the page from its start (the observer is put in before the page's own scripts run). */
  const watchShifts = (page: Page) =>
    page.addInitScript(() => {
      type Shift = { value: number; sources?: { node?: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[] };
      const w = window as unknown as { shifts: string[] };
      w.shifts = [];
      const nameOf = (node: Node | null | undefined) => {
        if (!(node instanceof Element)) return node?.nodeName ?? '?';
        const id = node.getAttribute('data-testid') ?? node.id;
        const text = (node.textContent ?? '').trim().slice(0, 24);
        return `${node.tagName.toLowerCase()}${id ? `#${id}` : ''}${text ? ` "${text}"` : ''}`;
      };
      const box = (r: DOMRectReadOnly) => `${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}x${Math.round(r.height)}`;
      // each shift with what moved, from where to where (a failure then names the element)
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as unknown as Shift[])
          w.shifts.push(
            `${entry.value.toFixed(4)}: ${(entry.sources ?? []).map((s) => `${nameOf(s.node)} ${box(s.previousRect)} -> ${box(s.currentRect)}`).join('; ')}`,
          );
      }).observe({ type: 'layout-shift', buffered: true });
    });
  const shiftsOf = (page: Page) => page.evaluate(() => (window as unknown as { shifts: string[] }).shifts);

  it.each([
    [1440, 900],
    [375, 812],
  ])(
    'at %i px draws the frame and the table skeleton before the start data, asks for the first page beside it, then shows the rows without a shift',
    async (width, height) => {
      const page = await env.browser.newPage({ viewport: { width, height } });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await signInAs(page, env.server.url, 'admin@acme.test');
      await page.waitForURL('**/transactions');
      await page.getByRole('table').first().waitFor();
      const calls: string[] = [];
      page.on('request', (r) => {
        const url = new URL(r.url());
        if (url.pathname.startsWith('/api/')) calls.push(`${r.method()} ${url.pathname}`);
      });
      const start = await holdStart(page);
      const firstPage = await holdStart(page, 'transactions/search');
      await watchShifts(page);
      await page.reload();
      // the frame (the partner this browser last showed) and the screen's skeleton, with its title, while the start data is held
      await page.getByTestId('page-skeleton').waitFor();
      await expect.poll(() => start.held.length).toBe(1);
      await expect(page.getByRole('heading', { name: 'Transactions', level: 1 }).isVisible()).resolves.toBe(true);
      if (width > 640) await expect(page.getByTestId('partner-name').textContent()).resolves.toBe('Acme Remit');
      // the table's first page is asked for beside the start data, not after it
      await expect.poll(() => calls.filter((c) => c === 'POST /api/v1/transactions/search').length).toBe(1);
      expect(calls.filter((c) => c.startsWith('GET /api/v1/partner/') && c !== 'GET /api/v1/partner/start')).toEqual([]);
      // the screen is there, hidden, with its placeholder rows: none shows before the start data
      const shownRows = page.locator('[data-testid="transaction-row"]:visible');
      const placeholders = page.locator('[data-testid="row-placeholder"]:visible');
      expect(await placeholders.count()).toBe(0);
      await start.release();
      // the start data without the first page: the placeholders show in the table's columns; the rows take their place
      await expect.poll(() => placeholders.count(), { timeout: 15_000 }).toBe(10);
      expect(await shownRows.count()).toBe(0);
      await firstPage.release();
      await expect.poll(() => shownRows.count(), { timeout: 15_000 }).toBe(10);
      await expect(page.getByTestId('page-skeleton').count()).resolves.toBe(0);
      // one call brought the profile, balances, banners' data, the bell and the token: none of them was asked again
      for (const own of [
        '/partner/profile',
        '/partner/accounts',
        '/partner/rates',
        '/partner/wallets',
        '/partner/fiat-wallets',
        '/notifications',
        '/user/preferences',
        '/security/csrf',
      ])
        expect(
          calls.filter((c) => c.endsWith(`/api/v1${own}`)),
          own,
        ).toEqual([]);
      expect(await shiftsOf(page)).toEqual([]);
      expect(errors).toEqual([]);
      await page.close();
    },
  );

  it("lets the guard decide on the server's partner: a remembered partner that would open the screen is not trusted", async () => {
    const page = await env.browser.newPage();
    await signInAs(page, env.server.url, 'admin@lean.test');
    await page.waitForURL('**/transactions');
    await page.getByRole('table').first().waitFor();
    // what this browser remembers of Lean Pay, changed as a tampered storage would say: API keys open
    await page.evaluate(() => {
      const kept = JSON.parse(localStorage.getItem('portal.frame') ?? 'null') as { featureFlags: Record<string, boolean> } | null;
      if (!kept) throw new Error('nothing remembered');
      kept.featureFlags.apiKeysManagementEnabled = true;
      localStorage.setItem('portal.frame', JSON.stringify(kept));
    });
    const start = await holdStart(page);
    await page.goto(`${env.server.url}/api-keys`);
    await page.getByTestId('page-skeleton').waitFor();
    await expect.poll(() => start.held.length).toBe(1);
    // the frame draws what it remembers (once the portal runs: the page's own frame has no partner), the screen stays hidden
    await page.getByRole('link', { name: 'API Keys' }).waitFor();
    expect(start.held.length).toBe(1);
    await expect(page.getByRole('heading', { name: 'API Keys', level: 1 }).isVisible()).resolves.toBe(false);
    await start.release();
    // the server's partner has no API keys: the guard sends Lean Pay's admin home (its transactions)
    await page.waitForURL('**/transactions');
    await page.getByRole('heading', { name: 'Transactions', level: 1 }).waitFor();
    await expect(page.getByRole('link', { name: 'API Keys' }).count()).resolves.toBe(0);
    // and what is remembered now is the server's partner
    const flags = await page.evaluate(
      () => (JSON.parse(localStorage.getItem('portal.frame') ?? '{}') as { featureFlags?: Record<string, boolean> }).featureFlags,
    );
    expect(flags?.apiKeysManagementEnabled).toBe(false);
    await page.close();
  });

  it('forgets the remembered partner at logout', async () => {
    const page = await env.browser.newPage();
    await signInAs(page, env.server.url, 'admin@kora.test');
    await page.waitForURL('**/trades');
    await expect.poll(() => page.evaluate(() => localStorage.getItem('portal.frame'))).toContain('Kora Trade');
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('portal.frame'))).toBeNull();
    await page.close();
  });
});
