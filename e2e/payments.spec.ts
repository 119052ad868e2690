import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserMissing } from './support/browser.ts';
import { apiSignIn, screenshots, signedInPage } from './support/portal.ts';
import { serverAndBrowser } from './support/server.ts';

/** What the initiate form is filled with. */
type Initiation = { kind: 'Pay out' | 'Collect'; channel: RegExp; network?: string; name: string; account: string; amount: string; shot?: string };

/** A payout to a Kenyan M-Pesa phone of `name`, of `amount` KES. */
const mpesaPayout = (name: string, amount: string): Initiation => ({
  kind: 'Pay out',
  channel: /^Mobile money/,
  network: 'M-Pesa',
  name,
  account: '+254712345678',
  amount,
});

/** Fills the initiate form and confirms after the quote; answers the result card. */
async function initiate(page: Page, p: Initiation) {
  const form = page.getByRole('form', { name: 'Payment details' });
  await form.getByRole('radio', { name: p.kind }).click();
  await form.getByLabel('Country').selectOption({ label: 'Kenya' });
  const channel = form.getByLabel('Channel');
  const option = (await channel.locator('option').allTextContents()).find((t) => p.channel.test(t));
  await channel.selectOption({ label: option! });
  if (p.network) await form.getByLabel('Network').selectOption({ label: p.network });
  await form.getByLabel(p.kind === 'Pay out' ? "Recipient's name" : "Payer's name").fill(p.name);
  await form.getByLabel(p.kind === 'Pay out' ? 'Phone number' : "Payer's phone number").fill(p.account);
  await form.getByLabel(/^Amount/).fill(p.amount);
  await form.getByRole('button', { name: 'Review' }).click();
  const quote = page.getByRole('region', { name: 'Quote' });
  await quote.waitFor();
  if (p.shot) await screenshots(page, p.shot);
  await quote.getByRole('button', { name: /^Confirm/ }).click();
  const result = page.getByRole('heading', { name: p.kind === 'Pay out' ? 'Disbursement' : 'Collection', exact: true });
  await result.waitFor();
  return page.getByTestId('payment-status');
}

describe.skipIf(browserMissing)('collections and disbursements in Chromium', () => {
  // a few seconds per state, so that the states can be watched
  const env = serverAndBrowser({ LOGIN_RATE_LIMIT: '1000', PAYMENT_STEP_SECONDS: '2' });

  it('admin@kora.test pays out and collects, watches both move on /payments without reloading, and the balance follows', async () => {
    const page = await signedInPage(env, 'admin@kora.test', { viewport: { width: 1280, height: 800 } });
    await page.goto(`${env.server.url}/payments/initiate`);
    await page.getByRole('heading', { name: 'Initiate payment' }).waitFor();
    // from here on, every screen change happens inside the page: no document loads
    let loads = 0;
    page.on('load', () => loads++);
    // only Kora's enabled countries are offered (Tanzania has channels but is not enabled for Kora), once they have come
    const countries = () => page.getByRole('form', { name: 'Payment details' }).getByLabel('Country').locator('option').allTextContents();
    await expect.poll(countries).toEqual(['Choose a country', 'Ghana', 'Kenya', 'Nigeria', 'Uganda']);
    await screenshots(page, 'payments-initiate-form');
    // Review checks the amount and the account number with the server's rules, under each field, before any quote
    {
      const form = page.getByRole('form', { name: 'Payment details' });
      await form.getByLabel('Country').selectOption({ label: 'Kenya' });
      const channel = form.getByLabel('Channel');
      await channel.selectOption({ label: (await channel.locator('option').allTextContents()).find((t) => t.startsWith('Mobile money'))! });
      await form.getByLabel('Network').selectOption({ label: 'M-Pesa' });
      await form.getByLabel('Phone number').fill('12ab');
      await form.getByLabel(/^Amount/).fill('-5');
      await form.getByRole('button', { name: 'Review' }).click();
      await form.getByText('Enter an amount of at least KES 10.00').waitFor();
      await form.getByText('Enter a phone number with its country code, digits only (7 to 15)').waitFor();
      await screenshots(page, 'payments-initiate-problems');
    }

    const status = await initiate(page, { ...mpesaPayout('Amina Payout', '1000'), shot: 'payments-initiate-quote' });
    await screenshots(page, 'payments-initiate-created');
    await page.getByRole('link', { name: 'All payments' }).click();
    await page.waitForURL('**/payments');
    const row = page.getByRole('row').filter({ hasText: 'Amina Payout' });
    await row.waitFor();
    const seen = new Set<string>();
    // the row moves through its states by itself
    for (let i = 0; i < 200 && !seen.has('Complete'); i++) {
      for (const s of ['Created', 'Pending', 'Processing', 'Complete']) if ((await row.getByText(s, { exact: true }).count()) > 0) seen.add(s);
      await page.waitForTimeout(100);
    }
    expect(seen.has('Complete')).toBe(true);
    expect(seen.size).toBeGreaterThan(1);
    await screenshots(page, 'payments-live-table');
    void status;

    await page.goBack();
    await page.getByRole('heading', { name: 'Initiate payment' }).waitFor();
    const collected = await initiate(page, { kind: 'Collect', channel: /^Mobile money/, name: 'Kofi Payer', account: '254722000111', amount: '1305' });
    await page.getByText('Instructions for the payer').waitFor();
    await screenshots(page, 'payments-collection-created');
    await collected.getByText('Complete').waitFor({ timeout: 30_000 });

    await page.getByRole('button', { name: 'Initiate another' }).click();
    const failing = await initiate(page, mpesaPayout('Failing Payout', '1001'));
    await failing.getByText('Failed').waitFor({ timeout: 30_000 });
    await page.getByText(/refused the payment/).waitFor();
    await screenshots(page, 'payments-failed');

    // 5000.00 - 7.98 (1000 KES and its fee) + 9.79 (1305 KES less the fee); the failed payout gave its 7.99 back
    const api = await apiSignIn(env.server.url, 'admin@kora.test');
    const accounts = (await (await api.get('/api/v1/partner/accounts')).json()) as { accounts: { currency: string; available: string }[] };
    expect(Number(accounts.accounts.find((a) => a.currency === 'USD')!.available)).toBe(5001.81);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Balance' }).first().click();
    await page
      .getByText(/5,001\.81/)
      .first()
      .waitFor();
    await screenshots(page, 'payments-balance');

    // the balance on screen follows a collection made elsewhere (the partner's server), without a reload
    const channels = (await (await api.get('/api/v1/channels?country=KE&rampType=deposit')).json()) as { channels: { id: string; channelType: string }[] };
    const momoIn = channels.channels.find((c) => c.channelType === 'momo')!;
    const made = await api.post('/api/v1/partner/collection', {
      country: 'KE',
      channelId: momoIn.id,
      accountNumber: '254722000111',
      payer: { name: 'Yaw Boateng' },
      amount: '1305',
      sequenceId: crypto.randomUUID(),
    });
    expect(made.status).toBe(201);
    await page
      .getByText(/5,011\.60/)
      .first()
      .waitFor({ timeout: 30_000 });
    expect(loads).toBe(0);
    await page.close();
  });
});
