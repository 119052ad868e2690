import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axe } from './support/axe.ts';
import { browserMissing } from './support/browser.ts';
import { DEMO_PASSWORD, freshTotp, signInAs } from './support/portal.ts';
import { serverAndBrowser } from './support/server.ts';

/** The signed-in screens walked in French: a partner with every feature. */
const SCREENS = [
  '/transactions?tab=1',
  '/transactions?tab=2',
  '/transactions?tab=3',
  '/transactions?tab=4',
  '/balance',
  '/balance/fiat-wallets',
  '/wallets',
  '/api-keys',
  '/webhooks',
  '/countries',
  '/coverage',
  '/settings',
  '/settings/team',
  '/settings/security',
  '/data-download',
  '/payments',
  '/payments/initiate',
  '/about',
];

/** The English texts of the catalogues that French writes differently: none of them may show on a French screen. */
function englishOnly(): string[] {
  const dir = path.resolve(import.meta.dirname, '../apps/web/src/locales');
  const out = new Set<string>();
  for (const file of fs.readdirSync(path.join(dir, 'en'))) {
    const en = JSON.parse(fs.readFileSync(path.join(dir, 'en', file), 'utf8')) as Record<string, string>;
    const fr = JSON.parse(fs.readFileSync(path.join(dir, 'fr', file), 'utf8')) as Record<string, string>;
    for (const [key, text] of Object.entries(en)) {
      // whole texts only: a text with a value or an element in it is never drawn as it is written
      if (!/\{\{|<\w/.test(text) && fr[key] !== text && /[a-z]{3}/.test(text)) out.add(text);
    }
  }
  return [...out];
}

/**
 * What a reader of a phone would see wrong: the page wider than the screen, a text running off it, a text cut by
 * its box (hidden overflow or an ellipsis) outside a box that scrolls, and any English text of the catalogues.
 */
async function problems(page: Page, english: string[]): Promise<string[]> {
  return page.evaluate((englishTexts) => {
    const found: string[] = [];
    const root = document.documentElement;
    const width = root.clientWidth;
    if (root.scrollWidth > width + 1) found.push(`the page is ${root.scrollWidth} px wide`);
    const englishSet = new Set(englishTexts);
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const seen = new Set<Element>();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = (node.textContent ?? '').replace(/\s+/g, ' ').trim();
      const el = node.parentElement;
      if (!text || !el || seen.has(el)) continue;
      if (el.closest('script, style, [hidden], [aria-hidden="true"], .sr-only, option')) continue;
      const style = getComputedStyle(el);
      if (style.display === 'none' || style.visibility === 'hidden') continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const rects = Array.from(range.getClientRects() as unknown as ArrayLike<DOMRect>).filter((r) => r.width > 0 && r.height > 0);
      if (!rects.length) continue;
      if (englishSet.has(text)) found.push(`English: "${text}"`);
      // a box that scrolls sideways (a wide table) holds its text on purpose
      let scrolls = false;
      for (let a: Element | null = el; a && a !== document.body; a = a.parentElement) {
        const s = getComputedStyle(a);
        if ((s.overflowX === 'auto' || s.overflowX === 'scroll') && a.scrollWidth > a.clientWidth + 1) scrolls = true;
      }
      if (scrolls) continue;
      if (rects.some((r) => r.right > width + 1 || r.left < -1)) {
        found.push(`off the screen: "${text.slice(0, 60)}"`);
        seen.add(el);
        continue;
      }
      for (let a: Element | null = el; a && a !== document.body; a = a.parentElement) {
        const s = getComputedStyle(a);
        const cut = a.scrollWidth > a.clientWidth + 1 && (s.overflowX === 'hidden' || s.overflowX === 'clip' || s.textOverflow === 'ellipsis');
        if (cut) {
          found.push(`cut: "${text.slice(0, 60)}" in <${a.tagName.toLowerCase()} class="${a.getAttribute('class') ?? ''}">`);
          seen.add(el);
          break;
        }
      }
    }
    return found;
  }, english);
}

/** A screen has loaded: its heading is in and nothing on it is still loading. */
async function loaded(page: Page) {
  await page.locator('main h1').first().waitFor();
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'), undefined, { timeout: 15_000 });
  await page.waitForTimeout(300);
}

describe.skipIf(browserMissing)('the portal in French', () => {
  const env = serverAndBrowser({ LOGIN_RATE_LIMIT: '1000' });

  it('follows a French browser from the first paint, and a saved language follows the user to another browser', async () => {
    const page = await env.browser.newPage({ locale: 'fr-FR', viewport: { width: 375, height: 800 } });
    await page.goto(`${env.server.url}/login`);
    // the server's page is French before any script runs, and the sign-in page draws in French
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr');
    await page.getByRole('button', { name: 'Se connecter', exact: true }).waitFor();
    expect(await problems(page, englishOnly())).toEqual([]);
    await page.locator('input[type="email"]').fill('admin2@acme.test');
    await page.locator('input[type="password"]').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
    await page.waitForURL('**/two-factor-authentication');
    await page.locator('input[autocomplete="one-time-code"]').fill(await freshTotp('admin2@acme.test'));
    await page.locator('button[type="submit"]').click();
    await page.waitForURL((url) => !url.pathname.startsWith('/two-factor'));
    await page.goto(`${env.server.url}/settings`);
    await loaded(page);
    // no language saved: the browser's; the switch saves English for this user
    await page.getByRole('radio', { name: 'English' }).click();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await page.close();

    // another French browser: the user's saved English wins once they have signed in
    const other = await env.browser.newPage({ locale: 'fr-FR', viewport: { width: 1280, height: 800 } });
    await other.goto(`${env.server.url}/login`);
    await other.locator('input[type="email"]').fill('admin2@acme.test');
    await other.locator('input[type="password"]').fill(DEMO_PASSWORD);
    await other.locator('button[type="submit"]').first().click();
    await other.waitForURL('**/two-factor-authentication');
    await other.locator('input[autocomplete="one-time-code"]').fill(await freshTotp('admin2@acme.test'));
    await other.locator('button[type="submit"]').click();
    await other.waitForURL((url) => !url.pathname.startsWith('/two-factor'));
    await other.getByRole('link', { name: 'Settings' }).first().waitFor();
    expect(await other.evaluate(() => document.documentElement.lang)).toBe('en');
    // back to the browser's language: French again
    await other.goto(`${env.server.url}/settings`);
    await loaded(other);
    await other.getByRole('radio', { name: /Your browser’s language/ }).click();
    await other.getByRole('heading', { name: 'Paramètres', level: 1 }).waitFor();
    await other.close();
  }, 120_000);

  it('walks every screen in French at 375 px: nothing cut or off the screen, no English text, axe finds nothing', async () => {
    const page = await env.browser.newPage({ viewport: { width: 375, height: 800 } });
    await signInAs(page, env.server.url, 'admin@acme.test');
    await page.goto(`${env.server.url}/settings`);
    await loaded(page);
    await page.getByRole('radio', { name: 'Français' }).click();
    await page.getByRole('heading', { name: 'Paramètres', level: 1 }).waitFor();
    const english = englishOnly();
    const found: Record<string, string[]> = {};
    for (const screen of SCREENS) {
      await page.goto(`${env.server.url}${screen}`);
      await loaded(page);
      expect(await page.evaluate(() => document.documentElement.lang), screen).toBe('fr');
      const wrong = [...(await problems(page, english)), ...(await axe(page, { enable: ['label-content-name-mismatch'] }))];
      if (wrong.length) found[screen] = wrong;
    }
    expect(found).toEqual({});
    await page.close();
  }, 240_000);
});
