import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { browserMissing } from './support/browser.ts';
import { screenshots, signInAs } from './support/portal.ts';
import { serverAndBrowser } from './support/server.ts';

describe.skipIf(browserMissing)('one time zone, and the switch to the browser’s', () => {
  const env = serverAndBrowser({ LOGIN_RATE_LIMIT: '1000' });

  it('in a browser in Nairobi: UTC until switched, then the table, the date filter and the export follow, in Settings too', async () => {
    const page = await env.browser.newPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true, timezoneId: 'Africa/Nairobi' });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await signInAs(page, env.server.url, 'admin@acme.test');
    await page.waitForURL('**/transactions');
    const line = page.getByTestId('time-zone-line');
    await expect.poll(async () => line.textContent()).toBe('Times in UTC·Use Africa/Nairobi');
    await expect.poll(async () => page.locator('tbody tr').count()).toBeGreaterThan(0);
    const firstDate = () => page.locator('tbody tr').first().locator('td').nth(1).textContent();
    // the rows are drawn before the data arrives (placeholders without text): wait for the first date
    await expect.poll(firstDate).toMatch(/UTC$/);
    await page.getByLabel('From (UTC)').waitFor();
    await screenshots(page, 'time-zone-table-utc');

    await line.getByRole('button', { name: 'Use Africa/Nairobi' }).click();
    await expect.poll(async () => page.getByTestId('time-zone-line').textContent()).toBe('Times in Africa/Nairobi·Use UTC');
    await expect.poll(firstDate).toMatch(/GMT\+3$/);
    await page.getByLabel('From (Africa/Nairobi)').fill('2020-01-01');
    await page.getByLabel('To (Africa/Nairobi)').fill('2030-12-31');
    await expect.poll(async () => page.locator('[aria-busy="true"]').count()).toBe(0);
    await screenshots(page, 'time-zone-table-nairobi');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const header = fs
      .readFileSync(await download.path(), 'utf8')
      .replace(/^\uFEFF/, '')
      .split('\r\n')[0]!;
    expect(header).toContain('Created (Africa/Nairobi)');

    // Settings says the same, and switches back; the choice is the user's, kept on the server
    await page.goto(`${env.server.url}/settings`);
    const inForce = page.getByTestId('time-zone-in-force');
    await expect.poll(async () => inForce.textContent()).toBe('Times are shown in Africa/Nairobi (your browser’s time zone).');
    await screenshots(page, 'time-zone-settings');
    await page.getByRole('button', { name: 'Use UTC' }).click();
    await expect.poll(async () => inForce.textContent()).toBe('Times are shown in UTC.');
    await page.goto(`${env.server.url}/transactions`);
    await expect.poll(async () => page.getByTestId('time-zone-line').textContent()).toBe('Times in UTC·Use Africa/Nairobi');
    expect(errors).toEqual([]);
    await page.close();
  });
});
