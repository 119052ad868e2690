import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axe } from './support/axe.ts';
import { browserMissing } from './support/browser.ts';
import { signedInPage } from './support/portal.ts';
import { serverAndBrowser } from './support/server.ts';

/** Where this file's screenshots go (printed once): a fresh temporary directory, not the repository. */
const SHOTS = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-test-mode-'));
console.log(`Test view screenshots: ${SHOTS}`);

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 740 };
const BANNER = 'Viewing test data: nothing here moves real money.';

/** The page at a desktop's and a phone's width (the whole page), then at the desktop's again. */
async function shots(page: Page, name: string) {
  for (const [size, label] of [
    [PHONE, '375'],
    [DESKTOP, '1280'],
  ] as const) {
    await page.setViewportSize(size);
    await page.waitForTimeout(200);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} at ${label} px: wider than the screen`).toBeLessThanOrEqual(size.width);
    await page.screenshot({ path: path.join(SHOTS, `${name}-${label}.png`), fullPage: true });
  }
}

const banner = (page: Page) => page.getByTestId('test-mode-banner');
const toggle = (page: Page) => page.getByRole('switch', { name: 'Viewing test data' });

describe.skipIf(browserMissing)('the test view in Chromium', () => {
  const env = serverAndBrowser({ LOGIN_RATE_LIMIT: '1000' });

  it('shows the test side on every screen under its banner, takes test funds, survives a reload, and gives the live side back', async () => {
    const page = await signedInPage(env, 'admin@acme.test', { viewport: DESKTOP });
    await page.waitForURL('**/transactions');
    // the live side: the demo's rows, no banner, the switch off
    await page.getByTestId('transaction-row').first().waitFor();
    expect(await banner(page).count()).toBe(0);
    expect(await toggle(page).getAttribute('aria-checked')).toBe('false');

    // on, from the side bar: the banner at the top of the page, and the table asks again for the test side (empty)
    await toggle(page).click();
    expect(await toggle(page).getAttribute('aria-checked')).toBe('true');
    await banner(page).getByText(BANNER).waitFor();
    expect(await banner(page).getAttribute('role')).toBe('status');
    await page.getByTestId('empty-noData').waitFor();
    expect(await page.getByTestId('transaction-row').count()).toBe(0);
    await shots(page, 'transactions-test');

    // the Balance screen, by the navigation: the test side's balance, nothing yet
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Balance' }).click();
    await page.waitForURL('**/balance');
    await banner(page).getByText(BANNER).waitFor();
    await expect.poll(() => page.getByTestId('usd-available').textContent()).toBe('USD 0.00');
    // a withdrawal has no test side (it would take live money): not offered in the test view
    expect(await page.getByRole('button', { name: 'Withdraw' }).count()).toBe(0);

    // test funds: 2500 of them
    await page.getByRole('button', { name: 'Add test funds' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add test funds' });
    await dialog.waitFor();
    const amount = dialog.getByLabel('Amount (USD)');
    expect(await amount.inputValue()).toBe('1000');
    await amount.fill('2500');
    await shots(page, 'balance-test-dialog');
    await dialog.getByRole('button', { name: 'Add test funds' }).click();
    await page.getByText('Added USD 2,500.00 of test funds').waitFor();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('usd-available').textContent()).toBe('USD 2,500.00');
    await page.getByTestId('recent-movements').getByText('Test funds added').waitFor();
    // the toast gone, the page as it stays
    await page.getByText('Added USD 2,500.00 of test funds').waitFor({ state: 'detached', timeout: 10_000 });
    expect(await axe(page)).toEqual([]);
    await shots(page, 'balance-test');

    // a phone's menu holds the switch beside the user
    await page.setViewportSize(PHONE);
    await page.getByRole('button', { name: 'Open menu' }).click();
    expect(await toggle(page).getAttribute('aria-checked')).toBe('true');
    await page.screenshot({ path: path.join(SHOTS, 'menu-test-375.png'), fullPage: true });
    await page.getByRole('button', { name: 'Close menu' }).click();
    await page.setViewportSize(DESKTOP);

    // a reload keeps the test view: the banner comes with the frame, the balance is the test side's
    await page.reload();
    await banner(page).getByText(BANNER).waitFor();
    await expect.poll(() => page.getByTestId('usd-available').textContent()).toBe('USD 2,500.00');
    expect(await toggle(page).getAttribute('aria-checked')).toBe('true');

    // every signed-in screen says it, Settings too
    await page.goto(`${env.server.url}/settings`);
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await banner(page).getByText(BANNER).waitFor();

    // off, from the banner: the live side again, no banner
    await banner(page).getByRole('button', { name: 'Leave test data' }).click();
    expect(await banner(page).count()).toBe(0);
    expect(await toggle(page).getAttribute('aria-checked')).toBe('false');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Balance' }).click();
    await page.waitForURL('**/balance');
    await expect.poll(() => page.getByTestId('usd-available').textContent()).toBe('USD 25,000.00');
    expect(await banner(page).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Add test funds' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Withdraw' }).count()).toBe(1);
    // and after a reload too
    await page.reload();
    await expect.poll(() => page.getByTestId('usd-available').textContent()).toBe('USD 25,000.00');
    expect(await banner(page).count()).toBe(0);
    await page.close();
  });
});
