import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { browserMissing } from './support/browser.ts';
import { screenshots, signInAs } from './support/portal.ts';
import { serverAndBrowser } from './support/server.ts';

describe.skipIf(browserMissing)('transactions in Chromium', () => {
  const env = serverAndBrowser({ LOGIN_RATE_LIMIT: '1000' });

  it('pages, filters, searches by id and exports the payments of Acme Remit', async () => {
    const page = await env.browser.newPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    await signInAs(page, env.server.url, 'admin@acme.test');
    await page.waitForURL('**/transactions');
    const summary = page.getByTestId('page-summary');
    await expect.poll(() => summary.textContent()).toBe('1–10 of 1,200');
    expect(await page.getByRole('tab', { name: 'Payments' }).getAttribute('aria-selected')).toBe('true');
    const headers = await page.locator('thead th').allTextContents();
    expect(headers).toEqual(['ID', 'Date', 'Country', 'Wallet', 'Amount', 'Status', 'Payment Method', 'View']);
    await screenshots(page, 'transactions-payments');

    const firstIds = await page.locator('tbody tr td:first-child').allTextContents();
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => summary.textContent()).toBe('11–20 of 1,200');
    // the previous rows stay (dimmed) until the next page arrives
    await expect.poll(async () => (await page.locator('tbody tr td:first-child').allTextContents())[0]).not.toBe(firstIds[0]);
    const secondIds = await page.locator('tbody tr td:first-child').allTextContents();
    expect(secondIds).toHaveLength(10);
    expect(secondIds.filter((id) => firstIds.includes(id))).toEqual([]);

    // filter by status: every row shows it
    await page.getByRole('button', { name: 'Status: All' }).click();
    await page.keyboard.type('failed');
    await page.keyboard.press('Enter');
    const statuses = () => page.locator('tbody tr td:nth-child(6)').allTextContents();
    await expect.poll(async () => [...new Set(await statuses())]).toEqual(['Failed']);
    expect((await statuses()).length).toBe(10);

    // export what the filters show and read the file back
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const csv = fs.readFileSync((await download.path())!, 'utf8');
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    const lines = csv.slice(1).trim().split('\r\n');
    expect(lines[0]!.startsWith('ID,Created (UTC),Country,Wallet,Amount,Currency,Status,Payment Method,')).toBe(true);
    const total = Number((await summary.textContent())!.split(' of ')[1]!.replace(/,/g, ''));
    expect(lines.length - 1).toBe(total);
    expect(lines.slice(1).every((l) => l.split(',')[6] === 'Failed')).toBe(true);

    // id search: the whole id of a row finds that row only
    await page.getByRole('button', { name: 'Reset filters' }).click();
    await page.locator('tbody tr').first().getByRole('button', { name: /^View/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Transaction details' });
    await dialog.waitFor();
    const fullId = (await dialog.locator('dt:text-is("Id") + dd').textContent())!;
    await screenshots(page, 'transaction-details');
    await page.keyboard.press('Escape');
    await page.getByLabel('Search by ID').fill(fullId);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => summary.textContent()).toBe('1–1 of 1');
    await page.getByLabel('Search by ID').fill('ffffffffffff');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByTestId('empty-noDataForId').waitFor();
    await screenshots(page, 'transactions-empty-id');

    await page.getByRole('tab', { name: 'Settlements' }).click();
    await page.waitForURL('**/transactions?tab=3');
    await expect.poll(async () => page.locator('thead th').allTextContents()).toEqual(['ID', 'Date', 'Wallet', 'Transaction type', 'Amount', 'Status', 'View']);
    await page.close();
  });

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
    const csv = fs.readFileSync((await download.path())!, 'utf8');
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    expect(csv.slice(1).trim().split('\r\n').length - 1).toBe(rows);
    await page.close();
  });

  it("shows Kora Trade's trades", async () => {
    const page = await env.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signInAs(page, env.server.url, 'admin@kora.test');
    await page.waitForURL('**/trades');
    await expect.poll(() => page.getByTestId('page-summary').textContent()).toBe('1–10 of 400');
    expect(await page.locator('thead th').allTextContents()).toEqual(['date', 'trade id', 'country', 'you sold', 'you received', 'rate including fee', 'View']);
    await screenshots(page, 'trades');
    await page.close();
  });
});
