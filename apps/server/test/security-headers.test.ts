import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '@portal/contract/errors';
import { DOCS_CSP, PERMISSIONS_POLICY } from '../src/plugins/security-headers.ts';
import { DATABASES, setup, signIn, type TestContext } from './harness.ts';

/** A built portal's index.html, as Vite writes it: files only, nothing inline. */
function fakeWebDist(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-web-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html><head><title>Partner Dashboard</title><script src="/csp-setup.js"></script>' +
      '<script type="module" crossorigin src="/assets/index-abc.js"></script></head><body><div id="root"></div></body></html>',
  );
  fs.writeFileSync(path.join(dir, 'assets', 'index-abc.js'), 'console.log(1)');
  return dir;
}

type Headers = Record<string, string | string[] | number | undefined>;

/** The policy as a map of directive to sources. */
function csp(headers: Headers): Map<string, string[]> {
  const value = headers['content-security-policy'];
  expect(typeof value, 'content-security-policy header').toBe('string');
  return new Map(
    (value as string)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

/** What every reply carries, whatever it is. */
function expectSecurityHeaders(headers: Headers) {
  const policy = csp(headers);
  expect(policy.get('default-src')).toEqual(["'self'"]);
  expect(policy.get('script-src')).toEqual(["'self'"]);
  expect(policy.get('script-src-attr')).toEqual(["'none'"]);
  expect(policy.get('object-src')).toEqual(["'none'"]);
  expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
  expect(policy.get('base-uri')).toEqual(["'self'"]);
  expect(policy.get('form-action')).toEqual(["'self'"]);
  expect(headers['content-security-policy']).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['referrer-policy']).toBe('same-origin');
  expect(headers['permissions-policy']).toBe(PERMISSIONS_POLICY);
  expect(headers['permissions-policy']).toContain('camera=()');
  expect(headers['cross-origin-opener-policy']).toBe('same-origin');
  expect(headers['cross-origin-resource-policy']).toBe('same-origin');
}

describe.each(DATABASES)('security headers on %s', (kind) => {
  let t: TestContext;
  let production: TestContext;
  beforeAll(async () => {
    t = await setup(kind, { config: { WEB_DIST: fakeWebDist() } });
    production = await setup(kind, {
      seed: false,
      config: {
        NODE_ENV: 'production',
        JWT_SECRET: crypto.randomBytes(32).toString('base64'),
        ENCRYPTION_KEY: crypto.randomBytes(32).toString('base64'),
        SMTP_URL: 'smtp://127.0.0.1:1',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await production?.close();
  });

  it('sends them on the portal page, with a fresh style nonce that the page carries', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/' });
    const again = await t.app.inject({ method: 'GET', url: '/transactions' });
    for (const res of [first, again]) {
      expect(res.statusCode).toBe(200);
      expectSecurityHeaders(res.headers);
      const styles = csp(res.headers).get('style-src')!;
      expect(styles[0]).toBe("'self'");
      const nonce = /^'nonce-([A-Za-z0-9+/=]{24})'$/.exec(styles[1] ?? '')?.[1];
      expect(nonce, 'a nonce in style-src').toBeDefined();
      // the page hands the same nonce to the portal, and nothing else of the page is inline
      expect(res.body).toContain(`<meta name="csp-nonce" nonce="${nonce}" />`);
      expect(res.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(res.body).not.toMatch(/<style|\sstyle="/);
    }
    expect(csp(first.headers).get('style-src')).not.toEqual(csp(again.headers).get('style-src'));
  });

  it('sends them on the portal files, JSON replies, errors, 404s and the health checks', async () => {
    const { accessToken } = await signIn(t, 'admin@acme.test');
    const replies = {
      asset: await t.app.inject({ method: 'GET', url: '/assets/index-abc.js' }),
      json: await t.app.inject({ method: 'GET', url: '/api/v1/partner/profile', headers: { authorization: `Bearer ${accessToken}` } }),
      unauthenticated: await t.app.inject({ method: 'GET', url: '/api/v1/partner/profile' }),
      forgery: await t.app.inject({ method: 'POST', url: '/api/v1/users/logout', payload: {} }),
      notFound: await t.app.inject({ method: 'GET', url: '/api/v1/no-such-thing' }),
      healthz: await t.app.inject({ method: 'GET', url: '/healthz' }),
    };
    expect(replies.asset.statusCode).toBe(200);
    expect(replies.json.statusCode).toBe(200);
    expect(replies.json.headers['content-type']).toMatch(/^application\/json/);
    expect(replies.unauthenticated.statusCode).toBe(401);
    expect(replies.forgery.statusCode).toBe(403);
    expect(replies.notFound.statusCode).toBe(404);
    ErrorBody.parse(replies.notFound.json());
    for (const [name, res] of Object.entries(replies)) {
      // the API's replies, errors included, are stored nowhere; the portal's files are cached as portal.ts says
      if (name !== 'asset' && name !== 'healthz') expect(res.headers['cache-control'], name).toBe('no-store');
      expect(res.headers['strict-transport-security'], name).toBeUndefined();
      expectSecurityHeaders(res.headers);
      expect(csp(res.headers).get('style-src'), name).toEqual(["'self'"]);
    }
  });

  it('sends them on the live event stream, whose reply is written by hand', async () => {
    const { accessToken } = await signIn(t, 'admin@acme.test');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = http.get(
        { host: '127.0.0.1', port, path: '/api/v1/events', headers: { authorization: `Bearer ${accessToken}`, accept: 'text/event-stream' } },
        resolve,
      );
      req.on('error', reject);
    });
    try {
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(res.headers['x-request-id']).toEqual(expect.any(String));
      expect(res.headers['strict-transport-security']).toBeUndefined();
      expectSecurityHeaders(res.headers);
      expect(csp(res.headers).get('style-src')).toEqual(["'self'"]);
    } finally {
      res.destroy();
    }
  });

  it("gives /api/docs the policy with swagger-ui's one inline style allowed by its hash", async () => {
    for (const url of ['/api/docs', '/api/docs/static/index.html', '/api/docs/json']) {
      const res = await t.app.inject({ method: 'GET', url });
      expectSecurityHeaders(res.headers);
      expect(res.headers['content-security-policy'], url).toBe(DOCS_CSP);
      expect(csp(res.headers).get('style-src'), url).toEqual([
        "'self'",
        `'sha256-${crypto.createHash('sha256').update('.logo_small_svg__cls-2{fill:#fff}.logo_small_svg__cls-3{fill:#85ea2d}').digest('base64')}'`,
      ]);
    }
    const page = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    // swagger-ui's page loads its scripts from files: nothing for script-src 'self' to block
    expect(page.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });

  it('adds Strict-Transport-Security in production only', async () => {
    const res = await production.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expectSecurityHeaders(res.headers);
    const api = await production.app.inject({ method: 'GET', url: '/api/v1/partner/profile' });
    expect(api.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });
});
