import type { Page } from 'playwright-core';
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
    expect(html).toMatch(/rel="modulepreload" crossorigin href="\/assets\/app-layout-/);
    await page.getByRole('heading', { name: 'Transactions', level: 1 }).waitFor();
    await expect.poll(() => page.locator('tbody tr').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    expect(scripts.some((s) => s.startsWith('transactions-'))).toBe(true);
    expect(errors).toEqual([]);
    await screenshots(page, 'first-paint-transactions');
    await page.close();
  });
});
