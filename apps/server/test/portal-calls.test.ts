import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX } from '@portal/contract/api';
import { setup, type TestContext } from './harness.ts';

const WEB_SRC = path.resolve(import.meta.dirname, '../../web/src');

/** A call of the portal's API client whose path is a string or template literal: `api.post('users/login', ...)`. */
const LITERAL_CALL = /\bapi\.(get|post|put|delete)(?:<[^>()]*>)?\(\s*(['`])((?:(?!\2)[^\\]|\\.)*)\2/g;
/** Any call of the API client, to find those whose path is built elsewhere. */
const ANY_CALL = /\bapi\.(get|post|put|delete)(?:<[^>()]*>)?\(/g;
/**
 * The calls whose path a helper builds, with the path it builds (its query left out): a new one fails the test until
 * it is named here, so that no call of the portal goes unchecked.
 */
const BUILT_PATHS: Record<string, string[]> = {
  'features/security/api/security.ts': ['GET security-history', 'GET security-history'],
};

/** The calls whose parameter stands for a literal segment (a payment's kind), with the paths it makes. */
const KINDED: Record<string, string[]> = {
  'POST partner/${input.kind}': ['POST partner/collection', 'POST partner/disbursement'],
  "GET ${kind === 'collection' ? 'collections' : 'disbursements'}/${id}": ['GET collections/${id}', 'GET disbursements/${id}'],
};

type Call = { file: string; method: string; path: string };
const split = (file: string, call: string): Call => ({ file, method: call.split(' ')[0]!, path: call.slice(call.indexOf(' ') + 1) });

/** Every call the portal's code (tests left out) makes through `api`, its path as written, `${...}` for a parameter. */
function portalCalls(): { calls: Call[]; built: Record<string, number> } {
  const calls: Call[] = [];
  const built: Record<string, number> = {};
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
        const file = path.relative(WEB_SRC, full);
        const text = fs.readFileSync(full, 'utf8');
        const literal = [...text.matchAll(LITERAL_CALL)];
        for (const m of literal) calls.push({ file, method: m[1]!.toUpperCase(), path: m[3]! });
        const others = [...text.matchAll(ANY_CALL)].length - literal.length;
        if (others > 0) built[file] = others;
      }
    }
  };
  walk(WEB_SRC);
  return { calls, built };
}

/** The path as the server routes it: the prefix, the query left out, each `${...}` one segment's worth of text. */
const asRouted = (p: string) =>
  `${API_PREFIX}/${p
    .replace(/^\//, '')
    .split('?')[0]!
    .replace(/\$\{[^}]*\}/g, 'PARAM')}`;
/** An OpenAPI path as a pattern: each `{name}` matches one segment. */
const pattern = (p: string) => new RegExp(`^${p.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);

/**
 * Method and path are bound once: every path the portal calls, with its method, is a route of the server's OpenAPI
 * document (the document is built from the routes' own schemas). A path mistyped on one side, or a method changed on
 * one side only, fails here rather than in a browser.
 */
describe('every call the portal makes is in the OpenAPI document, with its method', () => {
  let t: TestContext;
  let documented: { method: string; path: RegExp; name: string }[];
  beforeAll(async () => {
    t = await setup('pglite');
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{ paths: Record<string, Record<string, unknown>> }>();
    documented = Object.entries(doc.paths).flatMap(([p, methods]) =>
      Object.keys(methods).map((method) => ({ method: method.toUpperCase(), path: pattern(p), name: `${method.toUpperCase()} ${p}` })),
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  it('finds the calls, and names each one whose path a helper builds', () => {
    const { calls, built } = portalCalls();
    expect(calls.length).toBeGreaterThan(80);
    const written = calls.map((c) => `${c.method} ${c.path}`);
    for (const call of Object.keys(KINDED)) expect(written).toContain(call);
    expect(built).toEqual(Object.fromEntries(Object.entries(BUILT_PATHS).map(([file, paths]) => [file, paths.length])));
  });

  it('each is a documented route with that method', () => {
    const { calls } = portalCalls();
    const named = Object.entries(BUILT_PATHS).flatMap(([file, paths]) => paths.map((p) => split(file, p)));
    const expanded = calls.flatMap((c) => KINDED[`${c.method} ${c.path}`]?.map((p) => split(c.file, p)) ?? [c]);
    const missing = [...expanded, ...named]
      .filter((c) => !documented.some((d) => d.method === c.method && d.path.test(asRouted(c.path))))
      .map((c) => `${c.file}: ${c.method} ${c.path}`);
    expect(missing).toEqual([]);
  });

  it('would catch a wrong method or a mistyped path', () => {
    const found = (method: string, p: string) => documented.some((d) => d.method === method && d.path.test(asRouted(p)));
    expect(found('POST', 'partner/settlement/withdrawal')).toBe(true);
    expect(found('GET', 'partner/settlement/withdrawal')).toBe(false);
    expect(found('POST', 'partner/settlement/withdrawals')).toBe(false);
    expect(found('PUT', 'users/delete/${encodeURIComponent(userId)}')).toBe(true);
    expect(found('PUT', 'users/delete/${a}/${b}')).toBe(false);
  });
});
