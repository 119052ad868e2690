import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserMissing } from './support/browser.ts';
import { DEMO_PASSWORD, screenshots, signInAs, submitLogin, totp } from './support/portal.ts';
import { serverAndBrowser } from './support/server.ts';

/** Where each persona lands, and a sample of routes it may not open with where the guard sends it. */
const PERSONAS: { email: string; home: string; forbidden: [string, string][]; nav: string[] }[] = [
  {
    email: 'admin@acme.test',
    home: '/transactions',
    forbidden: [
      ['/trades', '/transactions'],
      ['/payments', '/transactions'],
    ],
    nav: [
      'Overview',
      'Transactions',
      'Enabled Countries',
      'Coverage',
      'Balance',
      'API Keys',
      'Webhooks',
      'Wallet Management',
      'Request Data Download',
      'Settings',
    ],
  },
  {
    email: 'admin2@acme.test',
    home: '/transactions',
    forbidden: [['/trades', '/transactions']],
    nav: [
      'Overview',
      'Transactions',
      'Enabled Countries',
      'Coverage',
      'Balance',
      'API Keys',
      'Webhooks',
      'Wallet Management',
      'Request Data Download',
      'Settings',
    ],
  },
  {
    email: 'treasury@acme.test',
    home: '/transactions',
    forbidden: [
      ['/api-keys', '/transactions'],
      ['/payments', '/transactions'],
    ],
    nav: ['Overview', 'Transactions', 'Enabled Countries', 'Coverage', 'Balance', 'Webhooks', 'Request Data Download', 'Settings'],
  },
  {
    email: 'viewer@acme.test',
    home: '/transactions',
    forbidden: [
      ['/api-keys', '/transactions'],
      ['/wallets', '/transactions'],
    ],
    nav: ['Overview', 'Transactions', 'Enabled Countries', 'Coverage', 'Balance', 'Webhooks', 'Request Data Download', 'Settings'],
  },
  {
    email: 'admin@kora.test',
    home: '/trades',
    forbidden: [
      ['/transactions', '/trades'],
      ['/api-keys', '/trades'],
      ['/countries', '/trades'],
    ],
    nav: ['Trades', 'Initiate payments', 'Balance', 'Wallet Management', 'Settings'],
  },
  {
    email: 'admin@baobab.test',
    home: '/trades',
    forbidden: [
      ['/payments', '/trades'],
      ['/transactions', '/trades'],
      ['/wallets', '/trades'],
    ],
    nav: ['Trades', 'Settings'],
  },
  {
    email: 'admin@lean.test',
    home: '/transactions',
    forbidden: [
      ['/countries', '/transactions'],
      ['/api-keys', '/transactions'],
      ['/data-download', '/transactions'],
      ['/coverage', '/transactions'],
    ],
    nav: ['Overview', 'Transactions', 'Balance', 'Settings'],
  },
];

const pathOf = (page: Page) => new URL(page.url()).pathname;

describe.skipIf(browserMissing)('sign-in in Chromium', () => {
  const env = serverAndBrowser({ LOGIN_RATE_LIMIT: '1000' });

  it('sends a signed-out visitor to /login', async () => {
    const page = await env.browser.newPage();
    await page.goto(`${env.server.url}/transactions`);
    await page.waitForURL('**/login');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await screenshots(page, 'login');
    await page.goto(`${env.server.url}/two-factor-authentication`);
    await page.waitForURL('**/login');
    await page.close();
  });

  it('shows the server message for a wrong password', async () => {
    const page = await env.browser.newPage();
    await submitLogin(page, env.server.url, 'admin@acme.test', 'not-the-password');
    await page.getByText('Incorrect email or password.').waitFor();
    await page.close();
  });

  for (const persona of PERSONAS) {
    it(`${persona.email} signs in, lands on ${persona.home}, sees its navigation and is kept out of forbidden routes`, async () => {
      const page = await env.browser.newPage({ viewport: { width: 1280, height: 800 } });
      await signInAs(page, env.server.url, persona.email);
      await page.waitForURL(`**${persona.home}`);
      const nav = page.getByRole('navigation', { name: 'Main' });
      await nav.getByRole('link').first().waitFor();
      const links = await nav.getByRole('link').allTextContents();
      // exactly the spec's items for this partner kind, flags and role, in order
      expect(links, persona.email).toEqual(persona.nav);
      expect(await nav.getByRole('button', { name: 'Log out' }).count()).toBe(1);
      for (const [route, expected] of persona.forbidden) {
        await page.goto(`${env.server.url}${route}`);
        await page.waitForURL(`**${expected}`);
        expect(pathOf(page), `${persona.email} ${route}`).toBe(expected);
      }
      // a verified user opening the sign-in screen goes home; a reload keeps the session
      await page.goto(`${env.server.url}/login`);
      await page.waitForURL(`**${persona.home}`);
      if (persona.email === 'admin@acme.test') await screenshots(page, 'layout-acme-admin');
      await page.getByRole('button', { name: 'Log out' }).click();
      await page.waitForURL('**/login');
      await page.goto(`${env.server.url}${persona.home}`);
      await page.waitForURL('**/login');
      await page.close();
    });
  }

  it('takes the invited user from the invitation link through a password, authenticator setup and recovery codes to home', async () => {
    const page = await env.browser.newPage();
    await page.goto(`${env.server.url}/accept-invitation#token=0a5e0000-0000-4000-8000-00000000ac3e.demo-invitation`);
    await page.getByRole('heading', { name: 'Join Acme Remit' }).waitFor();
    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByLabel('Confirm new password').fill('short');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('Use at least 12 characters.').waitFor();
    await screenshots(page, 'new-password');
    await page.getByLabel('New password', { exact: true }).fill('Kilimanjaro-Sunrise-42');
    await page.getByLabel('Confirm new password').fill('Kilimanjaro-Sunrise-42');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.waitForURL('**/two-factor-authentication');
    await page.getByRole('heading', { name: 'Set up your authenticator app' }).waitFor();
    await page.getByRole('img', { name: /QR code/ }).waitFor();
    await screenshots(page, 'mfa-setup');
    // scanning is replaced by reading the key shown for manual entry
    const secret = (await page.getByTestId('mfa-secret').textContent())!.replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await page.getByLabel('Authentication code').fill('12');
    await page.getByRole('button', { name: 'Verify and continue' }).click();
    await page.getByText('The code you entered is incorrect. Try again.').waitFor();
    await page.getByLabel('Authentication code').fill(totp(secret));
    await page.getByRole('button', { name: 'Verify and continue' }).click();
    await page.getByRole('heading', { name: 'Save your recovery codes' }).waitFor();
    const codes = await page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').allTextContents();
    expect(codes).toHaveLength(10);
    await screenshots(page, 'recovery-codes');
    await page.getByLabel('I have saved these codes somewhere safe.').check();
    await page.getByRole('button', { name: 'Continue to the dashboard' }).click();
    await page.waitForURL('**/transactions');
    await page.close();
  });

  it('sends the inactive user to /account-inactive', async () => {
    const page = await env.browser.newPage();
    await submitLogin(page, env.server.url, 'inactive@acme.test', DEMO_PASSWORD);
    await page.waitForURL('**/account-inactive');
    await page.getByText("You don't have access to this dashboard currently. Contact your administrator if this is an error.").waitFor();
    await screenshots(page, 'account-inactive');
    await page.close();
  });

  it('offers the forgotten-password flow from the sign-in screen', async () => {
    const page = await env.browser.newPage();
    await page.goto(`${env.server.url}/login`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL('**/requested-password-reset');
    await page.getByLabel('E-mail').fill('admin2@acme.test');
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByRole('heading', { name: 'Enter the code' }).waitFor();
    await screenshots(page, 'reset-code');
    await page.close();
  });

  it('shows the code prompt with a recovery-code option', async () => {
    const page = await env.browser.newPage();
    await submitLogin(page, env.server.url, 'admin@acme.test', DEMO_PASSWORD);
    await page.waitForURL('**/two-factor-authentication');
    await page.getByLabel('Authentication code').fill('abc');
    expect(await page.getByLabel('Authentication code').inputValue()).toBe('');
    await screenshots(page, 'two-factor');
    await page.getByRole('button', { name: /recovery code/ }).click();
    await page.getByLabel('Recovery code').waitFor();
    await page.close();
  });
});

describe.skipIf(browserMissing)('inactivity in Chromium (timings shortened)', () => {
  const env = serverAndBrowser({ IDLE_WARNING_SECONDS: '2', IDLE_LOGOUT_SECONDS: '2' });

  it('warns after the idle time, and logs out when nothing happens', async () => {
    const page = await env.browser.newPage();
    await signInAs(page, env.server.url, 'admin@lean.test');
    await page.waitForURL('**/transactions');
    await page.getByRole('dialog', { name: 'Are you still there?' }).waitFor({ timeout: 10_000 });
    await screenshots(page, 'idle-warning');
    await page.waitForURL('**/login', { timeout: 10_000 });
    await page.getByText('You were logged out after a period of inactivity.').waitFor();
    await page.close();
  });

  it('keeps the session when the warning is closed', async () => {
    const page = await env.browser.newPage();
    await signInAs(page, env.server.url, 'admin@acme.test');
    await page.getByRole('dialog', { name: 'Are you still there?' }).waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Stay signed in' }).click();
    await new Promise((r) => setTimeout(r, 2500));
    expect(pathOf(page)).toBe('/transactions');
    await page.close();
  });
});
