import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axe } from './support/axe.ts';
import { browserMissing } from './support/browser.ts';
import { signInAs } from './support/portal.ts';
import { serverAndBrowser } from './support/server.ts';

/** WCAG 2 A and AA and, explicitly, label-content-name-mismatch (WCAG 2.5.3, "the accessible name contains the visible text"). */
const axeWithNames = (page: Page) => axe(page, { enable: ['label-content-name-mismatch'] });

/** Every signed-in screen of a partner with every feature, and what shows when it has loaded. */
const SCREENS: { path: string; ready: (page: Page) => Promise<unknown> }[] = [
  ...[1, 2, 3, 4].map((tab) => ({
    path: `/transactions?tab=${tab}`,
    ready: (p: Page) =>
      p
        .getByRole('button', { name: /^View details of / })
        .first()
        .waitFor(),
  })),
  { path: '/balance', ready: (p) => p.getByRole('heading', { name: 'Balance', level: 1 }).waitFor() },
  { path: '/balance/fiat-wallets', ready: (p) => p.getByRole('link', { name: 'Transactions of the NGN wallet' }).waitFor() },
  { path: '/balance/fiat-wallet/NGN', ready: (p) => p.getByRole('heading', { level: 1 }).waitFor() },
  { path: '/wallets', ready: (p) => p.getByRole('heading', { level: 1 }).waitFor() },
  { path: '/api-keys', ready: (p) => p.getByRole('heading', { level: 1 }).waitFor() },
  { path: '/webhooks', ready: (p) => p.getByRole('heading', { level: 1 }).waitFor() },
  { path: '/countries', ready: (p) => p.getByRole('heading', { level: 1 }).waitFor() },
  { path: '/coverage', ready: (p) => p.getByRole('heading', { level: 1 }).waitFor() },
  { path: '/settings', ready: (p) => p.getByRole('heading', { level: 1 }).waitFor() },
  { path: '/settings/team', ready: (p) => p.getByRole('heading', { level: 1 }).waitFor() },
  { path: '/data-download', ready: (p) => p.getByRole('heading', { level: 1 }).waitFor() },
  {
    path: '/payments',
    ready: (p) =>
      p
        .getByRole('button', { name: /^View details of / })
        .first()
        .waitFor(),
  },
  { path: '/payments/initiate', ready: (p) => p.getByRole('heading', { level: 1 }).waitFor() },
];

describe.skipIf(browserMissing)('accessible names in Chromium', () => {
  const env = serverAndBrowser({ LOGIN_RATE_LIMIT: '1000' });

  it.each([
    ['desktop', 1280],
    ['375 px', 375],
  ])(
    'every signed-in screen (%s): each accessible name contains its visible text, and axe finds nothing',
    async (_, width) => {
      const page = await env.browser.newPage({ viewport: { width, height: 800 } });
      await signInAs(page, env.server.url, 'admin@acme.test');
      const found: Record<string, string[]> = {};
      for (const s of SCREENS) {
        await page.goto(`${env.server.url}${s.path}`);
        await s.ready(page);
        // and settled: no table still fetching (drawn fainter while it does, which axe reads as low contrast)
        await expect.poll(() => page.locator('[aria-busy="true"]').count()).toBe(0);
        await page.waitForTimeout(400);
        const violations = await axeWithNames(page);
        // where the page was when axe read it (once, on a loaded machine, the payments table was read at /payments/initiate)
        const at = await page.evaluate(() => `${location.pathname}${location.search} "${document.querySelector('h1')?.textContent ?? ''}"`);
        if (violations.length) found[s.path] = [`at ${at}`, ...violations];
      }
      expect(found).toEqual({});
      await page.close();
    },
    240_000,
  );
});
