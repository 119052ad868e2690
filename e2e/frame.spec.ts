import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { groupThousands, normalise } from '@portal/contract/decimal';
import { browserMissing } from './support/browser.ts';
import { apiSignIn, screenshots, signedInPage, signInAs } from './support/portal.ts';
import { serverAndBrowser } from './support/server.ts';

async function decodeQr(page: Page, name: RegExp): Promise<string | undefined> {
  const png = PNG.sync.read(await page.getByRole('img', { name }).screenshot());
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
}

describe.skipIf(browserMissing)('the frame, balance, top-up and settings in Chromium', () => {
  const env = serverAndBrowser({ LOGIN_RATE_LIMIT: '1000' });

  it("Acme's admin sees no low-balance banner; the balance, top-up dialog and settings", async () => {
    const page = await signedInPage(env, 'admin@acme.test', { viewport: { width: 1280, height: 800 } });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Balance' }).click();
    await page.waitForURL('**/balance');
    // the balance the ledger holds (the demo's movements and opening), above the 1,000 limit: no banner
    const { available } = (await (await (await apiSignIn(env.server.url, 'admin2@acme.test')).get('/api/v1/partner/balance')).json()) as { available: string };
    expect(Number(available)).toBeGreaterThan(1000);
    const shown = `USD ${groupThousands(normalise(available, 2))}`;
    await expect.poll(() => page.getByTestId('usd-available').textContent()).toBe(shown);
    await page.getByText('NGN').waitFor();
    expect(await page.getByTestId('low-balance-banner').count()).toBe(0);
    await screenshots(page, 'balance-acme');

    await page.getByRole('button', { name: 'Top up' }).click();
    const dialog = page.getByRole('dialog', { name: 'Top up balance' });
    await dialog.waitFor();
    await dialog.getByText('Only send USDT (TRC20) to this wallet using its native blockchain to top up your balance').waitFor();
    const address = (await dialog.getByTestId('deposit-address').textContent())!;
    expect(address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(await decodeQr(page, /QR code of the USDT TRC20 deposit address/)).toBe(address);
    await dialog.getByText('Sending any other digital asset through the USDT (TRC20) will result in permanent loss').waitFor();
    await screenshots(page, 'top-up-dialog');

    // USDC has no TRC20: the network moves to USDC's first network
    await dialog.getByRole('button', { name: 'Coin: USDT' }).click();
    await page.keyboard.type('usdc');
    await page.keyboard.press('Enter');
    await dialog.getByRole('button', { name: 'Network: ERC20' }).waitFor();
    const erc20 = (await dialog.getByTestId('deposit-address').textContent())!;
    expect(erc20).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(await decodeQr(page, /QR code of the USDC ERC20 deposit address/)).toBe(erc20);
    await dialog.getByRole('button', { name: 'Network: ERC20' }).click();
    await page.getByRole('option', { name: 'XLM' }).click();
    await dialog.getByTestId('deposit-tag').waitFor();
    expect(await dialog.getByTestId('deposit-tag').textContent()).toMatch(/^\d+$/);
    await dialog.getByRole('button', { name: 'Copy wallet address' }).click();
    await page.getByText('Wallet address copied').waitFor();
    await page.keyboard.press('Escape');
    expect(await page.evaluate(() => localStorage.getItem('currencyNetwork'))).toBe('usdc-xlm');
    await page.getByRole('button', { name: 'Top up' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Network: XLM' }).waitFor();
    await page.keyboard.press('Escape');

    await page.goto(`${env.server.url}/settings`);
    await page.getByRole('heading', { name: 'Payout settings' }).waitFor();
    await expect.poll(() => page.getByTestId('repeat-summary').textContent()).toBe('Weekly: Monday, Thursday');
    expect(await page.getByTestId('end-summary').textContent()).toBe('Never');
    await screenshots(page, 'settings-admin');

    // monthly needs a date before it can be saved
    await page.getByRole('radio', { name: 'Monthly' }).check();
    const save = page.getByRole('button', { name: 'Save payout settings' });
    expect(await save.isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Day of the month: Choose a day' }).click();
    await page.getByRole('option', { name: '31' }).click();
    await page.getByRole('radio', { name: /After/ }).check();
    expect(await save.isDisabled()).toBe(true);
    await page.getByLabel('Number of payouts').fill('6');
    expect(await page.getByTestId('end-summary').textContent()).toBe('After 6 Payouts');
    await save.click();
    await page.getByText('Payout settings saved').waitFor();
    await page.reload();
    await expect.poll(() => page.getByTestId('repeat-summary').textContent()).toBe('Monthly: 31');
    await page.close();
  });

  it("Lean Pay's admin sees the low-balance banner until it dismisses it, and again at the next sign-in", async () => {
    const page = await signedInPage(env, 'admin@lean.test', { viewport: { width: 1280, height: 800 } });
    const banner = page.getByTestId('low-balance-banner');
    await banner.waitFor();
    expect(await banner.textContent()).toContain('USD 400.00');
    await screenshots(page, 'low-balance-banner');
    // Lean Pay has no address for USDC on Base
    await page.evaluate(() => localStorage.setItem('currencyNetwork', 'usdc-base'));
    // the banner's button opens the top-up dialog where the user is
    await banner.getByRole('button', { name: 'Top up balance' }).click();
    await page.getByRole('dialog', { name: 'Top up balance' }).getByText('Address not found').first().waitFor();
    expect(new URL(page.url()).pathname).toBe('/transactions');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Close low balance banner' }).click();
    expect(await banner.count()).toBe(0);
    await page.goto(`${env.server.url}/balance`);
    await page.getByTestId('usd-available').waitFor();
    expect(await banner.count()).toBe(0);
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL('**/login');
    await signInAs(page, env.server.url, 'admin@lean.test');
    await banner.waitFor();
    await page.close();
  });

  it('a viewer sees the settings read-only', async () => {
    const page = await signedInPage(env, 'viewer@acme.test', { viewport: { width: 1280, height: 800 } });
    await page.goto(`${env.server.url}/settings`);
    await page.getByText('You do not have edit access because you are not an admin').waitFor();
    expect(await page.getByRole('button', { name: 'Save payout settings' }).count()).toBe(0);
    expect(await page.getByLabel('Limit (USD)').isDisabled()).toBe(true);
    await screenshots(page, 'settings-viewer');
    await page.close();
  });
});
