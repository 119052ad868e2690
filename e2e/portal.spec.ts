import { describe, expect, it } from 'vitest';
import { browserMissing } from './support/browser.ts';
import { signedInPage } from './support/portal.ts';
import { serverAndBrowser } from './support/server.ts';

describe.skipIf(browserMissing)('the portal in Chromium', () => {
  const env = serverAndBrowser();

  it('serves the portal with its title, and a reload deep inside still loads it', async () => {
    const page = await env.browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${env.server.url}/login`);
    await expect.poll(() => page.title()).toBe('Partner Dashboard');
    await page.getByRole('heading', { name: /sign in/i }).waitFor();
    const res = await page.goto(`${env.server.url}/transactions`);
    expect(res?.status()).toBe(200);
    expect(await page.title()).toBe('Partner Dashboard');
    expect(errors).toEqual([]);
    await page.close();
  });

  it("loads itself again when a screen's code is not found, as during a rolling deploy to a release whose files have other names", async () => {
    const page = await signedInPage(env, 'admin@acme.test');
    await page.waitForURL('**/transactions');
    await page.getByTestId('transaction-row').first().waitFor();
    // the instances answering for the Settings screen's code (settings-<hash>.js) run another release: not found,
    // until the tab has loaded itself again (its document asked for anew)
    let reloads = 0;
    page.on('request', (r) => {
      if (r.isNavigationRequest() && r.frame() === page.mainFrame()) reloads += 1;
    });
    const notFound: string[] = [];
    await page.route(/\/assets\/settings-[\w-]{8}\.js$/, async (route) => {
      if (reloads > 0) return route.continue();
      notFound.push(`${route.request().method()} ${new URL(route.request().url()).pathname}`);
      return route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not Found' });
    });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings', exact: true }).click();
    // loaded again once, on the screen it was going to, which then draws (the payout summary: not in the server's
    // skeleton of the screen)
    await expect.poll(() => reloads, { timeout: 15_000 }).toBe(1);
    await page.getByTestId('repeat-summary').waitFor();
    expect(new URL(page.url()).pathname).toBe('/settings');
    expect(reloads).toBe(1);
    // the import, then the tab asking again whether the file is there
    expect(notFound.filter((r) => r.startsWith('GET ')).length, notFound.join(', ')).toBeGreaterThanOrEqual(1);
    expect(
      notFound.filter((r) => r.startsWith('HEAD ')),
      notFound.join(', '),
    ).toHaveLength(1);
    await page.close();
  });

  it('printed the demo accounts on start', () => {
    expect(env.server.output()).toContain('admin@acme.test');
    expect(env.server.output()).toContain('BPQYTYLSBWY2M6TIWWORONCT33ILZDWS');
  });
});
