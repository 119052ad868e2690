import { describe, expect, it } from 'vitest';
import { browserMissing } from './support/browser.ts';
import { screenshots } from './support/portal.ts';
import { serverAndBrowser } from './support/server.ts';
import { rowIds, rowStatuses, transactionsPage } from './support/transactions.ts';

const FAILED_GROUP = ['Failed', 'Denied', 'Refund Failed', 'Settlement Failed'];

describe.skipIf(browserMissing)('transaction filters in Chromium', () => {
  const env = serverAndBrowser({ LOGIN_RATE_LIMIT: '1000' });

  it('filters by a status group, kept in the address, and by one status of it', async () => {
    const page = await transactionsPage(env, 'admin@acme.test');
    const summary = page.getByTestId('page-summary');
    await expect.poll(() => summary.textContent()).toBe('1–10 of 1,200');
    await page.getByRole('button', { name: 'Status: All' }).click();
    await page.getByRole('checkbox', { name: 'Failed (4)' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('status')).toBe('failed,denied,refund_failed,settlement_failed');
    await expect.poll(async () => (await rowStatuses(page)).length).toBeGreaterThan(0);
    await expect.poll(async () => (await rowStatuses(page)).every((st) => FAILED_GROUP.includes(st))).toBe(true);
    expect(await page.getByRole('button', { name: 'Status: Failed' }).count()).toBe(1);
    await page.getByRole('checkbox', { name: 'Denied' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('status')).toBe('failed,refund_failed,settlement_failed');
    await page.screenshot({ path: 'e2e/screenshots/transactions-status-groups-desktop.png', fullPage: true });
    // at 375 px the filters open with the Filters button; the list fits the screen
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 375, height: 740 });
    await page.getByRole('button', { name: /^Filters/ }).click();
    await page.getByRole('button', { name: 'Status: 3 statuses' }).click();
    const list = page.getByTestId('status-filter');
    await list.waitFor();
    expect((await list.boundingBox())!.width).toBeLessThanOrEqual(375);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.screenshot({ path: 'e2e/screenshots/transactions-status-groups-mobile.png', fullPage: true });
    // an old single-status link still works
    await page.goto(`${env.server.url}/transactions?status=refund_failed`);
    await expect.poll(async () => [...new Set(await rowStatuses(page))]).toEqual(['Refund Failed']);
    await page.close();
  }, 120_000);

  it('shows no rows and no export for a reversed range, on a fresh load too, and recovers when it is fixed', async () => {
    const page = await transactionsPage(env, 'viewer@acme.test');
    await page.goto(`${env.server.url}/transactions?from=2026-11-30&to=2026-11-01`);
    await page.getByTestId('empty-invalidFilter').waitFor();
    expect(await rowIds(page)).toEqual([]);
    const exportButton = page.getByRole('button', { name: 'Export CSV' });
    expect(await exportButton.isDisabled()).toBe(true);
    expect(await page.locator(`#${(await exportButton.getAttribute('aria-describedby'))!}`).textContent()).toContain(
      'The end date must be on or after the start date.',
    );
    await screenshots(page, 'transactions-invalid-range');
    await page.getByLabel('From (UTC)').fill('2020-01-01');
    await expect.poll(async () => (await rowIds(page)).length).toBe(10);
    expect(await exportButton.isDisabled()).toBe(false);
    // reversed again from a valid range: the rows go at once
    await page.getByLabel('To (UTC)').fill('2019-12-31');
    await page.getByTestId('empty-invalidFilter').waitFor();
    expect(await rowIds(page)).toEqual([]);
    await page.close();
  }, 120_000);

  it('shows payments and collections together in the All tab, filtered by transaction type, and the menu with its icons', async () => {
    const page = await transactionsPage(env, 'treasury@acme.test');
    const summary = page.getByTestId('page-summary');
    await expect.poll(() => summary.textContent()).toBe('1–10 of 1,200');
    // every menu item has its icon
    const nav = page.getByRole('navigation', { name: 'Main' });
    const links = nav.getByRole('link');
    expect(await links.count()).toBeGreaterThan(3);
    for (const link of await links.all()) expect(await link.locator('svg[aria-hidden="true"]').count(), (await link.textContent()) ?? '').toBe(1);

    await page.getByRole('tab', { name: 'All' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('tab')).toBe('5');
    // the demo's 1,200 payments and its collections, newest first
    await expect.poll(async () => Number(/of ([\d,]+)/.exec((await summary.textContent()) ?? '')?.[1]?.replace(/,/g, ''))).toBeGreaterThan(1_200);
    expect(await page.locator('thead th').allTextContents()).toEqual(['ID', 'Date', 'Type', 'Country', 'Wallet', 'Amount', 'Status', 'View']);
    // the type the third cell shows, its payment method on the line under it (the cell's label for a phone's card is
    // hidden on a wide screen)
    const typeCells = () =>
      page
        .locator('[data-testid="transaction-row"] td:nth-child(3)')
        .evaluateAll((tds) => tds.map((td) => (td as HTMLElement).innerText.trim().split('\n')[0]!));
    await expect.poll(async () => (await typeCells()).length).toBe(10);
    expect(
      (await typeCells()).every((c) => ['Pay out', 'Top up'].includes(c)),
      (await typeCells()).join(', '),
    ).toBe(true);
    const methods = await page
      .locator('[data-testid="transaction-row"] td:nth-child(3)')
      .evaluateAll((tds) => tds.map((td) => (td as HTMLElement).innerText.trim().split('\n')[1]));
    expect(
      methods.every((m) => m === 'Bank' || m === 'Momo'),
      methods.join(', '),
    ).toBe(true);
    // nothing in the header runs into its neighbour
    const overlaps = await page.locator('thead th').evaluateAll((ths) => ths.filter((th) => th.scrollWidth > th.clientWidth + 1).map((th) => th.textContent));
    expect(overlaps).toEqual([]);
    await screenshots(page, 'transactions-all');
    // transaction type's options come from the rows loaded; picking one keeps it in the address
    await page.getByRole('button', { name: 'Transaction Type: All' }).click();
    await page.getByRole('option', { name: 'Top up' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('transactionType')).toBe('topup');
    await expect.poll(async () => [...new Set(await typeCells())]).toEqual(['Top up']);
    await page.setViewportSize({ width: 375, height: 740 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.screenshot({ path: 'e2e/screenshots/transactions-all-top-mobile.png' });
    // the phone's menu shows the same icons
    await page.getByRole('button', { name: 'Open menu' }).click();
    await nav.getByRole('link', { name: 'Transactions' }).waitFor();
    expect(await nav.locator('a svg[aria-hidden="true"]').count()).toBe(await links.count());
    await page.screenshot({ path: 'e2e/screenshots/menu-icons-mobile.png' });
    await page.close();
  }, 120_000);

  it('says where an id is when the tab shown has none, and opens that tab with the same search', async () => {
    const page = await transactionsPage(env, 'treasury@acme.test');
    await page.goto(`${env.server.url}/transactions?tab=2`);
    await expect.poll(async () => (await rowIds(page)).length).toBe(10);
    const [collectionId] = await rowIds(page);
    await page.goto(`${env.server.url}/transactions?tab=1&id=${collectionId!.slice(0, 8)}`);
    const empty = page.getByTestId('empty-noDataForId');
    await expect.poll(() => empty.textContent()).toContain('Found in Collections');
    await screenshots(page, 'transactions-found-elsewhere');
    await empty.getByRole('link', { name: 'Open in Collections' }).click();
    await expect.poll(() => rowIds(page)).toContain(collectionId);
    expect(new URL(page.url()).searchParams.get('tab')).toBe('2');
    expect(await page.getByRole('tab', { name: 'Collections' }).getAttribute('aria-selected')).toBe('true');
    // an id in no table keeps "No transaction with this ID"
    await page.goto(`${env.server.url}/transactions?tab=1&id=ffffffffffff`);
    await expect.poll(() => empty.textContent()).toContain('No transaction with this ID');
    await page.close();
  }, 120_000);
});
