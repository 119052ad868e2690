import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserMissing } from './support/browser.ts';
import { apiSignIn, signInAs } from './support/portal.ts';
import { serverAndBrowser } from './support/server.ts';

const EVENTS = '/api/v1/events';

describe.skipIf(browserMissing)("the live stream in a browser's tabs", () => {
  const env = serverAndBrowser({ LOGIN_RATE_LIMIT: '1000' });

  it('eight tabs of one person hold one stream between them, each page loads and hears changes; closing the holder hands it on', async () => {
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
    // the streams this browser opened and has not seen end
    const open = new Set<Request>();
    context.on('request', (r) => void (r.url().endsWith(EVENTS) && open.add(r)));
    context.on('requestfinished', (r) => void open.delete(r));
    context.on('requestfailed', (r) => void open.delete(r));

    const first = await context.newPage();
    await signInAs(first, env.server.url, 'admin@acme.test');
    await first.goto(`${env.server.url}/api-keys`);
    await first.getByRole('heading', { name: 'API Keys', level: 1 }).waitFor();
    // over HTTP/1.1 a browser keeps six connections to a server: a stream in each of eight tabs would leave the
    // last ones none, and their pages would never load
    const tabs: Page[] = [first];
    for (let i = 1; i < 8; i++) {
      const tab = await context.newPage();
      await tab.goto(`${env.server.url}/api-keys`);
      await tab.getByRole('heading', { name: 'API Keys', level: 1 }).waitFor({ timeout: 15_000 });
      tabs.push(tab);
    }
    await expect.poll(() => open.size, { timeout: 10_000 }).toBe(1);
    const holder = [...open][0]!.frame().page();
    expect(holder).toBe(first);

    // another admin adds a key: every tab's list shows it, through the one stream
    const kwame = await apiSignIn(env.server.url, 'admin2@acme.test');
    expect((await kwame.post('/api/v1/partner/apikey', { name: 'Shared stream key', permissions: ['api_read'] })).status).toBe(201);
    for (const tab of [tabs[1]!, tabs[7]!]) await tab.getByRole('cell', { name: /^Shared stream key\b/ }).waitFor({ timeout: 15_000 });

    // the holder closes: another tab takes the stream up, and changes still reach the others
    await first.close();
    await expect.poll(() => [...open].filter((r) => !r.frame().page().isClosed()).length, { timeout: 15_000 }).toBe(1);
    expect((await kwame.post('/api/v1/partner/apikey', { name: 'After the holder left', permissions: ['api_read'] })).status).toBe(201);
    for (const tab of tabs.slice(1)) await tab.getByRole('cell', { name: /^After the holder left\b/ }).waitFor({ timeout: 15_000 });
    await context.close();
  });
});
