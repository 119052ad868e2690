import crypto from 'node:crypto';
import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * The Content-Security-Policy of every reply (pages, API, docs, downloads). The portal is a Vite build: its
 * index.html loads only files of its own origin and has no inline script or style; the authenticator QR code is a
 * data: image. No 'unsafe-inline' and no 'unsafe-eval' anywhere.
 */
export const CSP_DIRECTIVES: Readonly<Record<string, readonly string[]>> = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'"],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'frame-ancestors': ["'none'"],
  'form-action': ["'self'"],
};

/**
 * The policy as a header value; `style` adds sources to style-src (a page's nonce, a hash). The portal needs one:
 * Radix's dialogs add a small <style> element (the scroll lock) whose content depends on the page, so it cannot be
 * hashed; the portal page carries a fresh nonce for it (see portalCsp).
 */
export function cspHeader(extra: { style?: string[] } = {}): string {
  return Object.entries(CSP_DIRECTIVES)
    .map(([name, sources]) => [name, ...sources, ...(name === 'style-src' ? (extra.style ?? []) : [])].join(' '))
    .join('; ');
}

/** A nonce for one page of the portal, and the policy that lets <style> elements carrying it apply. */
export function portalCsp(): { nonce: string; header: string } {
  const nonce = crypto.randomBytes(16).toString('base64');
  return { nonce, header: cspHeader({ style: [`'nonce-${nonce}'`] }) };
}

/**
 * /api/docs (swagger-ui): its page and scripts are files (nothing inline), but it draws its logo as an SVG holding
 * this one <style> element; its hash is allowed on the docs pages only. A new swagger-ui with another logo shows
 * up as a CSP violation in e2e/headers.spec.ts.
 */
const SWAGGER_LOGO_STYLE = '.logo_small_svg__cls-2{fill:#fff}.logo_small_svg__cls-3{fill:#85ea2d}';
export const DOCS_CSP = cspHeader({ style: [`'sha256-${crypto.createHash('sha256').update(SWAGGER_LOGO_STYLE).digest('base64')}'`] });

/**
 * Features the portal never uses, switched off for it and anything it could embed. clipboard-write stays on (the
 * "copy wallet address" button). Only names Chromium knows: an unknown one is a console error on every page.
 */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'autoplay=()',
  'camera=()',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'usb=()',
  'browsing-topics=()',
].join(', ');

/** One year; sent only in production (served over HTTPS). */
const HSTS_MAX_AGE = 31_536_000;

/**
 * Security headers on every reply, 404s and errors included: Content-Security-Policy, Permissions-Policy, and
 * through @fastify/helmet X-Content-Type-Options, X-Frame-Options, Referrer-Policy, Cross-Origin-Opener-Policy,
 * Cross-Origin-Resource-Policy and the smaller ones, with Strict-Transport-Security in production only.
 * No upgrade-insecure-requests: a server reached over plain HTTP (locally, in tests) would break its own page; in
 * production HSTS moves browsers to HTTPS.
 */
export async function registerSecurityHeaders(app: FastifyInstance, options: { production: boolean }) {
  await app.register(fastifyHelmet, {
    global: true,
    // set below, so that the portal page and the docs can replace it with their own (reply.header wins)
    contentSecurityPolicy: false,
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    originAgentCluster: true,
    referrerPolicy: { policy: 'same-origin' },
    strictTransportSecurity: options.production ? { maxAge: HSTS_MAX_AGE, includeSubDomains: true } : false,
    xContentTypeOptions: true,
    xDnsPrefetchControl: { allow: false },
    xDownloadOptions: true,
    xFrameOptions: { action: 'deny' },
    xPermittedCrossDomainPolicies: { permittedPolicies: 'none' },
    xXssProtection: true,
  });
  const csp = cspHeader();
  app.addHook('onRequest', async (request, reply) => {
    void reply.header('content-security-policy', csp).header('permissions-policy', PERMISSIONS_POLICY);
    // an API reply is the partner's own data as it is now: kept in no cache, the browser's disk included. A browser
    // also holds a second call of a URL it may cache until the first one's answer comes (Chrome's cache lock): two tabs
    // reading the profile at once through an outage waited on each other for seconds. A route may say otherwise.
    if (request.url.startsWith('/api/')) void reply.header('cache-control', 'no-store');
  });
}
