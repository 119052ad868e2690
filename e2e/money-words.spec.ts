import { describe, expect, it } from 'vitest';
import { browserMissing } from './support/browser.ts';
import { screenshots, signedInPage } from './support/portal.ts';
import { serverAndBrowser } from './support/server.ts';

/** What a finance lead and a member are told, in a signed-in browser: balances, fees, payouts, pages they may not open. */
describe.skipIf(browserMissing)('money and access, as the portal words them, in Chromium', () => {
  const env = serverAndBrowser({ LOGIN_RATE_LIMIT: '1000' });

  it("shows the demo's balance as the README says, an amount above it refused as it is typed, and the top-up's timings", async () => {
    const page = await signedInPage(env, 'treasury@acme.test', { viewport: { width: 1440, height: 900 } });
    await page.goto(`${env.server.url}/balance`);
    await page.getByTestId('usd-available').getByText('USD 25,000.00').waitFor();
    await page.getByRole('button', { name: 'Withdraw' }).click();
    await page.getByLabel('Amount (USD)').fill('25000.01');
    await page.getByRole('dialog').getByText('You can withdraw at most USD 25,000.00', { exact: true }).first().waitFor();
    expect(await page.getByRole('dialog').getByRole('alert').count()).toBeGreaterThan(0);
    await screenshots(page, 'withdraw-above-max');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Top up' }).click();
    expect(await page.getByTestId('top-up-times').textContent()).toContain('6 to 36 hours');
    await screenshots(page, 'top-up-times');
    await page.close();
  });

  it('shows Fees, and warns that an automated payout has no wallet to go to', async () => {
    const page = await signedInPage(env, 'admin@acme.test', { viewport: { width: 1440, height: 900 } });
    await page.goto(`${env.server.url}/transactions?tab=4`);
    await page.getByRole('row').nth(1).waitFor();
    await screenshots(page, 'fees');
    await page.goto(`${env.server.url}/settings`);
    await page.getByTestId('payout-no-wallet').waitFor();
    expect(await page.getByTestId('payout-no-wallet').textContent()).toContain('No settlement wallet is enabled');
    await screenshots(page, 'payout-no-wallet');
    await page.close();
  });

  it('tells a view user why a page did not open', async () => {
    const page = await signedInPage(env, 'viewer@acme.test', { viewport: { width: 1440, height: 900 } });
    await page.goto(`${env.server.url}/api-keys`);
    await page.getByText('Only admins can open that page, so you were brought here.').waitFor();
    expect(new URL(page.url()).pathname).not.toBe('/api-keys');
    await screenshots(page, 'refused-page');
    await page.close();
  });
});
