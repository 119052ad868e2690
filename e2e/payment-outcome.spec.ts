import { describe, expect, it } from 'vitest';
import { browserMissing } from './support/browser.ts';
import { screenshots, signedInPage } from './support/portal.ts';
import { serverAndBrowser } from './support/server.ts';

describe.skipIf(browserMissing)('what a payment says per state, in Chromium', () => {
  // a few seconds per state, so that the pending state can be seen
  const env = serverAndBrowser({ LOGIN_RATE_LIMIT: '1000', PAYMENT_STEP_SECONDS: '3' });

  it('a collection that fails: pending with the payer instructions, then failed with nothing credited and no instructions; the drawer agrees', async () => {
    const page = await signedInPage(env, 'admin@kora.test', { viewport: { width: 1280, height: 800 } });
    await page.goto(`${env.server.url}/payments/initiate`);
    const form = page.getByRole('form', { name: 'Payment details' });
    await form.getByRole('radio', { name: 'Collect' }).click();
    await form.getByLabel('Country').selectOption({ label: 'Kenya' });
    const channel = form.getByLabel('Channel');
    await channel.selectOption({ label: (await channel.locator('option').allTextContents()).find((t) => t.startsWith('Mobile money'))! });
    await form.getByLabel("Payer's name").fill('Kofi Payer');
    await form.getByLabel("Payer's phone number").fill('254722000111');
    // a sandbox amount ending in 1 fails
    await form.getByLabel(/^Amount/).fill('1301');
    await form.getByRole('button', { name: 'Review' }).click();
    const quote = page.getByRole('region', { name: 'Quote' });
    await quote.getByRole('button', { name: /^Confirm/ }).click();
    const status = page.getByTestId('payment-status');
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).toBe('Pending');
    const outcome = page.getByTestId('payment-outcome');
    expect(await outcome.textContent()).toBe('Waiting for the payer. Nothing has been credited yet.');
    await page.getByText('Instructions for the payer').waitFor();
    await screenshots(page, 'payment-result-pending');
    await expect.poll(() => status.textContent(), { timeout: 30_000 }).toBe('Failed');
    expect(await outcome.textContent()).toBe('The payer did not pay. Nothing was credited.');
    expect(await page.getByText('Instructions for the payer').count()).toBe(0);
    expect(await page.getByText('Credited to your balance').count()).toBe(0);
    await screenshots(page, 'payment-result-failed');
    await page.getByRole('link', { name: 'View in payments' }).click();
    const drawer = page.getByRole('dialog', { name: 'Transaction details' });
    await drawer.getByText('Nothing was credited', { exact: true }).waitFor();
    expect(await drawer.getByText('Credited to your balance').count()).toBe(0);
    await screenshots(page, 'payment-drawer-failed');
    await page.close();
  }, 120_000);
});
