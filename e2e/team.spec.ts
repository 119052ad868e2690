import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailText, smtpSink } from '../apps/server/test/smtp-sink.ts';
import { browserMissing } from './support/browser.ts';
import { DEMO_PASSWORD, screenshots, signInAs, submitLogin, totp } from './support/portal.ts';
import { serverAndBrowser } from './support/server.ts';
import { sessionEndMessage } from '../packages/contract/src/live.ts';

const NEW_PASSWORD = 'Kilimanjaro-Sunrise-42';

/**
 * The team, end to end: mail goes over SMTP to a server this test runs (the portal server's SMTP_URL points at it),
 * and the test reads the invitation and the reset code from what it received.
 */
describe.skipIf(browserMissing)('the team in Chromium', () => {
  let smtp: Awaited<ReturnType<typeof smtpSink>>;
  const env: Record<string, string> = { LOGIN_RATE_LIMIT: '1000' };
  beforeAll(async () => {
    smtp = await smtpSink();
    env.SMTP_URL = smtp.url; // read by the server's start below (same object)
  });
  afterAll(async () => smtp?.close());
  const ctx = serverAndBrowser(env);

  /** The text of the n-th mail (1-based) to an address, once it has arrived. */
  async function mail(to: string, n: number): Promise<string> {
    await expect.poll(() => smtp.received.filter((m) => m.to.includes(to)).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(n);
    return mailText(smtp.received.filter((m) => m.to.includes(to))[n - 1]!.raw);
  }
  const member = (page: Page, email: string) => page.getByTestId('team-member').filter({ hasText: email });

  // one signed-in admin for the whole file: an authenticator code is accepted once, so a second sign-in of the same
  // user within 30 seconds would have to wait for the next code
  let adminPage: Page | undefined;
  async function admin(): Promise<Page> {
    if (!adminPage) {
      adminPage = await ctx.browser.newPage({ viewport: { width: 1440, height: 900 } });
      await signInAs(adminPage, ctx.server.url, 'admin@acme.test');
    }
    return adminPage;
  }

  async function adminOnTeam(shoot = false) {
    const page = await admin();
    await openTeam(page, shoot);
    return page;
  }

  async function openTeam(page: Page, shoot = false) {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL('**/settings');
    await page.getByRole('link', { name: /Team/ }).waitFor();
    if (shoot) await screenshots(page, 'settings-team-link');
    await page.getByRole('link', { name: /Team/ }).click();
    await page.waitForURL('**/settings/team');
    await page.getByRole('list', { name: 'Team members' }).waitFor();
  }

  it('admin invites a user, who opens the one-time link, chooses a password and sets up an authenticator', async () => {
    const admin = await adminOnTeam(true);
    await member(admin, 'invited@acme.test').getByText('Invited', { exact: true }).waitFor();
    await screenshots(admin, 'team');

    await admin.getByRole('button', { name: 'Invite member' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Invite a team member' });
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await dialog.getByText('Enter a name').waitFor();
    await dialog.getByLabel('Full name').fill('Naledi Dlamini');
    await dialog.getByLabel('E-mail').fill('naledi@acme.test');
    await dialog.getByText('Treasury', { exact: true }).click();
    await screenshots(admin, 'team-invite-dialog');
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await admin.getByText('Invitation sent to naledi@acme.test').waitFor();
    await member(admin, 'naledi@acme.test').getByText('Invited', { exact: true }).waitFor();

    const invitation = await mail('naledi@acme.test', 1);
    expect(invitation).toContain('You have been invited by admin@acme.test to the Partner Dashboard of Acme Remit as Treasury.');
    const token = /\/accept-invitation#token=([\w.-]+)/.exec(invitation)![1]!;
    await member(admin, 'naledi@acme.test')
      .getByText(/^Expires /)
      .waitFor();

    // a browser of its own: the invitee is nobody the admin's browser knows
    const invitee = await ctx.browser.newPage();
    await invitee.goto(`${ctx.server.url}/accept-invitation#token=${token}`);
    await invitee.getByRole('heading', { name: 'Join Acme Remit' }).waitFor();
    await invitee.getByText('You are invited to the Acme Remit Partner Dashboard as Treasury.', { exact: false }).waitFor();
    await invitee.getByText('Step 1 of 3').waitFor();
    await screenshots(invitee, 'team-accept-invitation');
    await invitee.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await invitee.getByLabel('Confirm new password').fill(NEW_PASSWORD);
    await invitee.getByRole('button', { name: 'Set password' }).click();
    await invitee.waitForURL('**/two-factor-authentication');
    await invitee.getByRole('heading', { name: 'Set up your authenticator app' }).waitFor();
    const secret = (await invitee.getByTestId('mfa-secret').textContent())!.replace(/\s/g, '');
    await invitee.getByLabel('Authentication code').fill(totp(secret));
    await invitee.getByRole('button', { name: 'Verify and continue' }).click();
    await invitee.getByRole('heading', { name: 'Save your recovery codes' }).waitFor();
    await invitee.getByLabel('I have saved these codes somewhere safe.').check();
    await invitee.getByRole('button', { name: 'Continue to the dashboard' }).click();
    await invitee.waitForURL('**/transactions');
    await invitee.close();

    // the link was for one use: opened again, it says so and asks nothing
    const again = await ctx.browser.newPage();
    await again.goto(`${ctx.server.url}/accept-invitation#token=${token}`);
    await again.getByRole('heading', { name: 'This invitation cannot be used' }).waitFor();
    await again.getByText('This invitation link has expired or was already used.', { exact: false }).waitFor();
    expect(await again.getByLabel('New password', { exact: true }).count()).toBe(0);
    await screenshots(again, 'team-invitation-used');
    await again.close();

    // the admin's list shows the new member active, with a last sign-in
    await admin.reload();
    await member(admin, 'naledi@acme.test').getByText('Active', { exact: true }).waitFor();
    expect(await member(admin, 'naledi@acme.test').getByText('Never', { exact: true }).count()).toBe(0);
  });

  it('admin resets a member’s password: the member’s open session ends and its next sign-in asks for the e-mailed code', async () => {
    const viewer = await ctx.browser.newPage();
    await signInAs(viewer, ctx.server.url, 'viewer@acme.test');
    await viewer.waitForURL('**/transactions');

    const admin = await adminOnTeam();
    await member(admin, 'viewer@acme.test').getByRole('button', { name: 'Actions for viewer@acme.test' }).click();
    await admin.getByRole('menuitem', { name: 'Reset password' }).waitFor();
    await screenshots(admin, 'team-actions-menu');
    await admin.getByRole('menuitem', { name: 'Reset password' }).click();
    const confirm = admin.getByRole('dialog', { name: 'Reset the password of Femi Adeyemi?' });
    await confirm.waitFor();
    await screenshots(admin, 'team-reset-dialog');
    await confirm.getByRole('button', { name: 'Reset password' }).click();
    await admin.getByText('viewer@acme.test is signed out and must choose a new password').waitFor();
    await member(admin, 'viewer@acme.test').getByText('Password reset', { exact: true }).waitFor();

    // the member's open session has ended: the open screen is signed out at once, and says why
    await viewer.waitForURL('**/login', { timeout: 2000 });
    expect(await viewer.getByTestId('sign-in-flash').textContent()).toBe(sessionEndMessage('password-reset'));

    await submitLogin(viewer, ctx.server.url, 'viewer@acme.test', DEMO_PASSWORD);
    await viewer.waitForURL((url) => url.pathname === '/requested-password-reset' && url.searchParams.get('reason') === 'admin');
    await viewer.getByText('Your administrator reset your password.', { exact: false }).waitFor();
    await screenshots(viewer, 'team-reset-code');
    const code = /new password is (\d{6})/.exec(await mail('viewer@acme.test', 1))![1]!;
    await viewer.getByLabel('Six-digit code').fill(code);
    await viewer.getByLabel('New password').fill(NEW_PASSWORD);
    await viewer.getByRole('button', { name: 'Change password' }).click();
    await viewer.waitForURL('**/password-changed');
    await viewer.close();
  });

  it('admin changes a role and removes a member; a treasury user sees the team read-only', async () => {
    const admin = await adminOnTeam();
    await member(admin, 'naledi@acme.test').getByRole('button', { name: 'Actions for naledi@acme.test' }).click();
    await admin.getByRole('menuitem', { name: 'Change role' }).click();
    const roleDialog = admin.getByRole('dialog', { name: 'Change the role of Naledi Dlamini' });
    await roleDialog.getByText('View only', { exact: true }).click();
    await screenshots(admin, 'team-role-dialog');
    await roleDialog.getByRole('button', { name: 'Save role' }).click();
    await admin.getByText('naledi@acme.test is now View only').waitFor();

    await member(admin, 'naledi@acme.test').getByRole('button', { name: 'Actions for naledi@acme.test' }).click();
    await admin.getByRole('menuitem', { name: 'Remove from team' }).click();
    const removeDialog = admin.getByRole('dialog', { name: 'Remove Naledi Dlamini?' });
    await screenshots(admin, 'team-remove-dialog');
    await removeDialog.getByRole('button', { name: 'Remove' }).click();
    await admin.getByText('naledi@acme.test was removed from the team').waitFor();
    await expect.poll(() => member(admin, 'naledi@acme.test').count()).toBe(0);

    const treasury = await ctx.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await signInAs(treasury, ctx.server.url, 'treasury@acme.test');
    await openTeam(treasury);
    await treasury.getByText('Only an admin can invite members or change them.', { exact: false }).waitFor();
    expect(await treasury.getByRole('button', { name: 'Invite member' }).count()).toBe(0);
    expect(await treasury.getByRole('button', { name: /^Actions for/ }).count()).toBe(0);
    await screenshots(treasury, 'team-read-only');
    await treasury.close();
  });
});
