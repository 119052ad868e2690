import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mailText, smtpSink } from '../apps/server/test/smtp-sink.ts';
import { axe } from './support/axe.ts';
import { browserMissing } from './support/browser.ts';
import { apiSignIn, screenshots, signedInPage } from './support/portal.ts';
import { serverAndBrowser } from './support/server.ts';

// the server's mail goes to an SMTP server run here, read as a person reads their inbox
const smtp = await smtpSink();
afterAll(() => smtp.close());

describe.skipIf(browserMissing)('notifications in Chromium', () => {
  const env = serverAndBrowser({ SMTP_URL: smtp.url, LOGIN_RATE_LIMIT: '1000' });

  it("another admin's new API key rings the bell at once, by e-mail too; opening it goes to the screen; Settings turns the e-mail off", async () => {
    const page = await signedInPage(env, 'admin@acme.test', { viewport: { width: 1440, height: 900 } });
    await page.goto(`${env.server.url}/balance`);
    const bell = page.getByTestId('notification-bell');
    await bell.waitFor();
    const before = Number((/(\d+) unread/.exec((await bell.getAttribute('aria-label')) ?? '') ?? [0, 0])[1]);

    // another admin creates a key in their own session: the open page hears it through the live stream
    const kwame = await apiSignIn(env.server.url, 'admin2@acme.test');
    const created = await kwame.post('/api/v1/partner/apikey', { name: 'Reconciliation job', permissions: ['api_read'] });
    expect(created.status).toBe(201);
    await page.getByRole('button', { name: `Notifications, ${before + 1} unread` }).waitFor({ timeout: 15_000 });

    // the mail says who did what, when (UTC), and links to the screen
    await expect
      .poll(() => smtp.received.find((m) => m.to.includes('admin@acme.test') && mailText(m.raw).includes('Reconciliation job')), { timeout: 15_000 })
      .toBeDefined();
    const mail = mailText(smtp.received.find((m) => m.to.includes('admin@acme.test') && mailText(m.raw).includes('Reconciliation job'))!.raw);
    expect(mail).toContain('Subject: A new API key was created');
    expect(mail).toContain('Kwame Boateng (admin2@acme.test) created the API key "Reconciliation job"');
    expect(mail).toMatch(/When: [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{2}:\d{2} UTC/);
    expect(mail).toContain('/api-keys');

    await page.getByRole('button', { name: `Notifications, ${before + 1} unread` }).click();
    const item = page.getByTestId('notification-item').filter({ hasText: 'A new API key was created' }).first();
    await item.waitFor();
    expect(await item.textContent()).toContain('Kwame Boateng (admin2@acme.test) created the API key "Reconciliation job"');
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: path.resolve(import.meta.dirname, 'screenshots', 'notifications-open-desktop.png') });
    await item.click();
    await page.waitForURL('**/api-keys');
    await page.getByRole('button', { name: before > 0 ? `Notifications, ${before} unread` : 'Notifications' }).waitFor();

    // Settings: the admin's topics, each with its e-mail switch; turning one off is saved for this user
    await page.goto(`${env.server.url}/settings#notifications`);
    const developers = page.getByRole('switch', { name: 'API keys, allowed IPs and webhooks: e-mail' });
    await developers.waitFor();
    expect(await developers.getAttribute('aria-checked')).toBe('true');
    await developers.click();
    await page.getByText('E-mails about api keys, allowed ips and webhooks are off').waitFor();
    await page.reload();
    await page.getByRole('switch', { name: 'API keys, allowed IPs and webhooks: e-mail' }).waitFor();
    expect(await page.getByRole('switch', { name: 'API keys, allowed IPs and webhooks: e-mail' }).getAttribute('aria-checked')).toBe('false');
    await screenshots(page, 'settings-notifications');

    // the next key: the bell rings, but no mail goes to this admin
    const mailsBefore = smtp.received.length;
    expect((await kwame.post('/api/v1/partner/apikey', { name: 'Second job', permissions: ['api_read'] })).status).toBe(201);
    await page.getByRole('button', { name: /Notifications, \d+ unread/ }).waitFor({ timeout: 15_000 });
    await expect.poll(() => smtp.received.slice(mailsBefore).filter((m) => mailText(m.raw).includes('Second job')).length, { timeout: 10_000 }).toBe(1);
    expect(
      smtp.received
        .slice(mailsBefore)
        .filter((m) => mailText(m.raw).includes('Second job'))
        .map((m) => m.to[0]),
    ).toEqual(['admin2@acme.test']);

    await page.setViewportSize({ width: 375, height: 740 });
    await page.getByTestId('notification-bell').click();
    await page.getByTestId('notification-list').waitFor();
    await page.screenshot({ path: path.resolve(import.meta.dirname, 'screenshots', 'notifications-open-mobile.png') });
    await page.close();
  });

  it('a view-only user has a bell and one switch in Settings: their account (a change of their role)', async () => {
    const page = await signedInPage(env, 'viewer@acme.test', { viewport: { width: 1440, height: 900 } });
    await page.goto(`${env.server.url}/settings`);
    await page.getByRole('switch', { name: 'Your account: e-mail' }).waitFor();
    expect(await page.getByTestId('notification-preferences').getByRole('switch').count()).toBe(1);
    expect(await page.getByTestId('notification-bell').count()).toBe(1);
    await page.close();
  });
});
