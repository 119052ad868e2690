import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMMUTABLE, pickEncoding, routePattern } from '../src/plugins/portal.ts';
import { DATABASES, setup, type TestContext } from './harness.ts';

const SCRIPT = `export const greeting = ${JSON.stringify('hello '.repeat(400))};\n`;

/** A built portal as the build writes it: hashed assets with brotli and gzip copies, and the route preloads. */
function builtPortal(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-assets-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.mkdirSync(path.join(dir, '.vite'));
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html lang="en"><head><title>Partner Dashboard</title><script src="/csp-setup.js" defer></script>' +
      '<script type="module" crossorigin src="/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>',
  );
  const asset = path.join(dir, 'assets', 'index-abc123.js');
  fs.writeFileSync(asset, SCRIPT);
  fs.writeFileSync(`${asset}.br`, zlib.brotliCompressSync(SCRIPT));
  fs.writeFileSync(`${asset}.gz`, zlib.gzipSync(SCRIPT));
  fs.writeFileSync(path.join(dir, 'assets', 'tiny-def456.js'), 'export {};\n'); // too small to have copies
  fs.writeFileSync(path.join(dir, 'csp-setup.js'), 'globalThis.x = 1;\n');
  const routes = [
    { path: '/login', files: ['assets/login-111.js'] },
    {
      path: '/transactions',
      files: ['assets/app-layout-222.js', 'assets/transactions-333.js'],
      shell: { en: '<main>Transactions $& $1</main>', fr: '<main>Opérations</main>' },
    },
    { path: '/payments/:id?', files: ['assets/trades-444.js'] },
  ];
  fs.writeFileSync(path.join(dir, '.vite', 'route-preloads.json'), JSON.stringify({ routes }));
  return dir;
}

const preloads = (html: string) => [...html.matchAll(/<meta name="portal-preload" content="([^"]+)" \/>/g)].map((m) => m[1]);

describe('Accept-Encoding', () => {
  it('prefers brotli, then gzip, and honours q=0 and *', () => {
    expect(pickEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(pickEncoding('gzip')).toBe('gzip');
    expect(pickEncoding('br;q=0, gzip')).toBe('gzip');
    expect(pickEncoding('br;q=0.5, gzip;q=0.8')).toBe('gzip');
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding('*;q=0')).toBeUndefined();
    expect(pickEncoding('identity')).toBeUndefined();
    expect(pickEncoding(undefined)).toBeUndefined();
    expect(pickEncoding('gzip;q=abc')).toBeUndefined();
  });

  it('reads the router patterns, optional parts included', () => {
    expect(routePattern('/payments/:id?').test('/payments')).toBe(true);
    expect(routePattern('/payments/:id?').test('/payments/PAY-1')).toBe(true);
    expect(routePattern('/payments/:id?').test('/payments/a/b')).toBe(false);
    expect(routePattern('/balance/fiat-wallet/:currency').test('/balance/fiat-wallet/NGN')).toBe(true);
    expect(routePattern('/settings').test('/settings/team')).toBe(false);
    expect(routePattern('/transactions').test('/transactions/')).toBe(true);
  });
});

describe.each(DATABASES)('the built portal on %s', (kind) => {
  let t: TestContext;
  let asset: Buffer;
  beforeAll(async () => {
    const dist = builtPortal();
    asset = fs.readFileSync(path.join(dist, 'assets', 'index-abc123.js'));
    t = await setup(kind, { seed: false, config: { WEB_DIST: dist, WITHDRAWAL_MAX_USD: '1000.00', SUPPORT_EMAIL: "o'neil@provider.test" } });
  });
  afterAll(async () => t?.close());

  it('sends a hashed asset in brotli, else gzip, else as it is; cached for a year, varying on Accept-Encoding', async () => {
    const br = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe(IMMUTABLE);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(zlib.brotliDecompressSync(br.rawPayload)).toEqual(asset);
    expect(br.rawPayload.length).toBeLessThan(asset.length / 4);

    const gz = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['cache-control']).toBe(IMMUTABLE);
    expect(zlib.gunzipSync(gz.rawPayload)).toEqual(asset);

    const plain = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.rawPayload).toEqual(asset);

    // a file without copies goes as it is, whatever the browser accepts
    const tiny = await t.app.inject({ method: 'GET', url: '/assets/tiny-def456.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(tiny.statusCode).toBe(200);
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body).toBe('export {};\n');
  });

  it('gives the compressed copies and the build notes no address of their own', async () => {
    for (const url of ['/assets/index-abc123.js.br', '/assets/index-abc123.js.gz', '/.vite/route-preloads.json']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
      expect(res.statusCode, url).toBe(404);
    }
  });

  it('has a file outside assets/ (not hashed) checked before each use', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/csp-setup.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.etag).toBeTruthy();
    const again = await t.app.inject({ method: 'GET', url: '/csp-setup.js', headers: { 'if-none-match': String(res.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });

  it('sends the page with no-cache, compressed per reply, and names the chunks of its route', async () => {
    const br = await t.app.inject({ method: 'GET', url: '/transactions?page=2', headers: { 'accept-encoding': 'br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['cache-control']).toBe('no-cache');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    const html = zlib.brotliDecompressSync(br.rawPayload).toString();
    expect(html).toContain('<div id="root">');
    expect(preloads(html)).toEqual(['/assets/app-layout-222.js', '/assets/transactions-333.js']);
    // a signed-in screen's page carries the frame and the skeleton the build drew for it, as it is
    expect(html).toContain('<div id="root"><main>Transactions $& $1</main></div>');
    // the nonce of the policy is the one in the page
    const nonce = /'nonce-([^']+)'/.exec(String(br.headers['content-security-policy']))![1];
    expect(html).toContain(`nonce="${nonce}"`);

    const gz = await t.app.inject({ method: 'GET', url: '/login', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    const login = zlib.gunzipSync(gz.rawPayload).toString();
    expect(preloads(login)).toEqual(['/assets/login-111.js']);
    // a screen with no shell (the sign-in page) gets an empty root
    expect(login).toContain('<div id="root"></div>');

    const plain = await t.app.inject({ method: 'GET', url: '/payments/PAY-42' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe('no-cache');
    expect(preloads(plain.body)).toEqual(['/assets/trades-444.js']);

    // the page's language: the browser's chosen one (its cookie), else its own (Accept-Language), else English
    const page = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/transactions', headers }).then((r) => r.body);
    expect(await page({})).toContain('<html lang="en">');
    const french = await page({ 'accept-language': 'fr-CI,fr;q=0.9,en;q=0.5' });
    expect(french).toContain('<html lang="fr">');
    expect(french).toContain('<div id="root"><main>Opérations</main></div>');
    expect(await page({ 'accept-language': 'fr', cookie: 'portal-language=en' })).toContain('<html lang="en">');
    expect(await page({ 'accept-language': 'de', cookie: 'portal-language=fr' })).toContain('<html lang="fr">');
    expect(await page({ 'accept-language': 'de', cookie: 'portal-language=xx' })).toContain('<html lang="en">');
    expect(plain.headers.vary).toMatch(/accept-language, cookie/);

    // the settings the portal reads at start, written into the page (the quote of the address escaped for the attribute)
    const settings = /<meta name="portal-config" content='([^']*)'/.exec(plain.body)![1]!.replaceAll('&#39;', "'").replaceAll('&amp;', '&');
    expect(JSON.parse(settings)).toEqual({
      idleWarningSeconds: t.app.config.IDLE_WARNING_SECONDS,
      idleLogoutSeconds: t.app.config.IDLE_LOGOUT_SECONDS,
      supportEmail: "o'neil@provider.test",
      withdrawalMaxUsd: '1000.00',
    });

    // a path of no route (the portal answers "not found" itself) names nothing
    const other = await t.app.inject({ method: 'GET', url: '/nowhere' });
    expect(other.statusCode).toBe(200);
    expect(preloads(other.body)).toEqual([]);
    expect(other.body).toContain('<div id="root"></div>');
  });
});
