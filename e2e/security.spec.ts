import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sessionEndMessage } from '@portal/contract/live';
import { browserMissing } from './support/browser.ts';
import { apiSignIn, screenshots, signInAs } from './support/portal.ts';
import { serverAndBrowser } from './support/server.ts';

/**
 * The security screen in a real browser: an admin sees where they are signed in and ends another session (that
 * session's next call is refused, saying why), reads the team's history with their own sign-in in it, and exports it.
 */
describe.skipIf(browserMissing)('the security screen', () => {
  const env = serverAndBrowser();

  it('lists my sessions, ends another one at once, and shows and exports the history', async () => {
    const context = await env.browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    await signInAs(page, env.server.url, 'admin@acme.test');
    // the same person signed in elsewhere (another program, another session)
    const elsewhere = await apiSignIn(env.server.url, 'admin@acme.test');

    await page.goto(`${env.server.url}/settings`);
    await page.getByRole('link', { name: /Security/ }).click();
    await page.waitForURL('**/settings/security');
    const sessions = page.getByRole('list', { name: 'Your sessions' });
    const rows = sessions.getByRole('listitem');
    // this browser, the demo's phone, and the session just opened elsewhere
    await expect.poll(() => rows.count()).toBe(3);
    const current = rows.filter({ hasText: 'This browser' });
    expect(await current.count()).toBe(1);
    expect(await current.textContent()).toMatch(/Chrome \d+ on Linux/);
    expect(await rows.filter({ hasText: 'Safari 18 on iOS' }).count()).toBe(1);

    // the history: the demo's days of activity, and this sign-in at the top with this browser
    const history = page.getByRole('table', { name: 'Security history' });
    await history.getByRole('row').nth(1).waitFor();
    const text = await history.textContent();
    expect(text).toContain('Signed in with the authenticator app');
    expect(text).toContain('Sign-in failed: wrong password');
    expect(text).toContain('Changed the role of viewer@acme.test from Treasury to View only');
    await screenshots(page, 'security');

    // end the session opened elsewhere: the one that is neither this browser nor the phone
    const other = rows.filter({ hasNotText: 'This browser' }).filter({ hasNotText: 'Safari 18 on iOS' });
    await other.getByRole('button', { name: /^End the session of/ }).click();
    await expect.poll(() => rows.count()).toBe(2);
    const refused = await elsewhere.get('/api/v1/me/sessions');
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ code: 'SessionEnded', message: sessionEndMessage('ended-remotely') });
    await expect.poll(async () => (await history.getByRole('row').nth(1).textContent()) ?? '').toContain('Ended a session');

    // the export: every row the filters match, in words, with the zone in the header
    await page.getByRole('button', { name: 'Event: All events' }).click();
    await page.getByRole('option', { name: 'Sign-ins' }).click();
    await expect.poll(async () => (await history.textContent()) ?? '').not.toContain('Changed the role');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const lines = fs
      .readFileSync(await download.path(), 'utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('Time (UTC),Person,E-mail,Kind,Event,IP address,Browser,Action');
    expect(lines.length).toBeGreaterThan(5);
    expect(lines.slice(1).every((l) => l.includes(',Sign-ins,'))).toBe(true);
    expect(lines.some((l) => l.includes('Ada Mensah,admin@acme.test,Sign-ins,Signed in with the authenticator app,'))).toBe(true);
    await context.close();
  });
});
