import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, launch } from './support/browser.ts';
import { screenshots, signInAs } from './support/portal.ts';
import { startServer, type RunningServer } from './support/server.ts';

describe.skipIf(browserMissing)('the Balance screen in Chromium', () => {
  let server: RunningServer;
  let browser: Awaited<ReturnType<typeof launch>>;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({ LOGIN_RATE_LIMIT: '1000' }), launch()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    expect(browser?.cspViolations ?? [], 'Content-Security-Policy violations').toEqual([]);
  });

  it('shows available and pending with their currency and the recent movements; the withdraw dialog says "at most" and gives treasury a link to the wallets page', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await signInAs(page, server.url, 'treasury@acme.test');
    await page.goto(`${server.url}/balance`);
    await page
      .getByTestId('usd-available')
      .getByText(/^USD [\d,]+\.\d{2}$/)
      .waitFor();
    await page.getByTestId('pending-withdrawals').waitFor();
    expect(await page.getByTestId('usd-pending').textContent()).toMatch(/^USD [\d,]+\.\d{2}$/);
    expect(await page.getByTestId('pending-disbursements').textContent()).toMatch(/^USD [\d,]+\.\d{2}$/);
    await page.getByTestId('recent-movements').waitFor();
    expect(
      await page
        .getByTestId('recent-movements')
        .getByText(/^[+−]USD [\d,]+\.\d{2}$/)
        .count(),
    ).toBeGreaterThan(0);
    await screenshots(page, 'balance');

    const available = (await page.getByTestId('usd-available').textContent())!;
    await page.getByRole('button', { name: 'Withdraw' }).click();
    expect(await page.getByTestId('max-settlement').textContent()).toBe(`You can withdraw at most ${available}`);
    await page.getByTestId('no-wallet').waitFor();
    // treasury may open /wallets (the guard lets it in) but has no "Wallet Management" menu item: the dialog links the page
    expect(await page.getByRole('dialog').getByText('Wallet Management').count()).toBe(0);
    await screenshots(page, 'balance-withdraw');
    await page.getByRole('dialog').getByRole('link', { name: 'Add a wallet address' }).click();
    await page.waitForURL(`${server.url}/wallets`);
    await page.getByRole('heading', { name: 'Wallet Management' }).waitFor();
    await page.close();
  });
});
