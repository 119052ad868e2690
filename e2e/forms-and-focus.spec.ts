import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axe } from './support/axe.ts';
import { browserMissing } from './support/browser.ts';
import { screenshots, signInAs } from './support/portal.ts';
import { serverAndBrowser } from './support/server.ts';

/** axe-core with WCAG 2 A and AA, and best practices such as "all content in landmarks". */
const axeAll = (page: Page) => axe(page, { tags: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] });

/** Waits until the focus is on an element whose text is this (focus comes back a moment after a dialog closes). */
const focusReturnsTo = (page: Page, text: string) => page.waitForFunction((t) => document.activeElement?.textContent?.trim() === t, text, { timeout: 5000 });

/** The accessible name of what has the focus. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return el ? `${el.tagName.toLowerCase()}:${el.getAttribute('aria-label') ?? el.textContent?.trim() ?? ''}` : '';
  });

describe.skipIf(browserMissing)('forms, keyboard and focus in Chromium', () => {
  const env = serverAndBrowser({ LOGIN_RATE_LIMIT: '1000' });

  it('sign-in: the skip link first, then e-mail, password, Sign in, "Forgot password?", and the passkey last; axe finds nothing', async () => {
    const page = await env.browser.newPage();
    await page.goto(`${env.server.url}/login`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    // the e-mail field has the focus on arrival; before it comes only the skip link
    expect(await focused(page)).toBe('input:');
    await page.keyboard.press('Shift+Tab');
    expect(await focused(page)).toBe('a:Skip to main content');
    await screenshots(page, 'skip-link');
    await page.getByLabel('E-mail').focus();
    const order: string[] = [];
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      order.push(await page.evaluate(() => (document.activeElement as HTMLElement).getAttribute('name') ?? document.activeElement?.textContent?.trim() ?? ''));
    }
    expect(order).toEqual(['password', 'Sign in', 'Forgot password?', 'Sign in with a passkey']);
    expect(await axeAll(page)).toEqual([]);
    // the contract's schema answers before the server is asked
    await page.getByLabel('E-mail').fill('admin@acme');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText('Enter a valid e-mail address').waitFor();
    await page.getByText('Enter your password').waitFor();
    await screenshots(page, 'login');
    await page.close();
  });

  it('Lean Pay: the low-balance banner says the limit and opens the top-up dialog; Esc in a list closes only the list; focus comes back', async () => {
    const page = await env.browser.newPage({ viewport: { width: 1280, height: 800 } });
    await signInAs(page, env.server.url, 'admin@lean.test');
    const banner = page.getByTestId('low-balance-banner');
    await banner.waitFor();
    expect(await banner.textContent()).toContain('Your available balance is USD 400.00, below your limit of USD 1,000.00.');
    const topUp = banner.getByRole('button', { name: 'Top up balance' });
    await topUp.click();
    const dialog = page.getByRole('dialog', { name: 'Top up balance' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('below your low-balance limit of USD 1,000.00');
    expect(new URL(page.url()).pathname).toBe('/transactions');
    // Esc in the open coin list closes the list, not the dialog
    await dialog.getByRole('button', { name: /^Coin:/ }).click();
    await dialog.getByRole('listbox').waitFor();
    await page.keyboard.press('Escape');
    await dialog.getByRole('listbox').waitFor({ state: 'detached' });
    expect(await dialog.isVisible()).toBe(true);
    expect(await focused(page)).toMatch(/^button:Coin:/);
    // the next Esc closes the dialog and gives the focus back to the banner's button
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await focusReturnsTo(page, 'Top up balance');
    expect(await focused(page)).toBe('button:Top up balance');
    // and Close does the same
    await topUp.click();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    await focusReturnsTo(page, 'Top up balance');
    expect(await focused(page)).toBe('button:Top up balance');
    await screenshots(page, 'low-balance-banner');
    await page.close();
  });

  it('settings: -5, 0.001 and abc are refused with messages; the payout summary follows the frequency', async () => {
    const page = await env.browser.newPage({ viewport: { width: 1280, height: 800 } });
    await signInAs(page, env.server.url, 'admin2@acme.test');
    await page.goto(`${env.server.url}/settings`);
    const field = page.getByLabel('Limit (USD)');
    for (const [typed, message] of [
      ['-5', 'Invalid low balance limit value: the limit must be above zero.'],
      ['0.001', 'Invalid low balance limit value: use at most 2 decimals (cents).'],
      ['abc', 'Invalid low balance limit value: enter a number, like 1000 or 2500.50.'],
    ] as const) {
      await field.fill(typed);
      await page.getByRole('button', { name: 'Save limit' }).click();
      await page.getByText(message).waitFor();
      expect(await field.inputValue()).toBe(typed);
    }
    await field.fill('750');
    await page.getByRole('button', { name: 'Save limit' }).click();
    await page.getByText('Low balance limit saved').waitFor();
    await page.getByRole('radio', { name: 'Automated' }).check();
    await page.getByRole('radio', { name: 'Weekly' }).check();
    await page.getByRole('checkbox', { name: 'Thu' }).uncheck();
    await page.getByRole('checkbox', { name: 'Fri' }).check();
    await page.getByRole('radio', { name: 'Never' }).check();
    expect(await page.getByTestId('repeat-summary').textContent()).toBe('Weekly: Monday, Friday');
    await page.getByRole('radio', { name: 'Monthly' }).check();
    await page.getByRole('button', { name: 'Day of the month: Choose a day' }).click();
    await page.getByRole('option', { name: '15' }).click();
    expect(await page.getByTestId('repeat-summary').textContent()).toBe('Monthly: 15');
    expect(await page.getByTestId('end-summary').textContent()).toBe('Never');
    await page.getByLabel('Repeat every').fill('2');
    expect(await page.getByTestId('repeat-summary').textContent()).toBe('Every 2 months: 15');
    expect(await axeAll(page)).toEqual([]);
    await screenshots(page, 'settings');
    await page.close();
  });

  it('About: a B2B partner opens it from the side navigation; axe finds nothing', async () => {
    const page = await env.browser.newPage({ viewport: { width: 1280, height: 800 } });
    await signInAs(page, env.server.url, 'admin@acme.test');
    await page.getByRole('link', { name: /^About · version/ }).click();
    await page.waitForURL('**/about');
    await page.getByRole('heading', { name: 'About' }).waitFor();
    const details = page.getByTestId('about-details');
    expect(await details.textContent()).toMatch(/ProductPartner DashboardVersion\d+\.\d+\.\d+Build[0-9a-f]{7,}/);
    expect(await page.getByRole('link', { name: /API documentation/ }).getAttribute('href')).toBe('/api/docs');
    expect(await page.getByRole('link', { name: /Support/ }).getAttribute('href')).toMatch(/^mailto:/);
    expect(await axeAll(page)).toEqual([]);
    await screenshots(page, 'about');
    // the skip link is the first stop of the Tab key, and jumps to the page's content
    await page.reload();
    await page.getByRole('heading', { name: 'About' }).waitFor();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('a:Skip to main content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main-content');
    await page.close();
  });

  for (const email of ['admin@kora.test', 'admin@baobab.test']) {
    it(`About: ${email} (commercial) is sent to /trades`, async () => {
      const page = await env.browser.newPage();
      await signInAs(page, env.server.url, email);
      await page.waitForURL('**/trades');
      expect(await page.getByRole('link', { name: /^About/ }).count()).toBe(0);
      await page.goto(`${env.server.url}/about`);
      await page.waitForURL('**/trades');
      if (email === 'admin@baobab.test') {
        // Baobab (commercial, not whitelisted) has no balance screen, so no low-balance banner, though its balance is 0
        // the frame draws once the partner is known, and the banner's rule reads nothing else; the rows arriving
        // means the screen's data came too (the live event stream keeps a request open, so the network never idles)
        await page.getByRole('heading', { name: 'Trades' }).waitFor();
        await page.getByTestId('page-summary').waitFor();
        expect(await page.getByTestId('low-balance-banner').count()).toBe(0);
      }
      await page.close();
    });
  }

  it('the password rule: Password123! is refused on the screen (rules tick live) and by the server', async () => {
    const page = await env.browser.newPage();
    await page.goto(`${env.server.url}/accept-invitation#token=0a5e0000-0000-4000-8000-00000000ac3e.demo-invitation`);
    await page.getByRole('heading', { name: 'Join Acme Remit' }).waitFor();
    const rules = page.getByTestId('password-rules');
    await page.getByLabel('New password', { exact: true }).pressSequentially('Password123!');
    await rules.locator('[data-rule="notCommon"][data-state="broken"]').waitFor();
    expect(await rules.locator('[data-rule="length"]').getAttribute('data-state')).toBe('met');
    await page.getByLabel('Confirm new password').fill('Password123!');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('This password is too common. Choose one that is harder to guess.').waitFor();
    await screenshots(page, 'password');
    // the server refuses it too, whatever the page does
    const refused = await page.evaluate(async () => {
      const csrf = (document.getElementById('_csrf') as HTMLInputElement | null)?.value ?? '';
      const res = await fetch('/api/v1/users/password', {
        method: 'PUT',
        headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
        body: JSON.stringify({ email: 'invited@acme.test', password: 'Password123!', tempPassword: '0a5e0000-0000-4000-8000-00000000ac3e.demo-invitation' }),
      });
      return { status: res.status, body: (await res.json()) as { code: string; message: string } };
    });
    expect(refused).toEqual({
      status: 400,
      // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- vitest types its asymmetric matchers (expect.any, objectContaining) any
      body: expect.objectContaining({ code: 'InvalidPassword', message: 'This password is too common. Choose one that is harder to guess.' }),
    });
    await page.close();
  });

  it('a read with no reply is not a sign-out: "Reconnecting..." shows, the read goes again once the server answers, no refresh', async () => {
    const page = await env.browser.newPage();
    await signInAs(page, env.server.url, 'treasury@acme.test');
    await page.waitForURL('**/transactions');
    let refreshes = 0;
    page.on('request', (r) => {
      if (r.url().endsWith('/api/v1/users/refresh')) refreshes += 1;
    });
    // the settings cannot be read three times running: the screen waits and says so, then loads (the screen's other
    // read, the e-mail choices, gets no reply either: any reply would say the server is there)
    let drops = 3;
    let otherDrops = 3;
    await page.route('**/api/v1/partner/payout-config', async (route) => {
      if (drops > 0) {
        drops -= 1;
        return route.abort('connectionreset');
      }
      return route.continue();
    });
    await page.route('**/api/v1/user/notification-preferences', async (route) => {
      if (otherDrops > 0) {
        otherDrops -= 1;
        return route.abort('connectionreset');
      }
      return route.continue();
    });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    await page.getByTestId('connection-notice').waitFor();
    await page.getByTestId('repeat-summary').waitFor({ timeout: 15_000 });
    await page.getByTestId('connection-notice').waitFor({ state: 'detached' });
    expect(drops).toBe(0);
    expect(refreshes).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/settings');
    expect(await page.evaluate(() => sessionStorage.length)).toBeGreaterThan(0);
    await page.close();
  });
});
