import { afterAll, describe, expect, it } from 'vitest';
import { WALLET_MESSAGES } from '@portal/contract/wallets';
import { generateDemoAddress } from '../apps/server/src/lib/deposit-addresses.ts';
import { mailText, smtpSink } from '../apps/server/test/smtp-sink.ts';
import { browserMissing } from './support/browser.ts';
import { screenshots, signedInPage } from './support/portal.ts';
import { serverAndBrowser } from './support/server.ts';

// the server mails its codes to an SMTP server run here, where the test reads them as a person reads their inbox
const smtp = await smtpSink();
afterAll(() => smtp.close());

/** The code mail sent after the first `before` mails (notices of earlier changes may arrive too): its code and text. */
async function latestMail(before: number) {
  const codeMail = () => smtp.received.slice(before).findLast((m) => /verification code is \d{6}/.test(mailText(m.raw)));
  await expect.poll(codeMail, { timeout: 10_000 }).toBeDefined();
  const text = mailText(codeMail()!.raw);
  return { code: /verification code is (\d{6})/.exec(text)![1]!, text };
}

describe.skipIf(browserMissing)('codes checked before they are sent, and asked for their change', () => {
  const env = serverAndBrowser({ SMTP_URL: smtp.url, LOGIN_RATE_LIMIT: '1000' });

  it('refuses a wallet address with a bad checksum at the field, before any code is mailed', async () => {
    const page = await signedInPage(env, 'admin@acme.test', { viewport: { width: 1280, height: 800 } });
    await page.goto(`${env.server.url}/wallets`);
    await page.getByRole('heading', { name: 'Wallet Management' }).waitFor();
    await page.getByRole('button', { name: 'Add wallet address' }).first().click();
    const address = generateDemoAddress('TRC20').address;
    const i = address.length - 3;
    const typo = address.slice(0, i) + (address[i] === 'A' ? 'B' : 'A') + address.slice(i + 1);
    await page.getByRole('textbox', { name: 'Wallet address' }).fill(typo);
    const before = smtp.received.length;
    await page.getByRole('button', { name: 'Continue' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(WALLET_MESSAGES.invalidAddress).waitFor();
    expect(await dialog.getByRole('textbox', { name: 'Wallet address' }).getAttribute('aria-invalid')).toBe('true');
    expect(await dialog.getByLabel('Verification code').count()).toBe(0);
    await screenshots(page, 'wallet-add-bad-checksum');
    expect(smtp.received.length).toBe(before);
    await page.close();
  });

  it('edits an allowed IP address with the code mailed for that change', async () => {
    const page = await signedInPage(env, 'admin@acme.test', { viewport: { width: 1280, height: 800 } });
    await page.goto(`${env.server.url}/api-keys`);
    const dialog = page.getByRole('dialog');
    await page.getByRole('button', { name: 'Add IP address' }).click();
    await dialog.getByLabel('IP address or range').fill('203.0.113.7');
    let before = smtp.received.length;
    await dialog.getByRole('button', { name: 'Send code' }).click();
    await dialog.getByLabel('Verification code').fill((await latestMail(before)).code);
    await dialog.getByRole('button', { name: 'Add address' }).click();
    await dialog.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Edit 203.0.113.7' }).click();
    await dialog.getByLabel('IP address or range').fill('203.0.113.0/28');
    await dialog.getByLabel('Label (optional)').fill('Payouts server');
    await screenshots(page, 'ip-edit');
    before = smtp.received.length;
    await dialog.getByRole('button', { name: 'Send code' }).click();
    const mail = await latestMail(before);
    expect(mail.text).toContain('to change the allowed IP 203.0.113.7 to 203.0.113.0/28 (label: Payouts server)');
    await dialog.getByLabel('Verification code').fill(mail.code);
    await screenshots(page, 'ip-edit-code');
    await dialog.getByRole('button', { name: 'Save address' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('ip-address-row').filter({ hasText: '203.0.113.0/28' }).getByText('Payouts server').waitFor();
    expect(await page.getByTestId('ip-address-row').filter({ hasText: '203.0.113.7' }).count()).toBe(0);
    await screenshots(page, 'ip-edited');
    await page.close();
  });
});
