import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserMissing } from './support/browser.ts';
import { screenshots, signInAs } from './support/portal.ts';
import { serverAndBrowser } from './support/server.ts';
import { rowIds, rowStatuses, transactionsPage } from './support/transactions.ts';

/** The dates of the rows as written ("Nov 16, 2026, 01:44 UTC"). */
const rowDates = (page: Page) => page.locator('[data-testid="transaction-row"] [data-date]').evaluateAll((d) => d.map((e) => e.getAttribute('data-date')!));
/** Cells of the rows whose content spills out of them (none may: on a phone a spill covers the next cell). */
const spilling = (page: Page) =>
  page
    .locator('[data-testid="transaction-row"] td')
    .evaluateAll((cells) => cells.filter((c) => getComputedStyle(c).display !== 'none' && c.scrollWidth > c.clientWidth + 1).map((c) => c.textContent));
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** "Nov 16, 2026, 01:44 UTC" → "2026-11-16" (the UTC day it was written in). */
const isoDay = (shown: string) => {
  const [, mon, day, year] = /^(\w{3}) (\d{1,2}), (\d{4}),/.exec(shown)!;
  return `${year}-${String(MONTHS.indexOf(mon!) + 1).padStart(2, '0')}-${day!.padStart(2, '0')}`;
};

describe.skipIf(browserMissing)('transactions in Chromium', () => {
  const env = serverAndBrowser({ LOGIN_RATE_LIMIT: '1000' });

  it('pages, filters, searches by id and exports the payments of Acme Remit', async () => {
    const page = await transactionsPage(env, 'admin@acme.test', { acceptDownloads: true });
    const summary = page.getByTestId('page-summary');
    await expect.poll(() => summary.textContent()).toBe('1–10 of 1,200');
    expect(await page.getByRole('tab', { name: 'Payments' }).getAttribute('aria-selected')).toBe('true');
    const headers = await page.locator('thead th').allTextContents();
    expect(headers).toEqual(['ID', 'Date', 'Country', 'Wallet', 'Amount', 'Status', 'Payment Method', 'View']);
    // every date says its zone; a non-USD payment shows both sides of its conversion, each with its currency
    for (const d of await rowDates(page)) expect(d).toMatch(/^\w{3} \d{1,2}, \d{4}, \d{2}:\d{2} UTC$/);
    const subs = await page.getByTestId('amount-sub').allTextContents();
    expect(subs.length).toBeGreaterThan(0);
    for (const s of subs) expect(s).toMatch(/^USD [\d,]+\.\d{2} · 1 USD = [\d,]+\.\d{2} [A-Z]{3}$/);
    await screenshots(page, 'transactions-payments');

    const firstIds = await rowIds(page);
    const next = page.getByRole('button', { name: 'Next' });
    await next.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => summary.textContent()).toBe('11–20 of 1,200');
    // the previous rows stay (dimmed) until the next page arrives
    await expect.poll(async () => (await rowIds(page))[0]).not.toBe(firstIds[0]);
    // the focus stays on the pager
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Next');
    const secondIds = await rowIds(page);
    expect(secondIds).toHaveLength(10);
    expect(secondIds.filter((id) => firstIds.includes(id))).toEqual([]);
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    // a reload keeps the page
    await page.reload();
    await expect.poll(() => summary.textContent()).toBe('11–20 of 1,200');
    await expect.poll(() => rowIds(page)).toEqual(secondIds);

    // the status filter offers every status a payment can have, in six groups; filtered, every row shows one of them
    await page.getByRole('button', { name: 'Status: All' }).click();
    expect(await page.getByRole('checkbox').count()).toBe(24 + 6);
    await page.getByRole('checkbox', { name: 'Failed', exact: true }).click();
    await page.keyboard.press('Escape');
    await expect.poll(async () => [...new Set(await rowStatuses(page))]).toEqual(['Failed']);
    expect((await rowStatuses(page)).length).toBe(10);
    expect(await page.locator('[data-testid="transaction-row"] [data-tone]').first().getAttribute('data-tone')).toBe('danger');

    // export what the filters show and read the file back
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const csv = fs.readFileSync(await download.path(), 'utf8');
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    const lines = csv.slice(1).trim().split('\r\n');
    expect(lines[0]!.startsWith('ID,Created (UTC),Country,Wallet,Amount,Currency,Status,Payment Method,')).toBe(true);
    const total = Number((await summary.textContent())!.split(' of ')[1]!.replace(/,/g, ''));
    expect(lines.length - 1).toBe(total);
    expect(lines.slice(1).every((l) => l.split(',')[6] === 'Failed')).toBe(true);

    // id search: the whole id of a row finds that row only
    await page.getByRole('button', { name: 'Reset filters' }).click();
    await expect.poll(() => summary.textContent()).toBe('1–10 of 1,200');
    const [fullId] = await rowIds(page);
    await page.getByLabel('Search by ID').fill(fullId!);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => summary.textContent()).toBe('1–1 of 1');
    expect(new URL(page.url()).searchParams.get('id')).toBe(fullId);
    await page.getByLabel('Search by ID').fill('ffffffffffff');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByTestId('empty-noDataForId').waitFor();
    await screenshots(page, 'transactions-empty-id');
    await page.close();
  }, 120_000);

  it('groups the details of a payment and a settlement, copies ids, links the hash to its explorer and gives the focus back', async () => {
    const page = await transactionsPage(env, 'admin2@acme.test', { permissions: ['clipboard-read', 'clipboard-write'] });
    await page.getByTestId('transaction-row').first().waitFor();
    const [id] = await rowIds(page);
    const view = page.getByRole('button', { name: `View details of ${id}` });
    await view.click();
    const drawer = page.getByRole('dialog', { name: 'Transaction details' });
    await drawer.waitFor();
    expect(await drawer.getByRole('heading', { level: 3 }).allTextContents()).toEqual(['Summary', 'Parties', 'Amounts']);
    const field = (label: string) => drawer.locator(`[data-field="${label}"] dd`).textContent();
    expect(await field('ID')).toBe(id);
    expect(await field('Date')).toMatch(/^\w{3} \d{1,2}, \d{4}, \d{2}:\d{2} UTC$/);
    expect(await field('Amount')).toMatch(/^[A-Z]{3} [\d,]+\.\d{2}$/);
    // no raw ISO date, enum value or 12-decimal rate anywhere in the drawer
    expect(await drawer.textContent()).not.toMatch(/\d{4}-\d{2}-\d{2}T|_|\.\d{9}/);
    await drawer.getByRole('button', { name: 'Copy ID' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(id);
    await screenshots(page, 'transaction-details');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(`View details of ${id}`);

    // a settlement: the chain section, the hash linked to its network's explorer; Close gives the focus back too
    await page.getByRole('tab', { name: 'Settlements' }).click();
    await page.waitForURL('**/transactions?tab=3');
    await expect.poll(async () => page.locator('thead th').allTextContents()).toEqual(['ID', 'Date', 'Wallet', 'Transaction type', 'Amount', 'Status', 'View']);
    await page.getByTestId('transaction-row').first().waitFor();
    const [sid] = await rowIds(page);
    await page.getByRole('button', { name: `View details of ${sid}` }).click();
    await drawer.waitFor();
    expect(await drawer.getByRole('heading', { level: 3 }).allTextContents()).toEqual(['Summary', 'Amounts', 'Chain']);
    const network = (await field('Network'))!;
    const hash = drawer.locator('[data-field="Transaction hash"] a');
    const href = (await hash.getAttribute('href'))!;
    const explorers: Record<string, string> = {
      TRC20: 'https://tronscan.org/#/transaction/',
      ERC20: 'https://etherscan.io/tx/',
      POLYGON: 'https://polygonscan.com/tx/',
      SOL: 'https://solscan.io/tx/',
      XLM: 'https://stellar.expert/explorer/public/tx/',
      CELO: 'https://celoscan.io/tx/',
      BASE: 'https://basescan.org/tx/',
    };
    const code = /\((\w+)\)$/.exec(network)![1]!;
    const full = (await drawer.getByRole('button', { name: 'Copy Transaction hash' }).getAttribute('data-copy'))!;
    // the network's own form: 0x and 32 bytes on EVM networks, 32 bytes on Tron, a base58 signature on Solana
    expect(full).toMatch(code === 'SOL' ? /^[1-9A-HJ-NP-Za-km-z]{87,88}$/ : code === 'TRC20' ? /^[0-9a-f]{64}$/ : /^0x[0-9a-f]{64}$/);
    expect(href).toBe(`${explorers[code]}${full}`);
    expect(await hash.getAttribute('target')).toBe('_blank');
    expect(await drawer.getByRole('button', { name: 'Copy External wallet address' }).count()).toBe(1);
    await screenshots(page, 'settlement-details');
    await drawer.getByRole('button', { name: 'Close' }).click();
    await drawer.waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(`View details of ${sid}`);

    // the partner id in the sidebar is copied in full
    await page.getByRole('button', { name: 'Copy partner ID' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    await page.close();
  }, 120_000);

  it('in Nairobi time, a payment shown on a day is found by a filter on that day (times are shown in UTC)', async () => {
    const page = await transactionsPage(env, 'treasury@acme.test', { timezoneId: 'Africa/Nairobi' });
    expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe('Africa/Nairobi');
    await page.getByTestId('transaction-row').first().waitFor();
    // a payment made late in the UTC day, which is already the next day in Nairobi (UTC+3), when one is near
    let pick: { id: string; date: string } | undefined;
    for (let p = 1; p <= 5 && !pick; p++) {
      if (p > 1) {
        await page.getByRole('button', { name: 'Next' }).click();
        await expect.poll(() => page.getByTestId('page-summary').textContent()).toMatch(new RegExp(`^${(p - 1) * 10 + 1}–`));
        await expect.poll(() => page.locator('[aria-busy="true"]').count()).toBe(0);
      }
      const [ids, dates] = [await rowIds(page), await rowDates(page)];
      const at = dates.findIndex((d) => Number(/, (\d{2}):/.exec(d)![1]) >= 21);
      if (at >= 0) pick = { id: ids[at]!, date: dates[at]! };
      else if (p === 5) pick = { id: ids[0]!, date: dates[0]! };
    }
    const day = isoDay(pick!.date);
    await page.getByLabel('From (UTC)').fill(day);
    await page.getByLabel('To (UTC)').fill(day);
    await expect.poll(() => new URL(page.url()).searchParams.get('to')).toBe(day);
    await expect.poll(async () => (await rowDates(page)).every((d) => isoDay(d) === day), { timeout: 10_000 }).toBe(true);
    expect(await rowIds(page)).toContain(pick!.id);
    await screenshots(page, 'transactions-date-filter');
    await page.close();
  }, 120_000);

  it('shows a failed request inside the table with Retry, a reload keeps tab and filters, and at 375 px rows are cards', async () => {
    const page = await transactionsPage(env, 'admin@lean.test');
    const summary = page.getByTestId('page-summary');
    await page.getByRole('tab', { name: 'Collections' }).click();
    await expect.poll(() => summary.textContent()).toBe('1–10 of 30');
    const kept = await rowIds(page);
    // the search fails (twice: the portal retries a failed read once); a 500, not an outage (a 503 waits and retries)
    await page.route('**/api/v1/transactions/search', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ code: 'InternalError', message: 'down', requestId: 'r' }) }),
    );
    await page.getByRole('button', { name: 'Next' }).click();
    const error = page.getByTestId('table-error');
    await error.waitFor({ timeout: 15_000 });
    expect(await error.textContent()).toContain('Could not retrieve collection records');
    // the last good rows stay under it
    expect(await rowIds(page)).toEqual(kept);
    await screenshots(page, 'transactions-error');
    await page.unroute('**/api/v1/transactions/search');
    await error.getByRole('button', { name: 'Retry' }).click();
    await error.waitFor({ state: 'detached' });
    await expect.poll(() => summary.textContent()).toBe('11–20 of 30');

    // a filter and a date range, then a reload: the same tab, filters and rows
    await page.getByRole('button', { name: 'Request Source: All' }).click();
    await page.getByRole('option', { name: 'Widget' }).click();
    await page.getByLabel('From (UTC)').fill('2020-01-01');
    await page.getByLabel('To (UTC)').fill('2030-12-31');
    await expect
      .poll(() => Object.fromEntries(new URL(page.url()).searchParams), { timeout: 10_000 })
      .toEqual({ tab: '2', requestSource: 'widget', from: '2020-01-01', to: '2030-12-31' });
    await expect.poll(() => page.locator('[aria-busy="true"]').count()).toBe(0);
    const before = await rowIds(page);
    expect(before.length).toBeGreaterThan(0);
    await page.reload();
    await expect.poll(() => rowIds(page)).toEqual(before);
    expect(await page.getByRole('tab', { name: 'Collections' }).getAttribute('aria-selected')).toBe('true');
    expect(await page.getByRole('button', { name: 'Request Source: Widget' }).count()).toBe(1);
    expect(await page.getByLabel('From (UTC)').inputValue()).toBe('2020-01-01');
    // a reversed range: the data-download page's message, and no rows (nothing searched with it)
    await page.getByLabel('From (UTC)').fill('2031-01-01');
    await page.getByRole('alert').filter({ hasText: 'The end date must be on or after the start date.' }).waitFor();
    await page.getByTestId('empty-invalidFilter').waitFor();
    expect(await rowIds(page)).toEqual([]);

    // at 375 px: rows as cards, filters behind a button, every tab whole, no sideways scrolling
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(`${env.server.url}/transactions`);
    for (const tab of ['Payments', 'Collections', 'Settlements', 'Fees']) {
      await page.getByRole('tab', { name: tab }).click();
      await page.getByTestId('transaction-row').first().waitFor();
      await page.screenshot({ path: `e2e/screenshots/transactions-${tab.toLowerCase()}-phone-top.png` });
      expect(await page.evaluate(() => document.documentElement.scrollWidth), tab).toBeLessThanOrEqual(375);
      for (const t of await page.getByRole('tab').all()) {
        const box = (await t.boundingBox())!;
        expect(box.x, tab).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, tab).toBeLessThanOrEqual(375);
      }
      // a card: id, date, amount and status come first
      const card = page.getByTestId('transaction-row').first();
      expect((await card.boundingBox())!.width).toBeLessThanOrEqual(375);
      const labels = await card.locator('td').evaluateAll((cells) =>
        cells
          .filter((c) => getComputedStyle(c).display !== 'none')
          .sort((a, b) => Number(getComputedStyle(a).order) - Number(getComputedStyle(b).order))
          .map((c) => c.querySelector('[data-cell-label]')?.textContent ?? ''),
      );
      expect(labels.slice(0, 2), tab).toEqual(['ID', 'Date']);
      expect(await spilling(page), tab).toEqual([]);
      if (tab !== 'Fees') expect(labels.slice(2, 4).sort(), tab).toEqual(['Amount', 'Status']);
      // the filters wait behind their button
      expect(await page.getByRole('button', { name: 'Export CSV' }).isVisible()).toBe(false);
      await screenshots(page, `transactions-${tab.toLowerCase()}-phone`);
    }
    await page.getByRole('button', { name: 'Filters' }).click();
    expect(await page.getByRole('button', { name: 'Export CSV' }).isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screenshots(page, 'transactions-filters-phone');
    await page.close();
  }, 150_000);

  it('requests a report job, watches it build and downloads its file', async () => {
    const page = await env.browser.newPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    await signInAs(page, env.server.url, 'viewer@acme.test');
    await page.goto(`${env.server.url}/data-download`);
    await page.getByText('No reports yet').waitFor();
    await page.getByRole('button', { name: 'Request report' }).click();
    const row = page.getByTestId('report-row').first();
    await row.getByRole('button', { name: 'Download' }).waitFor({ timeout: 30_000 });
    await screenshots(page, 'data-download');
    const rows = Number((await row.locator('td').nth(4).innerText()).replace(/,/g, ''));
    expect(rows).toBeGreaterThan(0);
    const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: 'Download' }).click()]);
    const csv = fs.readFileSync(await download.path(), 'utf8');
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    expect(csv.slice(1).trim().split('\r\n').length - 1).toBe(rows);
    await page.close();
  });

  it("shows Kora Trade's trades: the rate as '1 USDC = 26.24 ZMW', the fee with its currency, the Amount filter; /payments/{id} opens that payment", async () => {
    const page = await env.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signInAs(page, env.server.url, 'admin@kora.test');
    await page.waitForURL('**/trades');
    await expect.poll(() => page.getByTestId('page-summary').textContent()).toBe('1–10 of 400');
    expect(await page.locator('thead th').allTextContents()).toEqual(['date', 'trade id', 'country', 'you sold', 'you received', 'rate including fee', 'View']);
    const rates = await page.locator('[data-testid="transaction-row"] td:nth-child(6) [data-testid="amount-main"]').allTextContents();
    expect(rates).toHaveLength(10);
    for (const r of rates) expect(r).toMatch(/^1 (USDC|USDT|CUSD|PYUSD|BTC) = [\d,]+\.\d{2,6} [A-Z]{3}$/);
    for (const f of await page.getByTestId('amount-sub').allTextContents()) expect(f).toMatch(/^Fee (USDC|USDT|CUSD|PYUSD|BTC) [\d,.]+$/);
    // the trade id is shown whole, like the ids of the other tables, with its copy action
    const tradeIds = await page
      .locator('[data-testid="transaction-row"] button[aria-label="Copy Trade id"]')
      .evaluateAll((b) => b.map((e) => e.getAttribute('data-copy')));
    for (const t of tradeIds) expect(t).toMatch(/^TRD-[0-9A-F]{10}$/);
    expect(await spilling(page)).toEqual([]);
    await screenshots(page, 'trades');
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await spilling(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('button', { name: 'Amount: All' }).click();
    await page.getByRole('option', { name: 'USD 10,000 and over' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('amount')).toBe('10000-');
    await expect.poll(async () => Number((await page.getByTestId('page-summary').textContent())!.split(' of ')[1]!.replace(/,/g, ''))).toBeLessThan(400);
    await page.getByTestId('transaction-row').first().getByRole('button', { name: /^View/ }).click();
    const drawer = page.getByRole('dialog', { name: 'Transaction details' });
    const crypto = (await drawer.locator('[data-field="Crypto amount"] dd').textContent())!;
    expect(Number(crypto.replace(/^[A-Z]+ /, '').replace(/,/g, ''))).toBeGreaterThanOrEqual(10_000);
    expect(await drawer.locator('[data-field="Fee"] dd').textContent()).toMatch(/^[A-Z]+ [\d,.]+$/);
    await screenshots(page, 'trade-details');
    await page.keyboard.press('Escape');

    // initiated payments: a row's id in the address opens it, also after a reload or from a shared link
    await page.getByRole('link', { name: 'Initiate payments' }).click();
    await page.waitForURL('**/payments');
    // the payments' own rows (the trades' may still show while they load: they have no "Copy ID")
    await expect.poll(async () => (await rowIds(page)).length, { timeout: 10_000 }).toBeGreaterThan(3);
    const id = (await rowIds(page))[3]!;
    await page.goto(`${env.server.url}/payments/${id}`);
    await drawer.waitFor();
    expect(await drawer.locator('[data-field="ID"] dd').textContent()).toBe(id);
    await screenshots(page, 'payment-linked');
    await page.keyboard.press('Escape');
    await page.waitForURL('**/payments');
    await page.getByRole('button', { name: `View details of ${id}` }).click();
    await page.waitForURL(`**/payments/${id}`);
    await page.goto(`${env.server.url}/payments/00000000-0000-4000-8000-000000000000`);
    await page.getByText('No payment with the ID 00000000-0000-4000-8000-000000000000.').waitFor();
    await page.close();
  }, 120_000);
});
