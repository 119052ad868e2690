import fs from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { idSearchMessage } from '../packages/contract/src/transactions.ts';
import { parseCsv, type Csv } from '../apps/server/test/csv-text.ts';
import { browserMissing } from './support/browser.ts';
import { screenshots, signInAs } from './support/portal.ts';
import { serverAndBrowser } from './support/server.ts';

/**
 * Files that match the screen: each table's export, read back, holds the rows the table shows with the same values
 * (amounts as plain numbers beside their currencies, the statuses' labels, the time in UTC); the id a table shows
 * finds its row; the data-download page says each report's status and when its file expires.
 */

/** "TZS 5,773,210.50" (first amount of a cell, which may hold a second line) → currency and number. */
function money(text: string): { currency: string; amount: number } {
  // a minus before the currency ("−USD 1.25": a fee given back) is the amount's sign
  const m = /(−)?([A-Z]{3,5})\s?(-?[\d,]+(?:\.\d+)?)/.exec(text);
  expect(m, `an amount with its currency in "${text}"`).not.toBeNull();
  return { currency: m![2]!, amount: (m![1] ? -1 : 1) * Number(m![3]!.replace(/,/g, '')) };
}
/** A rate as shown: "1 USDC = 26.24 ZMW" or "ZMW 26.24" → 26.24. */
const rateShown = (text: string) => Number(/([\d,]+\.\d+)/.exec(text.includes('=') ? text.split('=')[1]! : text)![1]!.replace(/,/g, ''));
/** The instant a date cell shows, to the minute, in UTC (the browser runs in UTC, so a shown time without zone is UTC too). */
const shownMinute = (text: string) => new Date(text.includes('UTC') ? text : `${text} UTC`).toISOString().slice(0, 16).replace('T', ' ');

/** The rows of the table on screen as header → cell text (the View column left out). */
async function screenRows(page: Page): Promise<Record<string, string>[]> {
  const headers = (await page.locator('thead th').allTextContents()).map((h) => h.trim());
  const rows = page.locator('tbody tr');
  const out: Record<string, string>[] = [];
  for (let i = 0; i < (await rows.count()); i++) {
    // a cell's text without the column name a phone's card shows above it (hidden on a desktop, but in the text)
    const cells = (
      await rows
        .nth(i)
        .locator('td')
        .evaluateAll((tds) =>
          tds.map((td) => {
            const copy = td.cloneNode(true) as HTMLElement;
            copy.querySelectorAll('[data-cell-label]').forEach((label) => label.remove());
            return copy.textContent ?? '';
          }),
        )
    ).map((c) => c.trim());
    out.push(Object.fromEntries(headers.map((h, j) => [h, cells[j] ?? ''])));
  }
  return out;
}

async function exportCsv(page: Page): Promise<Csv> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
  return parseCsv(fs.readFileSync(await download.path(), 'utf8'));
}

const summaryOf = (page: Page) => page.getByTestId('page-summary');
const totalOf = async (summary: Locator) => Number((await summary.textContent())!.split(' of ')[1]!.replace(/[,+]/g, ''));

/** The amount on screen and the file's number and currency agree (a crypto amount the screen rounds, to its cents). */
function sameMoney(shown: string, amount: string | undefined, currency: string | undefined, what: string) {
  const s = money(shown);
  expect(amount, what).toMatch(/^-?\d+\.\d{2,8}$/);
  expect(currency, what).toBe(s.currency);
  expect(Math.abs(Number(amount) - s.amount), `${what}: screen ${shown}, file ${amount}`).toBeLessThanOrEqual(0.005);
}

describe.skipIf(browserMissing)('exports and reports in Chromium', () => {
  const env = serverAndBrowser({ LOGIN_RATE_LIMIT: '1000' });

  it('exports each B2B tab with the values and currencies the table shows', async () => {
    const page = await env.browser.newPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true, timezoneId: 'UTC' });
    await signInAs(page, env.server.url, 'admin@acme.test');
    await page.waitForURL('**/transactions');
    for (const tab of ['Payments', 'Collections', 'Settlements', 'Fees']) {
      await page.getByRole('tab', { name: tab }).click();
      await expect.poll(async () => page.getByRole('tab', { name: tab }).getAttribute('aria-selected')).toBe('true');
      const summary = summaryOf(page);
      await expect.poll(async () => (await summary.textContent()) ?? '').toMatch(/^1–10 of /);
      await expect.poll(async () => page.locator('[aria-busy="true"]').count()).toBe(0);
      const shown = await screenRows(page);
      expect(shown, tab).toHaveLength(10);
      const { headers, records } = await exportCsv(page);
      expect(records.length, tab).toBe(await totalOf(summary));
      expect(headers.slice(0, 2), tab).toEqual(['ID', 'Created (UTC)']);
      // every amount column of the file has its currency column beside it
      headers.forEach((h, i) => {
        if (/amount$|^Amount$/i.test(h)) expect(headers[i + 1], `${tab}: ${h}`).toMatch(/currency$/i);
      });
      expect(new Set(records.map((r) => r.Currency)).size, `${tab}: currencies`).toBeGreaterThanOrEqual(1);
      shown.forEach((row, i) => {
        const r = records[i]!;
        const what = `${tab} row ${i + 1}`;
        expect(r.ID!.startsWith(row.ID!.replace(/[…\s]|Copy.*$/g, '').slice(0, 8)), `${what}: ${row.ID} / ${r.ID}`).toBe(true);
        expect(r['Created (UTC)']!.slice(0, 16), what).toBe(shownMinute(row.Date!));
        sameMoney(row.Amount!, r.Amount, r.Currency, what);
        if ('Status' in row) expect(r.Status, what).toBe(row.Status);
        if ('Wallet' in row) expect(r.Wallet, what).toBe(row.Wallet);
        if ('Payment Method' in row) expect(r['Payment Method'], what).toBe(row['Payment Method']);
        if ('Request Source' in row) expect(r['Request Source'], what).toBe(row['Request Source']);
        if ('Transaction type' in row) expect(r['Transaction type'], what).toBe(row['Transaction type']);
        if ('Transaction Type' in row) expect(r['Transaction Type'], what).toBe(row['Transaction Type']);
      });
      if (tab === 'Settlements') {
        // a withdrawal or top-up moves the USD wallet: the file shows it there, in its coin, with the USD it moved
        expect(records.every((r) => r.Wallet === 'USD')).toBe(true);
        expect(records.every((r) => /^(USDT|USDC|PYUSD|CUSD|BTC)$/.test(r.Currency ?? ''))).toBe(true);
        expect(records.every((r) => /^\d+\.\d{2}$/.test(r['USD amount'] ?? ''))).toBe(true);
      }
    }
    await page.close();
  });

  it("exports Kora Trade's trades and initiated payments as shown, and finds a trade by the id the table shows", async () => {
    const page = await env.browser.newPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true, timezoneId: 'UTC' });
    await signInAs(page, env.server.url, 'admin@kora.test');
    await page.waitForURL('**/trades');
    const summary = summaryOf(page);
    await expect.poll(() => summary.textContent()).toBe('1–10 of 400');
    const trades = await screenRows(page);
    expect(trades).toHaveLength(10);
    const { records } = await exportCsv(page);
    expect(records).toHaveLength(400);
    trades.forEach((row, i) => {
      const r = records[i]!;
      const what = `trade row ${i + 1}`;
      expect(r['Trade ID'], what).toBe(row['trade id']!.replace(/Copy.*$/, '').trim());
      expect(r['Created (UTC)']!.slice(0, 16), what).toBe(shownMinute(row.date!));
      sameMoney(row['you sold']!, r['You sold'], r['You sold currency'], `${what} sold`);
      sameMoney(row['you received']!, r['You received'], r['You received currency'], `${what} received`);
      expect(Math.abs(Number(r['Rate including fee']) - rateShown(row['rate including fee']!)), what).toBeLessThanOrEqual(0.005);
      expect(r['Rate including fee unit'], what).toBe(
        `${r['You sold currency'] === r['Fee currency'] ? r['You received currency'] : r['You sold currency']} per ${r['Fee currency']}`,
      );
    });

    // the trade id as the table shows it finds that trade, in the forms a person types it
    const tradeId = records[3]!['Trade ID']!;
    const box = page.getByLabel('Search by ID');
    for (const text of [tradeId, tradeId.toLowerCase(), tradeId.slice(4)]) {
      await box.fill(text);
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await expect.poll(() => summary.textContent(), { message: text }).toBe('1–1 of 1');
      expect((await screenRows(page))[0]!['trade id']).toContain(tradeId);
    }
    // text that cannot be an id is refused in words, and nothing is searched
    await box.fill('hello world!');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    expect(await page.getByRole('alert').filter({ hasText: 'trade ID' }).textContent()).toBe(idSearchMessage('trades'));
    expect(await summary.textContent()).toBe('1–1 of 1');
    await screenshots(page, 'trades-id-refused');

    await page.goto(`${env.server.url}/payments`);
    await expect.poll(async () => (await summary.textContent()) ?? '').toMatch(/^1–10 of /);
    const shown = await screenRows(page);
    expect(shown).toHaveLength(10);
    const initiated = await exportCsv(page);
    expect(initiated.records.length).toBe(await totalOf(summary));
    shown.forEach((row, i) => {
      const r = initiated.records[i]!;
      sameMoney(row.Amount!, r.Amount, r.Currency, `initiated payment row ${i + 1}`);
      expect(r.Status).toBe(row.Status);
      expect(r.Recipient).toBe(row.Recipient);
    });
    await page.close();
  });

  it('shows each report with a status badge and when its file expires, and its file has the columns of the table export', async () => {
    const page = await env.browser.newPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true, timezoneId: 'UTC' });
    await signInAs(page, env.server.url, 'treasury@acme.test');
    await page.waitForURL('**/transactions');
    const exported = await exportCsv(page);
    await page.goto(`${env.server.url}/data-download`);
    await page.getByText('No reports yet').waitFor();
    await page.getByRole('button', { name: 'Request report' }).click();
    await page.getByRole('button', { name: 'Data: Payments' }).click();
    await page.getByRole('option', { name: 'Settlements' }).click();
    await page.getByRole('button', { name: 'Request report' }).click();
    const rows = page.getByTestId('report-row');
    await expect.poll(() => rows.count()).toBe(2);
    for (let i = 0; i < 2; i++)
      await rows
        .nth(i)
        .getByRole('button', { name: /^Download/ })
        .waitFor({ timeout: 30_000 });
    const payments = rows.filter({ hasText: 'Payments' });
    expect((await payments.locator('[data-tone]').textContent())?.trim()).toBe('Complete');
    expect(await payments.locator('[data-tone]').getAttribute('data-tone')).toBe('success');
    const expires = await payments.getByTestId('report-expires').innerText();
    expect(expires).toMatch(/in 2[34] h/);
    const [download] = await Promise.all([page.waitForEvent('download'), payments.getByRole('button', { name: /^Download/ }).click()]);
    const report = parseCsv(fs.readFileSync(await download.path(), 'utf8'));
    // one column set for the table export and the report file
    expect(report.headers).toEqual(exported.headers);
    expect(report.records.length).toBeGreaterThan(0);
    await screenshots(page, 'data-download-reports');

    // every state a report goes through, as the list answers them, each with its badge and expiry
    const now = Date.now();
    const job = (status: string, extra: Record<string, unknown>) => ({
      id: crypto.randomUUID(),
      partnerId: '0a5e0000-0000-4000-8000-00000000ac3e',
      status,
      requestedByEmail: 'treasury@acme.test',
      requestedById: '0a5e0001-0000-4000-8000-000000000003',
      startDate: '2026-10-01',
      endDate: '2026-10-31',
      dataSource: 'collections',
      filters: {},
      expiresAt: null,
      downloadURL: null,
      totalPages: 4,
      processedPages: 0,
      rowCount: null,
      timeZone: 'UTC',
      createdAt: new Date(now - 3600_000).toISOString(),
      ...extra,
    });
    const jobs = [
      job('requested', {}),
      job('in_progress', { dataSource: 'fees', processedPages: 2 }),
      job('complete', {
        dataSource: 'payments',
        rowCount: 18250,
        expiresAt: new Date(now + 5 * 3600_000).toISOString(),
        downloadURL: '/api/v1/report-jobs/x/download',
        processedPages: 4,
      }),
      job('expired', { dataSource: 'settlements', rowCount: 912, expiresAt: new Date(now - 2 * 3600_000).toISOString(), processedPages: 4 }),
      job('failed', { startDate: '2026-01-01', endDate: '2026-12-31' }),
    ];
    await page.route('**/api/v1/report-jobs', (route) => route.fulfill({ json: { jobs, total: jobs.length } }));
    await page.reload();
    await expect.poll(() => rows.count()).toBe(5);
    const tones = await rows.locator('[data-tone]').evaluateAll((els) => els.map((e) => [e.textContent, e.getAttribute('data-tone')]));
    expect(tones).toEqual([
      ['Requested', 'info'],
      ['In Progress', 'info'],
      ['Complete', 'success'],
      ['Expired', 'neutral'],
      ['Failed', 'danger'],
    ]);
    expect(await rows.nth(1).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('50');
    expect(await rows.nth(0).getByTestId('report-expires').innerText()).toBe('24 hours after it is ready');
    expect(await rows.nth(2).getByTestId('report-expires').innerText()).toMatch(/in (4 h 59 min|5 h)$/);
    expect(await rows.nth(3).getByTestId('report-expires').innerText()).toMatch(/^Expired/);
    for (const i of [3, 4])
      await rows
        .nth(i)
        .getByRole('button', { name: /again$/ })
        .waitFor();
    await screenshots(page, 'data-download-states');
    await page.close();
  });
});
