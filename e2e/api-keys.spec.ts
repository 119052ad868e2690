import crypto from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { mailText, smtpSink } from '../apps/server/test/smtp-sink.ts';
import { browserMissing } from './support/browser.ts';
import { screenshots, signInAs } from './support/portal.ts';
import { serverAndBrowser } from './support/server.ts';

// the server mails its codes to an SMTP server run here, where the test reads them as a person reads their inbox
const smtp = await smtpSink();
afterAll(() => smtp.close());

/** Desktop (1440 px) and phone (375 px) screenshots of the page as it is now. */
const shots = (page: Page, name: string) => screenshots(page, name, { desktop: { width: 1440, height: 900 }, phone: { width: 375, height: 760 } });

/** A signed partner-API call, as a partner's server makes it. */
async function signedGet(baseUrl: string, key: { apiKey: string; secret: string }, pathname: string) {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const bodySha256 = crypto.createHash('sha256').update('').digest('hex');
  const signature = crypto.createHmac('sha256', key.secret).update(`${timestamp}GET${pathname}${bodySha256}`).digest('hex');
  const res = await fetch(`${baseUrl}${pathname}`, { headers: { 'x-api-key': key.apiKey, 'x-api-timestamp': timestamp, 'x-api-signature': signature } });
  return { status: res.status, body: (await res.json()) as { code?: string; message?: string } };
}

/** The six-digit code of the latest code mail to the admin (notices of the key's changes arrive too). */
async function latestCode(before: number) {
  const codeMail = () => smtp.received.slice(before).findLast((m) => /verification code is \d{6}/.test(mailText(m.raw)));
  await expect.poll(codeMail, { timeout: 10_000 }).toBeDefined();
  return /verification code is (\d{6})/.exec(mailText(codeMail()!.raw))![1]!;
}

describe.skipIf(browserMissing)('API keys and allowed IP addresses in the portal', () => {
  const env = serverAndBrowser({ SMTP_URL: smtp.url });

  it('an admin creates a key (secret shown once, copied), disables and rolls it, and restricts it to an address with the e-mailed code', async () => {
    const page = await env.browser.newPage({ permissions: ['clipboard-read', 'clipboard-write'], viewport: { width: 1440, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await signInAs(page, env.server.url, 'admin@acme.test');
    await page.getByRole('link', { name: 'API Keys' }).click();
    await page.waitForURL('**/api-keys');
    await page.getByTestId('api-keys-empty').waitFor();
    await page.getByTestId('ip-addresses-empty').waitFor();
    await shots(page, 'api-keys-empty');

    // create: the secret is shown once, and the copy button copies it
    await page.getByRole('button', { name: 'Create API key' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Payouts server');
    await dialog.getByRole('checkbox', { name: /API write/ }).check();
    await shots(page, 'api-keys-create');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    const secret = (await dialog.getByTestId('secret-key').textContent())!;
    const apiKey = (await dialog.getByTestId('key-id').textContent())!;
    expect(secret).toMatch(/^sk_/);
    expect(apiKey).toMatch(/^ak_live_[0-9a-f]{32}$/);
    await shots(page, 'api-keys-secret');
    await dialog.getByRole('button', { name: 'Copy secret key' }).click();
    await dialog.getByRole('button', { name: 'Copy secret key' }).getByText('Copied').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    const key = { apiKey, secret };
    expect((await signedGet(env.server.url, key, '/api/v1/partner/accounts')).status).toBe(200);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });
    // never shown again, also after a reload
    const row = page.getByTestId('api-key-row').filter({ hasText: 'Payouts server' });
    await row.getByText('Active', { exact: true }).waitFor();
    expect(await page.content()).not.toContain(secret);
    await page.reload();
    await row.getByText('Active', { exact: true }).waitFor();
    expect(await page.content()).not.toContain(secret);
    await shots(page, 'api-keys-list');

    // disable: refused at once; enable again
    await row.getByRole('button', { name: 'Disable Payouts server' }).click();
    await row.getByText('Inactive', { exact: true }).waitFor();
    expect(await signedGet(env.server.url, key, '/api/v1/partner/accounts')).toMatchObject({ status: 401, body: { code: 'ApiKeyDisabled' } });
    await shots(page, 'api-keys-disabled');
    await row.getByRole('button', { name: 'Enable Payouts server' }).click();
    await row.getByText('Active', { exact: true }).waitFor();
    expect((await signedGet(env.server.url, key, '/api/v1/partner/accounts')).status).toBe(200);

    // roll: a new secret once; the old one keeps working for the hour chosen
    await row.getByRole('button', { name: 'Roll Payouts server' }).click();
    await dialog.getByRole('radio', { name: 'In 1 hour' }).check();
    await shots(page, 'api-keys-roll');
    await dialog.getByRole('button', { name: 'Roll key' }).click();
    const rolledSecret = (await dialog.getByTestId('secret-key').textContent())!;
    expect(rolledSecret).not.toBe(secret);
    await shots(page, 'api-keys-rolled-secret');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await row.getByText(/Old secret works until/).waitFor();
    const rolled = { apiKey, secret: rolledSecret };
    expect((await signedGet(env.server.url, rolled, '/api/v1/partner/accounts')).status).toBe(200);
    expect((await signedGet(env.server.url, key, '/api/v1/partner/accounts')).status).toBe(200);

    // an allowed address, with the e-mailed code: calls from elsewhere (this machine) are refused, naming the address
    await page.getByRole('button', { name: 'Add IP address' }).click();
    await dialog.getByLabel('IP address or range').fill('203.0.113.0/24');
    await shots(page, 'api-keys-add-ip');
    let before = smtp.received.length;
    await dialog.getByRole('button', { name: 'Send code' }).click();
    await dialog.getByLabel('Verification code').fill(await latestCode(before));
    await shots(page, 'api-keys-add-ip-code');
    await dialog.getByRole('button', { name: 'Add address' }).click();
    await dialog.waitFor({ state: 'detached' });
    const ipRow = page.getByTestId('ip-address-row').filter({ hasText: '203.0.113.0/24' });
    await ipRow.getByText('Whitelisted').waitFor();
    await shots(page, 'api-keys-with-ip');
    const refused = await signedGet(env.server.url, rolled, '/api/v1/partner/accounts');
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'IpAddressNotAllowed' });
    expect(refused.body.message).toContain('127.0.0.1');

    // and removed again, with a new code: calls work from anywhere
    await ipRow.getByRole('button', { name: 'Delete 203.0.113.0/24' }).click();
    before = smtp.received.length;
    await dialog.getByRole('button', { name: 'Send code' }).click();
    await dialog.getByLabel('Verification code').fill(await latestCode(before));
    await dialog.getByRole('button', { name: 'Remove address' }).click();
    await page.getByTestId('ip-addresses-empty').waitFor();
    expect((await signedGet(env.server.url, rolled, '/api/v1/partner/accounts')).status).toBe(200);

    // delete the key
    await row.getByRole('button', { name: 'Delete Payouts server' }).click();
    await shots(page, 'api-keys-delete');
    await dialog.getByRole('button', { name: 'Delete key' }).click();
    await page.getByTestId('api-keys-empty').waitFor();
    expect(await signedGet(env.server.url, rolled, '/api/v1/partner/accounts')).toMatchObject({ status: 401, body: { code: 'ApiKeyInvalid' } });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('serves the API documentation with both ways to authenticate', async () => {
    const page = await env.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`${env.server.url}/api/docs`);
    await page.getByText('Signing a request with an API key').first().waitFor();
    await shots(page, 'api-docs');
    await page.close();
  });
});
