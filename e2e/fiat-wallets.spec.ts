import { describe, expect, it } from 'vitest';
import { browserMissing } from './support/browser.ts';
import { screenshots, signedInPage } from './support/portal.ts';
import { serverAndBrowser } from './support/server.ts';

describe.skipIf(browserMissing)('fiat wallets in Chromium', () => {
  const ctx = serverAndBrowser({ LOGIN_RATE_LIMIT: '1000' });

  it('admin@acme.test lists its fiat wallets, switches collections of KES on, and opens the NGN wallet’s transactions', async () => {
    const page = await signedInPage(ctx, 'admin@acme.test', { viewport: { width: 1440, height: 900 } });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Balance' }).click();
    await page.getByRole('link', { name: /Fiat wallets/ }).click();
    await page.waitForURL('**/balance/fiat-wallets');
    const list = page.getByRole('list', { name: 'Fiat wallets' });
    await list.waitFor();
    expect(await list.getByRole('listitem').evaluateAll((items) => items.map((i) => i.getAttribute('data-testid')))).toEqual([
      'fiat-wallet-USD',
      'fiat-wallet-NGN',
      'fiat-wallet-KES',
    ]);
    // the wallet's balance is its ledger's (the demo's opening and its rows' movements): the same figure on both screens
    const ngn = page.getByTestId('fiat-wallet-NGN').getByText(/^NGN [\d,]+\.\d{2}$/);
    await ngn.waitFor();
    const ngnBalance = (await ngn.textContent())!;
    await screenshots(page, 'fiat-wallets');

    const kes = page.getByRole('switch', { name: 'Collections for KES' });
    expect(await kes.getAttribute('aria-checked')).toBe('false');
    expect(await page.getByRole('switch', { name: 'Payments for USD' }).isDisabled()).toBe(true);
    await kes.click();
    await page.getByText('Collections turned on for the KES wallet').waitFor();
    await page.reload();
    await expect.poll(() => page.getByRole('switch', { name: 'Collections for KES' }).getAttribute('aria-checked')).toBe('true');

    await page.getByRole('link', { name: 'Transactions of the NGN wallet' }).click();
    await page.waitForURL('**/balance/fiat-wallet/NGN');
    await page.getByRole('heading', { name: 'NGN wallet' }).waitFor();
    await page.getByTestId('page-summary').waitFor();
    expect(await page.getByTestId('fiat-wallet-balance').textContent()).toBe(ngnBalance);
    await screenshots(page, 'fiat-wallet-ngn');

    // the transaction tables' wallet selector lists the fiat wallets
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Transactions' }).click();
    await page.getByRole('button', { name: 'Wallet: All wallets' }).click();
    expect(await page.getByRole('option').allTextContents()).toEqual(['All wallets', 'USD', 'NGN', 'KES']);
    await page.close();
  });

  it('a view user sees the switches read-only', async () => {
    const page = await signedInPage(ctx, 'viewer@acme.test', { viewport: { width: 1440, height: 900 } });
    await page.goto(`${ctx.server.url}/balance/fiat-wallets`);
    await page.getByText('Only admin and treasury users can switch payments and collections.').waitFor();
    // the wallets' switches (the side bar's test-data switch is the user's own, to turn as they like)
    const switches = page.getByRole('main').getByRole('switch');
    expect(await switches.count()).toBeGreaterThan(0);
    expect(await switches.evaluateAll((s) => s.every((e) => (e as HTMLButtonElement).disabled))).toBe(true);
    await screenshots(page, 'fiat-wallets-read-only');
    await page.close();
  });
});
