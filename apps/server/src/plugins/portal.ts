import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { LANGUAGE_COOKIE, pickLanguage, type Language } from '@portal/contract/i18n';
import { portalCsp } from './security-headers.ts';

/** Hashed file names (Vite's `assets/`) never change content: a year, and no revalidation. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Everything else (the page, csp-setup.js, the icon): kept, but checked with the server before each use. */
export const REVALIDATE = 'no-cache';

type Encoding = 'br' | 'gzip';

/**
 * The encoding to answer with for an Accept-Encoding header: brotli, else gzip, else none. An encoding given
 * `q=0` is refused (RFC 9110 §12.5.3); `*` stands for any encoding not named.
 */
export function pickEncoding(accept: string | string[] | undefined): Encoding | undefined {
  const header = Array.isArray(accept) ? accept.join(',') : (accept ?? '');
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name, Number.isFinite(value) ? value : 0);
  }
  const weight = (name: Encoding) => q.get(name) ?? q.get('*') ?? 0;
  if (weight('br') > 0 && weight('br') >= weight('gzip')) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return undefined;
}

type RoutePreloads = { routes: { path: string; files: string[]; shell?: Partial<Record<Language, string>> }[] };

/** A route pattern of the portal's router ('/payments/:id?', '/balance/fiat-wallet/:currency') as a RegExp. */
export function routePattern(route: string): RegExp {
  const parts = route
    .split('/')
    .filter(Boolean)
    .map((part) => {
      if (part.startsWith(':')) return part.endsWith('?') ? '(?:/[^/]+)?' : '/[^/]+';
      return `/${part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
    });
  return new RegExp(`^${parts.join('')}/?$`);
}

type RoutePage = { tags: string; shell: Partial<Record<Language, string>> };

/**
 * For each route, from the build's `.vite/route-preloads.json` (apps/web/vite.config.ts): the chunks its screen
 * needs, named in the page (`portal-preload`; the portal's boot.js preloads them with the entry, after the first
 * paint: without them the browser would learn of those chunks only once the entry has run), and for a signed-in
 * screen the markup of the frame around the screen's skeleton, which the browser paints before any script has run.
 * Nothing when the build has no such file.
 */
function loadRoutePages(webDist: string): (pathname: string) => RoutePage {
  const none: RoutePage = { tags: '', shell: {} };
  const file = path.join(webDist, '.vite', 'route-preloads.json');
  if (!fs.existsSync(file)) return () => none;
  const { routes } = JSON.parse(fs.readFileSync(file, 'utf8')) as RoutePreloads;
  const table = routes.map((r) => ({
    pattern: routePattern(r.path),
    page: { tags: r.files.map((f) => `    <meta name="portal-preload" content="/${f}" />\n`).join(''), shell: r.shell ?? {} },
  }));
  return (pathname) => table.find((r) => r.pattern.test(pathname))?.page ?? none;
}

/**
 * The language of the page before any script runs (its `lang`, and the skeleton's words): the one this browser
 * chose (the portal keeps it in a cookie as well as in its storage), else the browser's own (Accept-Language), else
 * English. The portal's script reads the same choice, so the first render draws the same words.
 */
function pageLanguage(request: FastifyRequest): Language {
  return pickLanguage(request.cookies?.[LANGUAGE_COOKIE]) ?? pickLanguage(request.headers['accept-language']) ?? 'en';
}

/**
 * Serves the built portal from / with a history fallback, so that a reload on /transactions works.
 *
 * The build (apps/web/vite.config.ts) writes a brotli (`.br`) and a gzip (`.gz`) copy beside each text file;
 * @fastify/static answers with the one the browser accepts (`Content-Encoding`, `Vary: Accept-Encoding`). The page
 * itself is made per reply (its CSP nonce), so it is compressed per reply: it is about 1.5 KB.
 */
export async function registerPortal(app: FastifyInstance, webDist: string) {
  const index = path.join(webDist, 'index.html');
  if (!fs.existsSync(index)) {
    app.log.warn({ webDist }, 'the portal is not built: run npm run build');
    return;
  }
  await app.register(fastifyStatic, {
    root: webDist,
    wildcard: false,
    index: false,
    preCompressed: true,
    // the .br/.gz copies answer the plain file's URL; they get no URL of their own
    globIgnore: ['**/*.br', '**/*.gz'],
    cacheControl: false,
    setHeaders: (reply, file) => {
      void reply.header('cache-control', file.includes(`${path.sep}assets${path.sep}`) ? IMMUTABLE : REVALIDATE);
    },
  });
  // settings the portal reads at start (lib/portal-config.ts), and the page's CSP nonce (lib/csp.ts), fresh per reply
  const config = app.config;
  // (escaped for the single-quoted attribute: the operator's support address may hold a quote)
  const portalConfig = JSON.stringify({
    idleWarningSeconds: config.IDLE_WARNING_SECONDS,
    idleLogoutSeconds: config.IDLE_LOGOUT_SECONDS,
    supportEmail: config.SUPPORT_EMAIL,
    withdrawalMaxUsd: config.WITHDRAWAL_MAX_USD,
  })
    .replaceAll('&', '&amp;')
    .replaceAll("'", '&#39;')
    .replaceAll('<', '&lt;');
  const NONCE = '%CSP_NONCE%';
  const PRELOADS = '%ROUTE_PRELOADS%';
  const SHELL = '%ROUTE_SHELL%';
  const LANG = '%PAGE_LANG%';
  const html = fs
    .readFileSync(index, 'utf8')
    .replace('<html lang="en">', `<html lang="${LANG}">`)
    .replace('</head>', `  <meta name="portal-config" content='${portalConfig}' />\n    <meta name="csp-nonce" nonce="${NONCE}" />\n${PRELOADS}  </head>`)
    .replace('<div id="root"></div>', `<div id="root">${SHELL}</div>`);
  const routePage = loadRoutePages(webDist);
  const sendPage = (request: FastifyRequest, reply: FastifyReply) => {
    const csp = portalCsp();
    const pathname = request.url.split('?')[0] ?? '/';
    const { tags, shell } = routePage(pathname);
    const language = pageLanguage(request);
    // (functions as replacements: a `$` in the markup stays as it is)
    const page = html
      .replace(NONCE, csp.nonce)
      .replace(PRELOADS, () => tags)
      .replace(LANG, language)
      .replace(SHELL, () => shell[language] ?? shell.en ?? '');
    void reply
      .type('text/html; charset=utf-8')
      .header('cache-control', REVALIDATE)
      .header('vary', 'accept-encoding, accept-language, cookie')
      .header('content-security-policy', csp.header);
    const encoding = pickEncoding(request.headers['accept-encoding']);
    if (encoding === 'br') {
      return reply.header('content-encoding', 'br').send(zlib.brotliCompressSync(page, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } }));
    }
    if (encoding === 'gzip') return reply.header('content-encoding', 'gzip').send(zlib.gzipSync(page, { level: 6 }));
    return reply.send(page);
  };
  const isApi = (url: string) => url.startsWith('/api/') || url === '/api' || url === '/healthz' || url === '/readyz' || url === '/metrics';
  app.get('/', { schema: { hide: true } }, (request, reply) => sendPage(request, reply));
  app.get('/*', { schema: { hide: true } }, (request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    const looksLikeFile = path.extname(url) !== '';
    if (isApi(url) || looksLikeFile) {
      return reply.callNotFound();
    }
    return sendPage(request, reply);
  });
}
