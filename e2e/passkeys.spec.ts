import { afterAll, describe, expect, it } from 'vitest';
import { mailText, smtpSink } from '../apps/server/test/smtp-sink.ts';
import { browserMissing } from './support/browser.ts';
import { freshTotp, screenshots, signInAs } from './support/portal.ts';
import { serverAndBrowser } from './support/server.ts';

const smtp = await smtpSink();
afterAll(() => smtp.close());

async function codeAfter(before: number) {
  const codeMail = () => smtp.received.slice(before).findLast((m) => /verification code is \d{6}/.test(mailText(m.raw)));
  await expect.poll(codeMail, { timeout: 10_000 }).toBeDefined();
  return /verification code is (\d{6})/.exec(mailText(codeMail()!.raw))![1]!;
}

/**
 * Passkeys in Chromium with its virtual authenticator (the DevTools protocol's WebAuthn domain): a platform
 * authenticator with user verification, answering at once. WebAuthn wants a domain, not an address: the portal is
 * opened at localhost, the domain the server's passkeys are for.
 */
describe.skipIf(browserMissing)('passkeys', () => {
  const env = serverAndBrowser({ SMTP_URL: smtp.url, LOGIN_RATE_LIMIT: '1000' });

  it('adds a passkey with the e-mailed code, signs in with it alone, and removes it with the authenticator code', async () => {
    const url = env.server.url.replace('127.0.0.1', 'localhost');
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });

    await signInAs(page, url, 'treasury@acme.test');
    await page.goto(`${url}/settings/security`);
    const card = page.getByRole('heading', { name: 'Passkeys' });
    await card.waitFor();
    await page.getByText('No passkeys yet.').waitFor();
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Work laptop');
    const before = smtp.received.length;
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialog.getByLabel('Verification code').fill(await codeAfter(before));
    await dialog.getByRole('button', { name: 'Add passkey' }).click();
    await dialog.waitFor({ state: 'detached' });
    const row = page.getByTestId('passkey-row').filter({ hasText: 'Work laptop' });
    await row.waitFor();
    expect(await row.textContent()).toMatch(/Not used yet/);
    await screenshots(page, 'passkeys');

    // signed out, the passkey alone signs in: no password, no code
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL('**/login');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL((u) => !u.pathname.startsWith('/login'));
    await page.goto(`${url}/settings/security`);
    await row.waitFor();
    expect(await row.textContent()).toMatch(/Last used/);
    const history = page.getByRole('table', { name: 'Security history' });
    await expect.poll(async () => (await history.textContent()) ?? '').toContain('Signed in with a passkey');

    // removed with the authenticator's code
    await page.getByRole('button', { name: 'Remove the passkey Work laptop' }).click();
    await dialog.getByLabel('Authenticator code or recovery code').fill(await freshTotp('treasury@acme.test'));
    await dialog.getByRole('button', { name: 'Remove passkey' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('No passkeys yet.').waitFor();

    // the authenticator still holds the credential, but the portal no longer knows it
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL('**/login');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByText('This passkey is not one of this portal’s.').waitFor();
    await screenshots(page, 'passkey-sign-in-unknown');
    await context.close();
  });
});
