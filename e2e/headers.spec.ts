import http from 'node:http';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { browserMissing } from './support/browser.ts';
import { apiSignIn } from './support/portal.ts';
import { serverAndBrowser } from './support/server.ts';

/** The security headers a reply carries, by name (lower case), without the values that change per reply. */
const SECURITY_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'permissions-policy',
  'referrer-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-frame-options',
];

function expectSecured(name: string, headers: Headers) {
  const present = SECURITY_HEADERS.filter((h) => headers.has(h));
  // HSTS only in production; this server runs in development
  expect(present, name).toEqual(SECURITY_HEADERS.filter((h) => h !== 'strict-transport-security'));
  const csp = headers.get('content-security-policy')!;
  expect(csp, name).toMatch(/(^|; )script-src 'self'(;|$)/);
  expect(csp, name).toContain("frame-ancestors 'none'");
  expect(csp, name).toContain("object-src 'none'");
  expect(csp, name).not.toMatch(/unsafe-inline|unsafe-eval/);
  expect(headers.get('x-content-type-options'), name).toBe('nosniff');
  expect(headers.get('x-frame-options'), name).toBe('DENY');
  expect(headers.get('referrer-policy'), name).toBe('same-origin');
  expect(headers.get('cross-origin-opener-policy'), name).toBe('same-origin');
  expect(headers.get('permissions-policy'), name).toContain('camera=()');
}

describe.skipIf(browserMissing)('security headers, in Chromium and on the wire', () => {
  const env = serverAndBrowser();

  it('runs the sign-in page under the policy without a violation, and a violation would be seen', async () => {
    const page = await env.browser.newPage();
    const res = await page.goto(`${env.server.url}/login`);
    expect(res?.headers()['content-security-policy']).toMatch(/script-src 'self';/);
    await page.getByRole('heading', { name: /sign in/i }).waitFor();
    await page.getByLabel('E-mail').fill('viewer@acme.test');
    await page.getByLabel('Password', { exact: true }).fill('not the password');
    expect(await page.getByRole('button', { name: 'Sign in', exact: true }).isEnabled()).toBe(true);
    expect(env.browser.cspViolations).toEqual([]);

    // the policy is enforced and the watcher reports it: an injected inline script is blocked and recorded
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.inlineRan = true';
      document.head.append(script);
    });
    await expect.poll(() => env.browser.cspViolations.join('\n')).toContain('script-src');
    expect(await page.evaluate(() => (window as unknown as { inlineRan?: boolean }).inlineRan)).toBeUndefined();
    env.browser.cspViolations.splice(0);
    await page.close();
  });

  it('sends the built portal compressed: hashed files in brotli or gzip cached for a year, the page with no-cache', async () => {
    const page = await fetch(`${env.server.url}/transactions`, { headers: { 'accept-encoding': 'br' } });
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('content-encoding')).toBe('br');
    const html = await page.text(); // fetch decodes it
    // the entry, which the page's boot script runs after the first paint
    expect(html).toMatch(/<meta name="portal-entry" content="\/assets\/[^"]+\.js" \/>/);
    // the screen's chunks are named in the page, so they load beside the entry
    expect(html).toMatch(/<meta name="portal-preload" content="\/assets\/transactions-[^"]+\.js" \/>/);
    // the largest script the page names (small files have no compressed copies)
    const scripts = await Promise.all(
      [...html.matchAll(/(?:src|href|content)="(\/assets\/[^"]+\.js)"/g)].map(async ([, url]) => {
        const res = await fetch(`${env.server.url}${url}`, { headers: { 'accept-encoding': 'identity' } });
        expect(res.headers.get('content-encoding'), url).toBeNull();
        return { url: url!, body: Buffer.from(await res.arrayBuffer()) };
      }),
    );
    const { url: entry, body: plain } = scripts.sort((a, b) => b.body.length - a.body.length)[0]!;
    expect(plain.length).toBeGreaterThan(100_000);
    for (const encoding of ['br', 'gzip'] as const) {
      // node's fetch would decode the body: read the bytes on the wire with a plain request instead
      const res = await new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
        http
          .get(`${env.server.url}${entry}`, { headers: { 'accept-encoding': encoding } }, (r) => {
            const parts: Buffer[] = [];
            r.on('data', (d: Buffer) => parts.push(d));
            r.on('end', () => resolve({ headers: r.headers, body: Buffer.concat(parts) }));
          })
          .on('error', reject);
      });
      expect(res.headers['content-encoding'], encoding).toBe(encoding);
      expect(res.headers['cache-control'], encoding).toBe('public, max-age=31536000, immutable');
      expect(String(res.headers.vary), encoding).toMatch(/accept-encoding/i);
      const decoded = encoding === 'br' ? zlib.brotliDecompressSync(res.body) : zlib.gunzipSync(res.body);
      expect(decoded.equals(plain), encoding).toBe(true);
      expect(res.body.length, encoding).toBeLessThan(plain.length / 2);
    }
  });

  it('renders /api/docs (swagger-ui) and opens an operation without a violation', async () => {
    const page = await env.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const res = await page.goto(`${env.server.url}/api/docs`);
    expect(res?.headers()['content-security-policy']).toMatch(/style-src 'self' 'sha256-/);
    await expect.poll(() => page.locator('.swagger-ui .info .title').textContent(), { timeout: 20_000 }).toContain('Partner Dashboard API');
    expect(await page.locator('.opblock').count()).toBeGreaterThan(10);
    await page.locator('.opblock-summary').first().click();
    await page.locator('.opblock-body').first().waitFor();
    expect(env.browser.cspViolations).toEqual([]);
    await page.close();
  });

  it('sends the headers on the portal page, an API JSON reply, the docs and a report download', async () => {
    const api = await apiSignIn(env.server.url, 'viewer@acme.test');
    const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
    const created = await api.post('/api/v1/report-jobs/create', { dataSource: 'payments', startDate: day(60), endDate: day(0) });
    expect(created.status).toBe(200);
    expectSecured('report request', created.headers);
    const { job } = (await created.json()) as { job: { id: string } };
    let downloadURL: string | null = null;
    await expect
      .poll(
        async () => {
          downloadURL = ((await (await api.get(`/api/v1/report-jobs/${job.id}`)).json()) as { job: { downloadURL: string | null } }).job.downloadURL;
          return downloadURL;
        },
        { timeout: 30_000, interval: 500 },
      )
      .not.toBeNull();

    const page = await fetch(`${env.server.url}/`);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const json = await api.get('/api/v1/partner/profile');
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    const docs = await fetch(`${env.server.url}/api/docs`);
    expect(docs.status).toBe(200);
    const download = await api.get(downloadURL!);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toMatch(/^attachment; filename=".+\.csv"$/);
    // the CSV file itself, byte for byte: UTF-8 with its byte-order mark, then the header row
    const bytes = Buffer.from(await download.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3).toString('utf8').split('\r\n').length).toBeGreaterThan(1);

    for (const [name, res] of Object.entries({ page, json, docs, download })) expectSecured(name, res.headers);
    // the portal page carries a fresh style nonce for the scroll lock of its dialogs; the docs a hash for their logo
    expect(page.headers.get('content-security-policy')).toMatch(/style-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
    expect(docs.headers.get('content-security-policy')).toMatch(/style-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
    expect(json.headers.get('content-security-policy')).toMatch(/style-src 'self';/);
  });
});
