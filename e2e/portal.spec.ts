import { describe, expect, it } from 'vitest';
import { browserMissing } from './support/browser.ts';
import { serverAndBrowser } from './support/server.ts';

describe.skipIf(browserMissing)('the portal in Chromium', () => {
  const env = serverAndBrowser();

  it('serves the portal with its title, and a reload deep inside still loads it', async () => {
    const page = await env.browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${env.server.url}/login`);
    await expect.poll(() => page.title()).toBe('Partner Dashboard');
    await page.getByRole('heading', { name: /sign in/i }).waitFor();
    const res = await page.goto(`${env.server.url}/transactions`);
    expect(res?.status()).toBe(200);
    expect(await page.title()).toBe('Partner Dashboard');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('printed the demo accounts on start', () => {
    expect(env.server.output()).toContain('admin@acme.test');
    expect(env.server.output()).toContain('BPQYTYLSBWY2M6TIWWORONCT33ILZDWS');
  });
});
