import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailText, smtpSink } from '../apps/server/test/smtp-sink.ts';
import { webhookReceiver, type Receiver } from '../apps/server/test/webhook-receiver.ts';
import { browserMissing } from './support/browser.ts';
import { signInAs } from './support/portal.ts';
import { serverAndBrowser } from './support/server.ts';

const SHOTS = path.resolve(import.meta.dirname, 'screenshots');

/** Desktop (1440 px) and phone (375 px) screenshots of the page as it is now. */
async function shots(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: path.join(SHOTS, `webhooks-${name}-desktop.png`), fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: path.join(SHOTS, `webhooks-${name}-mobile.png`), fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });
}

describe.skipIf(browserMissing)('webhooks in Chromium', () => {
  // the server mails the one-time codes to an SMTP server this test reads; retries are seconds apart
  const env: Record<string, string> = { WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s' };
  let smtp: Awaited<ReturnType<typeof smtpSink>>;
  let rx: Receiver;
  beforeAll(async () => {
    smtp = await smtpSink();
    rx = await webhookReceiver();
    env.SMTP_URL = smtp.url;
  });
  const ctx = serverAndBrowser(env);
  afterAll(async () => {
    await rx?.close();
    await smtp?.close();
  });

  /** The code of the newest mail to the admin. */
  async function mailedCode(after: number) {
    // other mail (the admins' notices of a change) may arrive meanwhile: take the code's
    const codeOf = () =>
      smtp.received
        .slice(after)
        .map((m) => /verification code is (\d{6})/.exec(mailText(m.raw))?.[1])
        .findLast((c) => c !== undefined);
    await expect.poll(codeOf, { timeout: 15_000 }).toBeDefined();
    return codeOf()!;
  }

  it('an admin adds an endpoint with the e-mailed code, copies its secret, and a local receiver gets a signed event it verifies; the delivery shows and is resent', async () => {
    const page = await ctx.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ctx.server.url });
    await signInAs(page, ctx.server.url, 'admin@acme.test');
    await page.goto(`${ctx.server.url}/webhooks`);
    await page.getByText('No webhook endpoints yet').waitFor();
    await shots(page, 'empty');

    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add webhook endpoint' });
    await dialog.getByLabel('Endpoint URL').fill(`${rx.url}/e2e`);
    await dialog.getByLabel('Description (optional)').fill('Settlement updates for the ledger');
    await dialog.getByLabel('All settlement events').check();
    await shots(page, 'add-form');
    const before = smtp.received.length;
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialog.getByLabel('Verification code').waitFor();
    const code = await mailedCode(before);
    await shots(page, 'add-code');
    await dialog.getByLabel('Verification code').fill(code);
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();

    const secret = (await page.getByTestId('webhook-secret').textContent())!;
    expect(secret).toMatch(/^whsec_/);
    await shots(page, 'secret');
    await page.getByRole('button', { name: 'Copy signing secret' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByTestId('webhook-row').waitFor();
    // the secret is not shown again anywhere
    expect(await page.content()).not.toContain(secret);

    await page.getByRole('button', { name: `Send test event to ${rx.url}/e2e` }).click();
    await expect.poll(() => rx.received.length, { timeout: 15_000 }).toBe(1);
    const first = rx.received[0]!;
    const event = rx.verify(secret, first);
    expect(event).toMatchObject({ id: first.id, type: 'WEBHOOK.TEST', data: { sentBy: 'admin@acme.test' } });

    const row = page.getByTestId('delivery-row').first();
    await row.getByText('Succeeded').waitFor({ timeout: 15_000 });
    await row.getByRole('button').first().click();
    await expect.poll(() => page.getByTestId('delivery-event-id').textContent()).toBe(first.id);
    await page.getByTestId('attempt-row').first().getByText('200').waitFor();
    await shots(page, 'delivery');

    await row.getByRole('button', { name: 'Resend' }).click();
    await expect.poll(() => rx.received.length, { timeout: 15_000 }).toBe(2);
    const again = rx.received[1]!;
    expect(again.id).toBe(first.id);
    expect(rx.verify(secret, again).type).toBe('WEBHOOK.TEST');
    await expect.poll(() => page.getByTestId('attempt-row').count(), { timeout: 15_000 }).toBe(2);
    await page.getByTestId('attempt-row').nth(1).getByText('Manual').waitFor();

    // roll the secret with a day's overlap: the next delivery verifies with the old secret and with the new one
    await page.getByRole('button', { name: `Roll secret of ${rx.url}/e2e` }).click();
    const roll = page.getByRole('dialog', { name: 'Roll signing secret' });
    await roll.getByLabel('In 24 hours').check();
    await shots(page, 'roll-choose');
    const beforeRoll = smtp.received.length;
    await roll.getByRole('button', { name: 'Continue' }).click();
    await roll.getByLabel('Verification code').fill(await mailedCode(beforeRoll));
    await shots(page, 'roll-code');
    await roll.getByRole('button', { name: 'Roll secret' }).click();
    const saved = page.getByRole('dialog', { name: 'Save the new signing secret' });
    const newSecret = (await saved.getByTestId('webhook-secret').textContent())!;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(secret);
    await saved.getByText(/The old secret keeps signing until .* UTC\./).waitFor();
    await shots(page, 'roll-secret');
    await saved.getByRole('button', { name: 'Copy signing secret' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(newSecret);
    await saved.getByRole('button', { name: 'Done' }).click();
    await page
      .getByTestId('webhook-row')
      .getByText(/Previous secret valid until .* UTC/)
      .waitFor();
    expect(await page.content()).not.toContain(newSecret);
    await shots(page, 'rolled');
    await page.getByRole('button', { name: `Send test event to ${rx.url}/e2e` }).click();
    await expect.poll(() => rx.received.length, { timeout: 15_000 }).toBe(3);
    const overlapping = rx.received[2]!;
    expect(overlapping.signature.split(' ')).toHaveLength(2);
    expect(rx.verify(secret, overlapping).type).toBe('WEBHOOK.TEST');
    expect(rx.verify(newSecret, overlapping).type).toBe('WEBHOOK.TEST');

    // edit and delete dialogs, for the screenshots; delete goes through with the code
    await page.getByRole('button', { name: `Edit ${rx.url}/e2e` }).click();
    await page.getByRole('dialog', { name: 'Edit webhook endpoint' }).waitFor();
    await shots(page, 'edit');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: `Delete ${rx.url}/e2e` }).click();
    const del = page.getByRole('dialog', { name: 'Delete webhook endpoint' });
    await shots(page, 'delete');
    const beforeDelete = smtp.received.length;
    await del.getByRole('button', { name: 'Continue' }).click();
    await del.getByLabel('Verification code').fill(await mailedCode(beforeDelete));
    await del.getByRole('button', { name: 'Delete endpoint' }).click();
    await page.getByText('No webhook endpoints yet').waitFor();
    await page.close();
  });

  it('is read-only for a viewer', async () => {
    const page = await ctx.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await signInAs(page, ctx.server.url, 'viewer@acme.test');
    await page.goto(`${ctx.server.url}/webhooks`);
    await page.getByText('You do not have edit access because you are not an admin').waitFor();
    expect(await page.getByRole('button', { name: 'Add endpoint' }).count()).toBe(0);
    await shots(page, 'viewer');
    await page.close();
  });
});
