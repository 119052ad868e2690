import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, launch } from './support/browser.ts';
import { startServer, type RunningServer } from './support/server.ts';

describe.skipIf(browserMissing)('the portal in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launch()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('serves the portal with its title, and a reload deep inside still loads it', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}/login`);
    await expect.poll(() => page.title()).toBe('Partner Dashboard');
    await page.getByRole('heading', { name: /sign in/i }).waitFor();
    const res = await page.goto(`${server.url}/transactions`);
    expect(res?.status()).toBe(200);
    expect(await page.title()).toBe('Partner Dashboard');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('printed the demo accounts on start', () => {
    expect(server.output()).toContain('admin@acme.test');
    expect(server.output()).toContain('BPQYTYLSBWY2M6TIWWORONCT33ILZDWS');
  });
});
