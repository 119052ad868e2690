import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axe } from './support/axe.ts';
import { browserMissing } from './support/browser.ts';
import { signInAs, signedInPage } from './support/portal.ts';
import { serverAndBrowser } from './support/server.ts';

/** Where this file's screenshots go (printed once): a fresh temporary directory, not the repository. */
const SHOTS = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-overview-'));
console.log(`Overview screenshots: ${SHOTS}`);
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });

/** WCAG 2 A and AA, and label-content-name-mismatch (WCAG 2.5.3). */
const axeWithNames = (page: Page) => axe(page, { enable: ['label-content-name-mismatch'] });

/** The Overview has drawn its figures and its three charts, and nothing on it is loading. */
async function overviewLoaded(page: Page) {
  await page.getByTestId('volume-collections').getByTestId('volume-amount').waitFor();
  await expect.poll(() => page.locator('[aria-busy="true"]').count(), { timeout: 15_000 }).toBe(0);
  await expect.poll(() => page.locator('[data-testid="chart"] canvas').count()).toBe(3);
  await page.waitForTimeout(300);
}

/**
 * What a reader would see wrong: the page wider than the screen, a text off the screen, a chart wider than its card,
 * and (in French) a text of the English catalogues.
 */
async function problems(page: Page, english: string[] = []): Promise<string[]> {
  return page.evaluate((englishTexts) => {
    const found: string[] = [];
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width + 1) found.push(`the page is ${document.documentElement.scrollWidth} px wide`);
    for (const chart of Array.from(document.querySelectorAll('[data-testid="chart"]'))) {
      const canvas = chart.querySelector('canvas');
      if (canvas && canvas.getBoundingClientRect().width > chart.getBoundingClientRect().width + 1) found.push('a chart is wider than its box');
    }
    const englishSet = new Set(englishTexts);
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = (node.textContent ?? '').replace(/\s+/g, ' ').trim();
      const el = node.parentElement;
      if (!text || !el || el.closest('script, style, [hidden], [aria-hidden="true"], .sr-only')) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const rects = Array.from(range.getClientRects() as unknown as ArrayLike<DOMRect>).filter((r) => r.width > 0 && r.height > 0);
      if (!rects.length) continue;
      if (englishSet.has(text)) found.push(`English: "${text}"`);
      let scrolls = false;
      for (let a: Element | null = el; a && a !== document.body; a = a.parentElement) {
        const s = getComputedStyle(a);
        if ((s.overflowX === 'auto' || s.overflowX === 'scroll') && a.scrollWidth > a.clientWidth + 1) scrolls = true;
      }
      if (!scrolls && rects.some((r) => r.right > width + 1 || r.left < -1)) found.push(`off the screen: "${text.slice(0, 60)}"`);
    }
    return found;
  }, english);
}

/** The English texts of the catalogues that French writes differently (whole texts only). */
function englishOnly(): string[] {
  const dir = path.resolve(import.meta.dirname, '../apps/web/src/locales');
  const out = new Set<string>();
  for (const file of fs.readdirSync(path.join(dir, 'en'))) {
    const en = JSON.parse(fs.readFileSync(path.join(dir, 'en', file), 'utf8')) as Record<string, string>;
    const fr = JSON.parse(fs.readFileSync(path.join(dir, 'fr', file), 'utf8')) as Record<string, string>;
    for (const [key, text] of Object.entries(en)) if (!/\{\{|<\w/.test(text) && fr[key] !== text && /[a-z]{3}/.test(text)) out.add(text);
  }
  return [...out];
}

/** The whole number a text writes ("1,234 succeeded", "1 234 aboutis"). */
const numberIn = (text: string | null) => Number((/[\d][\d,\s\u202f\u00a0]*/.exec(text ?? '')?.[0] ?? '').replace(/[^\d]/g, ''));

/** The total the transactions table says it has ("1–10 of 1,234"), once its rows are in. */
async function tableTotal(page: Page): Promise<number> {
  const summary = page.getByTestId('page-summary');
  await expect.poll(async () => (await summary.textContent())?.trim() ?? '', { timeout: 15_000 }).toMatch(/\d/);
  return numberIn(/(of|sur)\s+(.*)$/.exec((await summary.textContent()) ?? '')?.[2] ?? '');
}

describe.skipIf(browserMissing)('the Overview in Chromium', () => {
  const env = serverAndBrowser({ LOGIN_RATE_LIMIT: '1000' });

  it('shows the figures and charts at 1440 and 375 px, axe finds nothing, and a figure opens its table with the same total', async () => {
    const page = await signedInPage(env, 'admin@acme.test', { viewport: { width: 1440, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.waitForURL('**/transactions');
    // in the navigation for every role, before Transactions
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect((await nav.getByRole('link').allTextContents()).slice(0, 2)).toEqual(['Overview', 'Transactions']);
    await nav.getByRole('link', { name: 'Overview' }).click();
    await page.waitForURL('**/overview');
    await overviewLoaded(page);
    for (const kind of ['collections', 'payments', 'settlements']) {
      expect(await page.getByTestId(`volume-${kind}`).getByTestId('volume-amount').textContent()).toMatch(/^USD [\d,]+\.\d{2}$/);
      expect(await page.getByTestId(`volume-${kind}`).getByTestId('volume-count').textContent()).toMatch(/^[\d,]+ succeeded$/);
    }
    expect(await page.getByTestId('success-rate').textContent()).toMatch(/^\d{1,3}\.\d%$/);
    expect(await page.getByTestId('balance-current').textContent()).toMatch(/^USD [\d,]+\.\d{2}$/);
    expect(await page.getByTestId('completion-p50').first().textContent()).toMatch(/^(\d+ (s|min)|\d+ h( \d+ min)?|\d+ d( \d+ h)?)$/);
    expect(await page.locator('[role="img"][aria-label^="Line chart"]').count()).toBe(3);
    expect(await problems(page)).toEqual([]);
    expect(await axeWithNames(page)).toEqual([]);
    await shot(page, 'overview-1440');
    // the charts' figures as tables, opened
    for (const summary of await page.getByText('Show as table').all()) await summary.click();
    expect(await axeWithNames(page)).toEqual([]);
    await shot(page, 'overview-1440-tables');

    // at 375 px: nothing wider than the screen, the charts drawn again at the width of their card
    await page.setViewportSize({ width: 375, height: 812 });
    await page.waitForTimeout(500);
    expect(await problems(page)).toEqual([]);
    const widths = await page.locator('[data-testid="chart"] canvas').evaluateAll((cs) => cs.map((c) => c.getBoundingClientRect().width));
    for (const w of widths) expect(w).toBeLessThanOrEqual(375 - 2 * 16 - 2 * 20);
    expect(await axeWithNames(page)).toEqual([]);
    await shot(page, 'overview-375');
    await page.setViewportSize({ width: 1440, height: 900 });

    // a figure opens the table behind it, whose total is the figure: the collections that succeeded
    const count = numberIn(await page.getByTestId('volume-collections').getByTestId('volume-count').textContent());
    expect(count).toBeGreaterThan(0);
    await page.getByTestId('volume-collections').getByTestId('volume-link').click();
    await page.waitForURL('**/transactions?**');
    const params = new URL(page.url()).searchParams;
    expect(params.get('tab')).toBe('2');
    expect(params.get('status')).toBe('complete,settlement_complete');
    expect(await page.getByRole('tab', { name: 'Collections' }).getAttribute('aria-selected')).toBe('true');
    expect(await tableTotal(page)).toBe(count);
    await page.goBack();
    await overviewLoaded(page);

    // a country's rows, whatever their outcome, on the combined tab
    const country = page.getByTestId('by-country').getByTestId('breakdown-row').first();
    const all = numberIn(await country.getByTestId('breakdown-all').textContent());
    await country.getByTestId('breakdown-all').click();
    await page.waitForURL('**/transactions?**');
    expect(new URL(page.url()).searchParams.get('tab')).toBe('5');
    expect(new URL(page.url()).searchParams.get('country')).toMatch(/^[A-Z]{2}$/);
    expect(await tableTotal(page)).toBe(all);
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);

  it('speaks French at 1440 and 375 px: no English text, nothing off the screen, axe finds nothing', async () => {
    const page = await signedInPage(env, 'admin2@acme.test', { viewport: { width: 1440, height: 900 } });
    await page.goto(`${env.server.url}/settings`);
    await page.getByRole('radio', { name: 'Français' }).click();
    await page.getByRole('heading', { name: 'Paramètres', level: 1 }).waitFor();
    await page.goto(`${env.server.url}/overview?period=7d`);
    await page.getByRole('heading', { name: 'Vue d’ensemble', level: 1 }).waitFor();
    await overviewLoaded(page);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr');
    expect(await page.getByTestId('volume-collections').getByTestId('volume-amount').textContent()).toMatch(/^[\d\u202f]+,\d{2}\u00a0USD$/);
    expect(await page.getByTestId('success-rate').textContent()).toMatch(/^\d{1,3},\d\u202f%$/);
    expect(await page.locator('[role="img"][aria-label^="Graphique linéaire"]').count()).toBe(3);
    const english = englishOnly();
    expect(await problems(page, english)).toEqual([]);
    expect(await axeWithNames(page)).toEqual([]);
    await shot(page, 'overview-fr-1440');
    await page.setViewportSize({ width: 375, height: 812 });
    await page.waitForTimeout(500);
    for (const summary of await page.getByText('Afficher sous forme de tableau').all()) await summary.click();
    expect(await problems(page, english)).toEqual([]);
    expect(await axeWithNames(page)).toEqual([]);
    await shot(page, 'overview-fr-375');
    await page.close();
  }, 120_000);

  /** Holds the replies of a call until released. */
  async function hold(page: Page, call: string) {
    const held: Route[] = [];
    let released = false;
    await page.route(`**/api/v1/${call}*`, async (route) => {
      if (released) return route.continue();
      held.push(route);
    });
    return {
      held,
      release: async () => {
        released = true;
        for (const route of held.splice(0)) await route.continue();
      },
    };
  }

  it.each([
    [1440, 900],
    // a tall phone: the three volume cards and the first chart on the screen
    [375, 1100],
  ])(
    'at %i px draws its skeleton from the first paint and its figures in its place: no layout shift',
    async (width, height) => {
      const page = await signedInPage(env, 'viewer@acme.test', { viewport: { width, height } });
      await page.goto(`${env.server.url}/overview`);
      await overviewLoaded(page);
      // every layout shift from the page's start, with what moved. A shift from a layout at another width than the
      // test's viewport is the browser's, not the portal's (once, on a loaded machine, the reloaded page's whole frame
      // moved at once from a 140 px wide layout to the 1440 px one): it is set apart and printed, never counted.
      await page.addInitScript((width) => {
        const w = window as unknown as { shifts: string[]; otherWidth: string[] };
        w.shifts = [];
        w.otherWidth = [];
        type Shift = { value: number; sources?: { node?: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[] };
        const box = (r: DOMRectReadOnly) => `${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}x${Math.round(r.height)}`;
        const name = (n: Node | null | undefined) =>
          n instanceof Element
            ? `${n.tagName.toLowerCase()}${n.getAttribute('data-testid') ? `#${n.getAttribute('data-testid')}` : ''} "${(n.textContent ?? '').trim().slice(0, 24)}"`
            : '?';
        // when the viewport last had another width than the page's (the frame that lays out the new width may be
        // stamped a little before its resize event), and the width seen last
        let narrowUntil = window.innerWidth === width ? -1 : performance.now();
        let seenWidth = window.innerWidth;
        window.addEventListener('resize', () => {
          if (seenWidth !== width) narrowUntil = performance.now();
          seenWidth = window.innerWidth;
        });
        new PerformanceObserver((list) => {
          for (const e of list.getEntries() as unknown as (Shift & { startTime: number })[]) {
            const text = `${e.value.toFixed(4)}: ${(e.sources ?? []).map((s) => `${name(s.node)} ${box(s.previousRect)} -> ${box(s.currentRect)}`).join('; ')}`;
            (e.startTime <= narrowUntil + 50 || seenWidth !== width ? w.otherWidth : w.shifts).push(text);
          }
        }).observe({ type: 'layout-shift', buffered: true });
      }, width);
      const start = await hold(page, 'partner/start');
      const figures = await hold(page, 'partner/analytics');
      await page.reload();
      await page.getByTestId('page-skeleton').waitFor();
      await expect.poll(() => start.held.length).toBe(1);
      await shot(page, `overview-skeleton-${width}`);
      await start.release();
      await expect.poll(() => figures.held.length, { timeout: 15_000 }).toBe(1);
      await page.getByTestId('page-skeleton').waitFor({ state: 'detached' });
      await page.waitForTimeout(300);
      // the figures replace their skeleton (new elements, which the layout-shift measure does not follow): the
      // sections' and cards' titles and the charts' boxes on the screen stay where the skeleton had them
      const landmarks = () =>
        page.evaluate(() =>
          Array.from(document.querySelectorAll('main h2, main h3, main [data-testid="chart-box"]'))
            .map((e) => e.getBoundingClientRect())
            .filter((r) => r.top < window.innerHeight)
            .map((r) => `${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}x${Math.round(r.height)}`),
        );
      const before = await landmarks();
      expect(before.length).toBeGreaterThan(2);
      await figures.release();
      await overviewLoaded(page);
      expect((await landmarks()).slice(0, before.length)).toEqual(before);
      const { shifts, otherWidth, innerWidth } = await page.evaluate(() => {
        const w = window as unknown as { shifts: string[]; otherWidth: string[] };
        return { shifts: w.shifts, otherWidth: w.otherWidth, innerWidth: window.innerWidth };
      });
      expect(innerWidth).toBe(width);
      if (otherWidth.length) console.log(`Overview at ${width} px: shifts laid out at another width, set apart: ${otherWidth.join(' | ')}`);
      expect(shifts).toEqual([]);
      await page.close();
    },
    120_000,
  );

  it('lands a user who chose the Overview as first screen on it at the next sign-in', async () => {
    const page = await signedInPage(env, 'treasury@acme.test', { viewport: { width: 1280, height: 800 } });
    await page.waitForURL('**/transactions');
    await page.goto(`${env.server.url}/settings`);
    await page.getByRole('radio', { name: 'Overview' }).click();
    await page.getByText('After signing in, you will now land on Overview').waitFor();
    await shot(page, 'settings-start-screen');
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL('**/login');
    await signInAs(page, env.server.url, 'treasury@acme.test');
    await page.waitForURL('**/overview');
    await overviewLoaded(page);
    await page.close();
  }, 120_000);
});
