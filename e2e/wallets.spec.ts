import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareDecimal, groupThousands, normalise, subtractDecimal } from '@portal/contract/decimal';
import { generateDemoAddress } from '../apps/server/src/lib/deposit-addresses.ts';
import { browserMissing, launch } from './support/browser.ts';
import { signInAs } from './support/portal.ts';
import { startServer, type RunningServer } from './support/server.ts';
import { mailText, smtpSink } from '../apps/server/test/smtp-sink.ts';

const SHOTS = path.resolve(import.meta.dirname, 'screenshots');

/** The newest six-digit code mailed to `email` after the first `since` mails the sink received. */
async function codeFor(smtp: Awaited<ReturnType<typeof smtpSink>>, email: string, since: number): Promise<string> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const mail = smtp.received.slice(since).findLast((m) => m.to.includes(email) && /verification code is \d{6}/.test(mailText(m.raw)));
    if (mail) return /verification code is (\d{6})/.exec(mailText(mail.raw))![1]!;
    if (Date.now() > deadline) throw new Error(`no code mailed to ${email}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Desktop (1440 px) and phone (375 px) screenshots of what the page shows now. */
async function shoot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  const size = page.viewportSize() ?? { width: 1440, height: 900 };
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.waitForTimeout(150);
  await page.screenshot({ path: path.join(SHOTS, `${name}-desktop.png`), fullPage: true });
  await page.setViewportSize({ width: 375, height: 780 });
  await page.waitForTimeout(150);
  await page.screenshot({ path: path.join(SHOTS, `${name}-mobile.png`), fullPage: true });
  await page.setViewportSize(size);
}

describe.skipIf(browserMissing)('money movement in Chromium', () => {
  let server: RunningServer;
  let smtp: Awaited<ReturnType<typeof smtpSink>>;
  let browser: Awaited<ReturnType<typeof launch>>;
  beforeAll(async () => {
    smtp = await smtpSink();
    [server, browser] = await Promise.all([
      startServer({
        SMTP_URL: smtp.url,
        LOGIN_RATE_LIMIT: '1000',
        WALLET_SCREENING_SECONDS: '1',
        SETTLEMENT_PROCESSING_SECONDS: '1',
        SETTLEMENT_COMPLETION_SECONDS: '2',
      }),
      launch(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.close();
    expect(browser?.cspViolations ?? [], 'Content-Security-Policy violations').toEqual([]);
  });

  it('admin adds a wallet with the e-mailed code, treasury approves it from the banner, screening enables it, admin withdraws to it and it completes', async () => {
    const { address } = generateDemoAddress('TRC20');
    const admin = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await signInAs(admin, server.url, 'admin@acme.test');

    // with no wallet, the withdrawal says so
    await admin.goto(`${server.url}/balance`);
    await admin.getByRole('button', { name: 'Withdraw' }).click();
    await admin.getByTestId('no-wallet').waitFor();
    expect(await admin.getByTestId('no-wallet').textContent()).toBe('Cannot withdraw funds without setting a wallet address');
    await shoot(admin, 'withdraw-no-wallet');
    await admin.keyboard.press('Escape');

    // add the wallet: details, then the code read from the mail the server sent over SMTP
    await admin.goto(`${server.url}/wallets`);
    await admin.getByRole('heading', { name: 'Wallet Management' }).waitFor();
    await admin.getByText('No wallet addresses yet').waitFor();
    await shoot(admin, 'wallets-empty');
    await admin.getByRole('button', { name: 'Add wallet address' }).first().click();
    await admin.getByRole('textbox', { name: 'Wallet address' }).fill(address);
    await admin.getByLabel('Full name of entity or beneficiary').fill('Acme Remit Ltd');
    await admin.getByLabel('Business registration number').fill('RC-2019-004512');
    await shoot(admin, 'wallet-add-details');
    const mailsBefore = smtp.received.length;
    await admin.getByRole('button', { name: 'Continue' }).click();
    await admin.getByTestId('code-sent-to').getByText('admin@acme.test').waitFor();
    const code = await codeFor(smtp, 'admin@acme.test', mailsBefore);
    await admin.getByLabel('Verification code').fill(code);
    await shoot(admin, 'wallet-add-code');
    await admin.getByRole('button', { name: 'Add wallet address' }).click();
    await admin.getByText(/must now approve it/).waitFor();
    await admin.getByRole('table').getByText('Pending approval').waitFor();
    // the creator gets no review banner for their own wallet
    expect(await admin.getByTestId('wallet-review-banner').count()).toBe(0);
    await shoot(admin, 'wallets-pending');

    // treasury sees the banner and approves in the review modal
    const treasury = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await signInAs(treasury, server.url, 'treasury@acme.test');
    const banner = treasury.getByTestId('wallet-review-banner');
    await banner.waitFor();
    expect(await banner.textContent()).toContain('Ada Mensah added a USDT (TRC20) address');
    await shoot(treasury, 'wallet-review-banner');
    await banner.getByRole('button', { name: 'Review', exact: true }).click();
    expect(await treasury.getByTestId('review-address').textContent()).toBe(address);
    await shoot(treasury, 'wallet-review-details');
    await treasury.getByRole('button', { name: 'Deny' }).click();
    await treasury.getByRole('radio', { name: 'There is a mistake in this wallet address' }).waitFor();
    await shoot(treasury, 'wallet-review-deny');
    await treasury.getByRole('button', { name: 'Back' }).click();
    await treasury.getByRole('button', { name: 'Approve' }).click();
    await treasury.getByText("New wallet address approved and is pending screening. You'll be notified once approved.").waitFor();
    await treasury.close();

    // the screening job enables it and e-mails the creator
    await expect
      .poll(
        async () => {
          await admin.reload();
          await admin.getByRole('heading', { name: 'Settlement wallets' }).waitFor();
          return admin.locator('table [data-testid="wallet-row"]').first().textContent();
        },
        { timeout: 30_000, interval: 1000 },
      )
      .toContain('Enabled');
    // the e-mail leaves through the outbox after the change commits, so it may land a moment later
    await expect
      .poll(() => smtp.received.some((m) => m.to.includes('admin@acme.test') && mailText(m.raw).includes('is enabled')), {
        timeout: 15_000,
      })
      .toBe(true);
    await shoot(admin, 'wallets-enabled');
    await admin.getByRole('table').getByRole('button', { name: 'Disable' }).click();
    await admin.getByRole('dialog').waitFor();
    await shoot(admin, 'wallet-disable');
    await admin.keyboard.press('Escape');
    await admin.getByRole('table').getByRole('button', { name: 'Delete' }).click();
    await admin.getByRole('radio', { name: 'This wallet address is no longer used' }).waitFor();
    await shoot(admin, 'wallet-delete');
    await admin.keyboard.press('Escape');

    // withdraw to it: amount, confirmation, pending acknowledgement
    await admin.goto(`${server.url}/balance`);
    // the balance is the ledger's (the demo's opening and its rows' movements); one withdrawal is at most 250,000.00
    const available = admin.getByTestId('usd-available').getByText(/^USD [\d,]+\.\d{2}$/);
    await available.waitFor();
    // the figure shown, as a decimal string ("USD 56,540.62" is 56540.62)
    const amountOf = (text: string) => text.replace(/[^\d.]/g, '');
    const before = (await available.textContent())!;
    const most = compareDecimal(amountOf(before), '250000.00') < 0 ? before : 'USD 250,000.00';
    await admin.getByRole('button', { name: 'Withdraw' }).click();
    expect(await admin.getByTestId('max-settlement').textContent()).toBe(`You can withdraw at most ${most}`);
    await admin.getByLabel('Amount (USD)').fill('1250.50');
    await shoot(admin, 'withdraw-amount');
    await admin.getByRole('button', { name: 'Continue' }).click();
    await admin.getByTestId('confirm-receive').waitFor();
    expect(await admin.getByTestId('confirm-receive').textContent()).toBe('USDT 1,249.50');
    expect(await admin.getByLabel('Business registration number').inputValue()).toBe('RC-2019-004512');
    await shoot(admin, 'withdraw-confirm');
    await admin.getByRole('button', { name: 'Confirm withdrawal' }).click();
    await admin.getByTestId('withdrawal-pending').waitFor();
    const reference = (await admin.locator('dt:text-is("Reference") + dd').textContent())!.trim();
    await shoot(admin, 'withdraw-pending');
    await admin.getByRole('link', { name: 'View settlements' }).click();

    // the Settlements tab shows it, and it reaches complete
    await admin.waitForURL('**/transactions?tab=3');
    const search = async () => {
      await admin.getByLabel('Search by ID').fill(reference);
      await admin.getByRole('button', { name: 'Search', exact: true }).click();
      await expect.poll(() => admin.getByTestId('page-summary').textContent()).toBe('1–1 of 1');
      return admin.locator('tbody tr').first().textContent();
    };
    expect(await search()).toMatch(/Pay out.*USDT 1,249\.50/);
    await expect
      .poll(
        async () => {
          await admin.reload();
          return search();
        },
        { timeout: 30_000, interval: 1000 },
      )
      .toContain('Complete');
    expect(await admin.getByTestId('page-summary').textContent()).toBe('1–1 of 1');
    await shoot(admin, 'settlements-complete');
    await admin.goto(`${server.url}/balance`);
    // the withdrawal's 1,250.50 left the balance it had
    const after = `USD ${groupThousands(normalise(subtractDecimal(amountOf(before), '1250.50'), 2))}`;
    await admin.getByTestId('usd-available').getByText(after).waitFor();

    // disable it, enable it again with a new code, then delete it with a reason: it stays listed as deleted
    await admin.goto(`${server.url}/wallets`);
    const table = admin.getByRole('table');
    await table.getByRole('button', { name: 'Disable' }).click();
    await admin.getByRole('dialog').getByRole('button', { name: 'Disable' }).click();
    await table.getByText('Disabled').waitFor();
    await table.getByRole('button', { name: 'Enable' }).click();
    const enableMails = smtp.received.length;
    await admin.getByRole('button', { name: 'Send code' }).click();
    await admin.getByLabel('Verification code').fill(await codeFor(smtp, 'admin@acme.test', enableMails));
    await shoot(admin, 'wallet-enable-code');
    await admin.getByRole('dialog').getByRole('button', { name: 'Enable' }).click();
    await table.getByText('Enabled').waitFor();
    await table.getByRole('button', { name: 'Delete' }).click();
    await admin.getByRole('radio', { name: 'We are using this asset on a different network' }).click();
    const deleteMails = smtp.received.length;
    await admin.getByRole('button', { name: 'Continue' }).click();
    await admin.getByLabel('Verification code').fill(await codeFor(smtp, 'admin@acme.test', deleteMails));
    await admin.getByRole('button', { name: 'Delete wallet address' }).click();
    await admin.getByText('No wallet addresses yet').waitFor();
    await admin.getByLabel('Show deleted').check();
    await table.getByText('We are using this asset on a different network').waitFor();
    await shoot(admin, 'wallets-deleted');
  }, 240_000);
});
