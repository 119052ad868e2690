import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText } from '../apps/server/test/pdf-text.ts';
import { browserMissing, launch } from './support/browser.ts';
import { screenshots, signInAs } from './support/portal.ts';
import { startServer, type RunningServer } from './support/server.ts';

describe.skipIf(browserMissing)('the Balance screen in Chromium', () => {
  let server: RunningServer;
  let browser: Awaited<ReturnType<typeof launch>>;
  beforeAll(async () => {
    // one withdrawal may take at most USD 10,000.00 here: less than the demo's Acme holds (USD 25,000.00)
    [server, browser] = await Promise.all([startServer({ LOGIN_RATE_LIMIT: '1000', WITHDRAWAL_MAX_USD: '10000.00' }), launch()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    expect(browser?.cspViolations ?? [], 'Content-Security-Policy violations').toEqual([]);
  });

  it('shows available and pending with their currency and the recent movements; the withdraw dialog says "at most" and gives treasury a link to the wallets page', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await signInAs(page, server.url, 'treasury@acme.test');
    await page.goto(`${server.url}/balance`);
    await page
      .getByTestId('usd-available')
      .getByText(/^USD [\d,]+\.\d{2}$/)
      .waitFor();
    await page.getByTestId('pending-withdrawals').waitFor();
    expect(await page.getByTestId('usd-pending').textContent()).toMatch(/^USD [\d,]+\.\d{2}$/);
    expect(await page.getByTestId('pending-disbursements').textContent()).toMatch(/^USD [\d,]+\.\d{2}$/);
    await page.getByTestId('recent-movements').waitFor();
    expect(
      await page
        .getByTestId('recent-movements')
        .getByText(/^[+−]USD [\d,]+\.\d{2}$/)
        .count(),
    ).toBeGreaterThan(0);
    await screenshots(page, 'balance');

    // the statement: downloaded and read back; opening + entries = closing, to the cent
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^statement-USD-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
    const rows = fs
      .readFileSync(await download.path(), 'utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
      .map((l) => l.split(','));
    expect(rows[0]).toEqual(['Date (UTC)', 'Description', 'Reference', 'Debit', 'Credit', 'Balance', 'Currency']);
    const cents = (v: string | undefined) => (v ? Math.round(Number(v) * 100) : 0);
    const sum = rows.slice(2, -1).reduce((acc, r) => acc + cents(r[4]) - cents(r[3]), 0);
    expect(rows.at(-1)![1]).toBe('Closing balance');
    expect(cents(rows[1]![5]) + sum).toBe(cents(rows.at(-1)![5]));

    // the same statement as a PDF: a real PDF, with the partner, the period and the same closing balance
    const [pdfDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download PDF' }).click()]);
    expect(pdfDownload.suggestedFilename()).toMatch(/^statement-USD-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.pdf$/);
    const pdf = fs.readFileSync(await pdfDownload.path());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const { pages, text } = pdfText(pdf);
    expect(pages).toBeGreaterThanOrEqual(1);
    expect(text).toContain('Acme Remit');
    expect(text).toContain(rows.at(-1)![5]!.replace(/\B(?=(\d{3})+(?!\d))/g, ','));

    // the most one withdrawal may take is below what is available: the dialog says it, and refuses more as it is typed
    expect(await page.getByTestId('usd-available').textContent()).toBe('USD 25,000.00');
    await page.getByRole('button', { name: 'Withdraw' }).click();
    expect(await page.getByTestId('max-settlement').textContent()).toBe('You can withdraw at most USD 10,000.00');
    const amount = page.getByLabel('Amount (USD)');
    await amount.fill('10000.01');
    await page.getByRole('dialog').getByText('You can withdraw at most USD 10,000.00', { exact: true }).first().waitFor();
    expect(await amount.getAttribute('aria-invalid')).toBe('true');
    // Max puts the most in, and the problem said of 10000.01 goes
    await page.getByRole('button', { name: 'Max' }).click();
    expect(await amount.inputValue()).toBe('10000.00');
    expect(await amount.getAttribute('aria-invalid')).toBeNull();
    await page.getByTestId('no-wallet').waitFor();
    // treasury may open /wallets (the guard lets it in) but has no "Wallet Management" menu item: the dialog links the page
    expect(await page.getByRole('dialog').getByText('Wallet Management').count()).toBe(0);
    await screenshots(page, 'balance-withdraw');
    await page.getByRole('dialog').getByRole('link', { name: 'Add a wallet address' }).click();
    await page.waitForURL(`${server.url}/wallets`);
    await page.getByRole('heading', { name: 'Wallet Management' }).waitFor();
    await page.close();
  });
});
