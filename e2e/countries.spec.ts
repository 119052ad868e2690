import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserMissing } from './support/browser.ts';
import { signedInPage } from './support/portal.ts';
import { serverAndBrowser } from './support/server.ts';

const SHOTS = path.resolve(import.meta.dirname, 'screenshots');

/** The page at 1440 px and at 375 px wide (full height, or the window for a dialog), into e2e/screenshots. */
async function shoot(page: Page, name: string, { fullPage = true } = {}) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: path.join(SHOTS, `${name}-1440.png`), fullPage });
  await page.setViewportSize({ width: 375, height: 740 });
  await page.screenshot({ path: path.join(SHOTS, `${name}-375.png`), fullPage });
  await page.setViewportSize({ width: 1440, height: 900 });
}

describe.skipIf(browserMissing)('enabled countries and coverage in Chromium', () => {
  const env = serverAndBrowser({ LOGIN_RATE_LIMIT: '1000' });

  it('admin2 asks to enable a country; admin@acme.test sees the banner and approves it', async () => {
    const asker = await signedInPage(env, 'admin2@acme.test', { viewport: { width: 1440, height: 900 } });
    await asker.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Enabled Countries' }).click();
    await asker.waitForURL('**/countries');
    const benin = asker.getByTestId('country-BJ');
    await benin.getByText('Disabled').waitFor();
    expect(await asker.getByTestId('country-KE').getByText('Enabled').count()).toBe(1);
    await shoot(asker, 'countries');

    await benin.getByRole('button', { name: 'Enable Benin' }).click();
    const confirm = asker.getByRole('dialog', { name: 'Enable Benin?' });
    await confirm.getByText(/Acme Remit starts serving Benin once another admin approves this request/).waitFor();
    await shoot(asker, 'countries-request-dialog', { fullPage: false });
    await confirm.getByRole('button', { name: 'Request to enable' }).click();
    await asker.getByText('Request sent. Another admin must approve it.').waitFor();
    await benin.getByText('Pending enable').waitFor();
    // the one who asked sees the request waiting, and cannot approve it
    const own = asker.getByTestId('pending-countries-banner');
    await own.getByText("Your request to enable Benin is waiting for another admin's approval.").waitFor();
    await shoot(asker, 'countries-pending');
    await own.getByRole('button', { name: 'Review request' }).click();
    expect(await asker.getByRole('dialog', { name: 'Review country changes' }).getByRole('button', { name: 'Approve' }).isDisabled()).toBe(true);
    await asker.keyboard.press('Escape');
    await asker.close();

    const reviewer = await signedInPage(env, 'admin@acme.test', { viewport: { width: 1440, height: 900 } });
    const banner = reviewer.getByTestId('pending-countries-banner');
    await banner.getByText('Kwame Boateng asked to enable Benin.', { exact: false }).waitFor();
    await shoot(reviewer, 'pending-country-banner');
    await banner.getByRole('button', { name: 'Review request' }).click();
    const review = reviewer.getByRole('dialog', { name: 'Review country changes' });
    const item = review.getByTestId('pending-change');
    await item.getByText('Benin').waitFor();
    expect(await item.getByText('Enable', { exact: true }).count()).toBe(1);
    expect(await item.getByText(/Requested by Kwame Boateng/).count()).toBe(1);
    await shoot(reviewer, 'country-review-dialog', { fullPage: false });
    await review.getByRole('button', { name: 'Approve' }).click();
    await reviewer.getByText('Request approved').waitFor();
    await banner.waitFor({ state: 'detached' });
    await reviewer.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Enabled Countries' }).click();
    await reviewer.getByTestId('country-BJ').getByText('Enabled').waitFor();
    await reviewer.close();
  });

  it("coverage shows Kenya's channels and networks", async () => {
    const page = await signedInPage(env, 'treasury@acme.test', { viewport: { width: 1440, height: 900 } });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Coverage' }).click();
    await page.waitForURL('**/coverage');
    const countries = page.getByRole('list', { name: 'Countries covered' });
    await countries.getByRole('button').first().waitFor();
    expect(await countries.getByRole('button').count()).toBeGreaterThanOrEqual(15);
    await shoot(page, 'coverage-overview');

    await page.getByRole('button', { name: 'Country: Choose a country' }).click();
    await page.keyboard.type('Ken');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Kenya' }).waitFor();
    expect(page.url()).toContain('country=KE');
    const channels = page.getByTestId('channel-row');
    await channels.first().waitFor();
    const texts = await channels.allTextContents();
    expect(texts).toHaveLength(4);
    expect(texts.filter((t) => t.includes('Mobile money'))).toHaveLength(2);
    expect(texts.some((t) => t.includes('Withdrawal') && t.includes('KES 30.00') && t.includes('≈ USD 0.23'))).toBe(true);
    const networks = await page.getByTestId('network-row').allTextContents();
    for (const name of ['M-Pesa', 'Airtel Money', 'Equity Bank', 'KCB Bank'])
      expect(
        networks.some((n) => n.startsWith(name)),
        name,
      ).toBe(true);
    expect(networks.find((n) => n.startsWith('M-Pesa'))).toContain('Phone number');
    await shoot(page, 'coverage-kenya');

    await page.getByRole('radio', { name: 'Withdrawal' }).click();
    await expect.poll(() => channels.count()).toBe(2);
    await page.getByRole('searchbox', { name: 'Search networks and channels' }).fill('m-pesa');
    await expect.poll(() => page.getByTestId('network-row').count()).toBe(1);
    expect(await channels.allTextContents()).toEqual([expect.stringContaining('Mobile money')]);
    await page.close();
  });
});
