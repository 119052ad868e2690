import crypto from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '@portal/contract/errors';
import { WALLET_DELETION_REASONS } from '@portal/contract/wallets';
import { DEMO_PARTNERS } from '../src/db/seed/demo.ts';
import { generateTransactions, TRANSACTION_TABLES } from '../src/db/seed/transactions.ts';
import { DATABASES, browser, setup, signIn, type TestContext } from './harness.ts';

/**
 * Every operation of the OpenAPI document the app serves, called with requests generated from its own JSON
 * schemas and with hostile variants of them, anonymously and signed in. No reply may be a 5xx, and every error
 * reply has the error shape. Routes are discovered from the document: a route added later is fuzzed too.
 * Seeded and bounded: the same requests on every run.
 */

/** fixed, so CI sends the same requests every run; FUZZ_SEED=n hunts with other ones */
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123) | 0;
/** generated requests per operation and caller: a few for one without input, more for each input position */
const RUNS_BASE = 16;
const RUNS_PER_INPUT = 16;
const RUNS_MAX = 300;
/** FUZZ_SCALE=4 sends four times as many requests (a longer hunt than CI's) */
const SCALE = Math.max(1, Number(process.env.FUZZ_SCALE ?? 1) || 1);

type Schema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  nullable?: boolean;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  propertyNames?: Schema;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
};
type Parameter = { in: 'path' | 'query' | 'header' | 'cookie'; name: string; required?: boolean; schema?: Schema };
type Operation = {
  method: string;
  path: string;
  parameters: Parameter[];
  body: Schema | undefined;
};
type FuzzRequest = { method: string; url: string; body?: string; contentType?: string };

/** Every property name the document mentions: the keys a free-form map is filled with, next to random ones. */
function propertyNames(doc: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(doc)) for (const d of doc) propertyNames(d, into);
  else if (doc && typeof doc === 'object') {
    for (const [k, v] of Object.entries(doc as Record<string, unknown>)) {
      if (k === 'properties' && v && typeof v === 'object') for (const name of Object.keys(v)) into.add(name);
      propertyNames(v, into);
    }
  }
  return into;
}

function operations(doc: {
  paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema?: Schema }> } }>>;
}): Operation[] {
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      ops.push({ method: method.toUpperCase(), path, parameters: op.parameters ?? [], body: op.requestBody?.content?.['application/json']?.schema });
    }
  }
  return ops;
}

/** How many positions (properties, parameters) an input has: bigger inputs get more requests. */
function inputPositions(schema: Schema | undefined, depth = 0): number {
  if (!schema || depth > 6) return 0;
  const union = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (union) return Math.max(1, ...union.map((s) => inputPositions(s, depth + 1)));
  const own = Object.values(schema.properties ?? {}).reduce((n, s) => n + 1 + inputPositions(s, depth + 1), 0);
  const extra = schema.additionalProperties && typeof schema.additionalProperties === 'object' ? 2 : 0;
  return own + extra + (schema.items ? 1 + inputPositions(schema.items, depth + 1) : 0);
}
const runsFor = (op: Operation) => SCALE * Math.min(RUNS_MAX, RUNS_BASE + RUNS_PER_INPUT * (op.parameters.length + inputPositions(op.body)));

// ---- values the schema allows (roughly: refinements the document cannot express are not known here) ----

/** Any UTF-16 code unit, so NUL, control characters and lone surrogates come up. */
const utf16Unit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));

const realDay = fc.date({ min: new Date('2026-01-01'), max: new Date('2026-03-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));

function fromSchema(schema: Schema | undefined, keys: string[], depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return fc.jsonValue({ maxDepth: 2 });
  const plain = ((): fc.Arbitrary<unknown> => {
    if (schema.const !== undefined) return fc.constant(schema.const);
    if (schema.enum) return fc.constantFrom(...schema.enum);
    const union = schema.anyOf ?? schema.oneOf;
    if (union) return fc.oneof(...union.map((s) => fromSchema(s, keys, depth + 1)));
    if (schema.allOf?.length) return fromSchema(Object.assign({}, ...schema.allOf) as Schema, keys, depth + 1);
    const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
    switch (type) {
      case 'string': {
        const maxLength = Math.min(schema.maxLength ?? 80, 200);
        const minLength = Math.min(schema.minLength ?? 0, maxLength);
        const options: fc.Arbitrary<string>[] = [fc.string({ minLength, maxLength, unit: 'grapheme' }), fc.string({ minLength, maxLength, unit: utf16Unit })];
        if (schema.format === 'uuid') options.push(fc.uuid(), fc.uuid(), fc.uuid());
        if (schema.format === 'email') options.push(fc.emailAddress(), fc.emailAddress());
        const pattern = schema.pattern ? new RegExp(schema.pattern) : undefined;
        if (pattern) options.push(fc.stringMatching(pattern), fc.stringMatching(pattern), fc.stringMatching(pattern));
        // a date field also gets real days near today, so that date ranges get past their rules to the database
        if (schema.format === 'date' || pattern?.test('2026-01-15')) options.push(realDay, realDay, realDay);
        return fc.oneof(...options);
      }
      case 'integer': {
        const min = Math.max(schema.minimum ?? -1e6, Number.MIN_SAFE_INTEGER);
        const max = Math.min(schema.maximum ?? 1e6, Number.MAX_SAFE_INTEGER);
        // mostly small values: the ones real clients send, and the ones that get past cross-field rules
        return fc.oneof({ weight: 3, arbitrary: fc.integer({ min, max: Math.min(max, min + 100) }) }, fc.integer({ min, max }), fc.constantFrom(min, max));
      }
      case 'number':
        return fc.double({ noNaN: true, noDefaultInfinity: true, min: schema.minimum ?? -1e9, max: schema.maximum ?? 1e9 });
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array':
        return fc.array(fromSchema(schema.items, keys, depth + 1), { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 4, 8) });
      case 'object':
      case undefined: {
        if (!schema.properties && !schema.additionalProperties && type === undefined) return fc.jsonValue({ maxDepth: 2 });
        const model = Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, s]) => [k, fromSchema(s, keys, depth + 1)]));
        // half the objects carry every property, so that rules that need several of them together are reached
        const fixed = fc.oneof(fc.record(model), fc.record(model, { requiredKeys: schema.required ?? [] }));
        const extra = schema.additionalProperties;
        if (!extra || Object.keys(model).length > 0) return fixed;
        const key = schema.propertyNames
          ? (fromSchema(schema.propertyNames, keys, depth + 1) as fc.Arbitrary<string>)
          : fc.oneof(fc.constantFrom(...keys), fc.string({ maxLength: 12 }));
        return fc.dictionary(key, extra === true ? fc.jsonValue({ maxDepth: 1 }) : fromSchema(extra, keys, depth + 1), { maxKeys: 4 });
      }
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  })();
  return schema.nullable ? fc.option(plain, { nil: null, freq: 5 }) : plain;
}

// ---- hostile values ----

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const hostileString: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '\u0000',
      'a\u0000b',
      'complete\u0000',
      '\ud800',
      '\udfff',
      'a\udc00b',
      '\ud83d',
      '\u001b[31m',
      '\u202e',
      '\ufeff',
      '\uffff',
      '\u0085',
      '0000-01-01',
      '2026-02-30',
      '2026-13-01',
      '2026-00-10',
      '2025-02-29',
      '2026-04-31',
      '9999-12-31',
      '0001-01-01',
      '2026-1-1',
      '-001-01-01',
      '',
      ' ',
      '%00',
      '%ED%A0%80',
      "' or '1'='1",
      '"; drop table users; --',
      '../../etc/passwd',
      '${jndi:ldap://x}',
      'null',
      'NaN',
      '١٢٣٤',
      'ÿ'.repeat(43),
      `eyJ9.${'é'.repeat(43)}`,
      '😀'.repeat(40),
      'e'.repeat(10_000),
    ),
  },
  fc.string({ maxLength: 64, unit: utf16Unit }),
  fc.string({ maxLength: 64, unit: 'binary' }),
  // impossible and extreme calendar dates that still have the YYYY-MM-DD shape
  fc
    .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 }))
    .map(([y, m, d]) => `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`),
  // a token whose signature part is non-ASCII, of the lengths digests take
  fc
    .tuple(fc.base64String({ maxLength: 40 }), fc.constantFrom(1, 16, 32, 43, 44, 64, 86), fc.constantFrom('é', '€', '😀', '\u0000', 'a'))
    .map(([head, n, c]) => `${head}.${c.repeat(n)}`),
  // ids: uuids with non-ASCII digits or look-alikes
  fc.uuid().map((u) => u.replace(/[0-9]/, '٣')),
  fc.uuid().map((u) => `${u}\u0000`),
  fc.constant('x'.repeat(100_000)),
);
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: hostileString, weight: 4 },
  fc.constantFrom(1e308, -1e308, 2 ** 53 + 1, -(2 ** 53) - 1, -1, 0, 1.5, 1e-300, 9_999_999_999_999, true, false, null, [], {}, [null], { a: '\u0000' }),
  fc.jsonValue({ maxDepth: 2 }),
);

/** The positions (paths) of a JSON value, the root included. */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const out = [prefix];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...paths(v, [...prefix, i])));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...prefix, k]));
  return out;
}

function replaceAt(value: unknown, path: (string | number)[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  if (Array.isArray(value)) return (value as unknown[]).map((v, i) => (i === head ? replaceAt(v, rest, replacement) : v));
  const obj = value as Record<string, unknown>;
  return { ...obj, [head]: replaceAt(obj[head], rest, replacement) };
}

/** A valid-looking value with one position replaced by a hostile value, or a hostile key added to an object. */
function hostile(valid: fc.Arbitrary<unknown>, keys: string[]): fc.Arbitrary<unknown> {
  return fc
    .tuple(valid, fc.nat(), hostileValue, fc.boolean(), fc.oneof(fc.constantFrom('partnerId', '__proto__', 'constructor', ...keys), hostileString))
    .map(([v, n, bad, addKey, key]) => {
      const all = paths(v);
      const at = all[n % all.length]!;
      const target = at.length === 0 ? v : at.reduce<unknown>((o, k) => (o as Record<string | number, unknown>)[k], v);
      if (addKey && target && typeof target === 'object' && !Array.isArray(target)) return replaceAt(v, at, { ...target, [key]: bad });
      return replaceAt(v, at, bad);
    });
}

/** Percent-encodes the UTF-8 bytes of a text (a lone surrogate becomes U+FFFD, as a client would send it). */
const encode = (text: string) =>
  [...Buffer.from(text, 'utf8')]
    .map((b) => (/[A-Za-z0-9\-._~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`))
    .join('');
const hostileParam = hostileString.map((text) => encode(text.slice(0, 2000)));
const rawSegment = fc.constantFrom('%', '%zz', '%00', '%ED%A0%80', '%C0%AF', '..%2F..%2Fetc', '%E2%80%AE');

function requestArbitrary(op: Operation, keys: string[]): fc.Arbitrary<FuzzRequest> {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const paramValue = (p: Parameter, bad: boolean) => {
    const valid = fromSchema(p.schema, keys).map((v) => encode(typeof v === 'string' ? v : JSON.stringify(v)));
    // URLs get hostile texts of up to 2,000 characters (longer ones only cost time: they meet the same length limit)
    return bad ? fc.oneof({ arbitrary: valid, weight: 1 }, { arbitrary: hostileParam, weight: 4 }, { arbitrary: rawSegment, weight: 1 }) : valid;
  };
  const url = (bad: boolean) =>
    fc
      .tuple(
        fc.tuple(...pathParams.map((p) => paramValue(p, bad))),
        fc.tuple(...queryParams.map((p) => (p.required ? paramValue(p, bad) : fc.option(paramValue(p, bad), { nil: undefined, freq: 3 })))),
        bad ? fc.option(fc.tuple(hostileParam, hostileParam), { nil: undefined }) : fc.constant(undefined),
      )
      .map(([pathValues, queryValues, extra]) => {
        let path = op.path;
        pathParams.forEach((p, i) => (path = path.replace(`{${p.name}}`, pathValues[i]!)));
        const query = queryParams.flatMap((p, i) => (queryValues[i] === undefined ? [] : [`${encode(p.name)}=${queryValues[i]}`]));
        if (extra) query.push(`${extra[0]}=${extra[1]}`);
        return query.length ? `${path}?${query.join('&')}` : path;
      });
  const sendsBody = op.method !== 'GET' && op.method !== 'DELETE';
  const valid = fromSchema(op.body ?? { type: 'object', properties: {} }, keys);
  const asJson = (v: unknown) => ({ body: JSON.stringify(v), contentType: 'application/json' });
  const rawBody = fc.constantFrom(
    { body: '', contentType: 'application/json' },
    { body: '{', contentType: 'application/json' },
    { body: '{"size": 1e999, "startIndex": -1e999}', contentType: 'application/json' },
    { body: '{"__proto__": {"admin": true}}', contentType: 'application/json' },
    { body: '{"constructor": {"prototype": {"admin": true}}}', contentType: 'application/json' },
    { body: '{"a": "\\ud800"}', contentType: 'application/json' },
    { body: '\u0000', contentType: 'application/json' },
    { body: 'table=payments', contentType: 'application/x-www-form-urlencoded' },
    { body: '{"table": "payments"}', contentType: 'text/plain' },
  );
  const body = (bad: boolean): fc.Arbitrary<{ body?: string; contentType?: string }> =>
    !sendsBody
      ? fc.constant({})
      : bad
        ? fc.oneof(
            { arbitrary: hostile(valid, keys).map(asJson), weight: 6 },
            { arbitrary: hostileValue.map(asJson), weight: 1 },
            { arbitrary: rawBody, weight: 1 },
          )
        : valid.map(asJson);
  // half the requests as the schema describes them, half with one hostile part
  const request = (bad: boolean) => fc.tuple(url(bad), body(bad)).map(([u, b]): FuzzRequest => ({ method: op.method, url: u, ...b }));
  return fc.oneof(request(false), request(true));
}

const operationSeed = (op: Operation) => SEED ^ crypto.createHash('sha256').update(`${op.method} ${op.path}`).digest().readInt32BE(0);

describe.each(DATABASES)('every operation of the OpenAPI document, fuzzed, on %s', (kind) => {
  let t: TestContext;
  let token: string;
  let anonymousPair: Record<string, string>;
  let signedInPair: Record<string, string>;
  beforeAll(async () => {
    t = await setup(kind, { config: { LOGIN_RATE_LIMIT: '1000000' } });
    // rows in every table, so that replies go through the row schemas too
    await generateTransactions(t.database.db, {
      partnerId: DEMO_PARTNERS.acme.id,
      rows: 40,
      seed: 'fuzz',
      fiatWallets: ['USD', 'NGN'],
      tables: TRANSACTION_TABLES,
    });
    const session = await signIn(t, 'admin@acme.test', browser(t.app));
    token = session.accessToken;
    // a pair for each caller: a request-forgery token is bound to the session it was issued for (none, or this one)
    const pair = async (headers: Record<string, string>) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/security/csrf', headers });
      // only the request-forgery cookie: without the refresh cookie a fuzzed logout cannot end this session
      return { cookie: `portal_csrf=${res.cookies.find((c) => c.name === 'portal_csrf')!.value}`, 'x-csrf-token': res.json<{ csrf: string }>().csrf };
    };
    anonymousPair = await pair({});
    signedInPair = await pair({ authorization: `Bearer ${token}` });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers generated and hostile requests without a 5xx, every error in the error shape', async () => {
    const docRes = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(docRes.statusCode).toBe(200);
    const doc = docRes.json<Parameters<typeof operations>[0]>();
    const ops = operations(doc);
    expect(ops.length).toBeGreaterThan(15);
    const keys = [...propertyNames(doc)];

    const callers = {
      anonymous: anonymousPair,
      'signed in': { ...signedInPair, authorization: `Bearer ${token}` },
    };
    let sent = 0;
    const serverErrors: string[] = [];
    const badShapes: string[] = [];
    const fivexxByOperation = new Map<string, number>();
    const statuses = new Map<number, number>();
    for (const op of ops) {
      const requests = fc.sample(requestArbitrary(op, keys), { seed: operationSeed(op), numRuns: runsFor(op) });
      for (const [caller, headers] of Object.entries(callers)) {
        for (const r of requests) {
          const res = await t.app.inject({
            method: r.method as 'GET',
            url: r.url,
            headers: { ...headers, ...(r.contentType ? { 'content-type': r.contentType } : {}) },
            ...(r.body !== undefined ? { payload: r.body } : {}),
          });
          sent += 1;
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          const what = `${caller} ${r.method} ${r.url.slice(0, 200)} ${(r.body ?? '').slice(0, 300)} -> ${res.statusCode} ${res.body.slice(0, 200)}`;
          if (res.statusCode >= 500) {
            serverErrors.push(what);
            fivexxByOperation.set(`${op.method} ${op.path}`, (fivexxByOperation.get(`${op.method} ${op.path}`) ?? 0) + 1);
          }
          if (res.statusCode >= 400) {
            let parsed: unknown;
            try {
              parsed = res.json();
            } catch {
              parsed = undefined;
            }
            if (!ErrorBody.safeParse(parsed).success) badShapes.push(what);
          }
        }
      }
    }
    console.log(
      `fuzz on ${kind}: ${ops.length} operations, ${sent} requests, ${serverErrors.length} answered 5xx, ${badShapes.length} errors outside the error shape` +
        `\nreplies by status: ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}` +
        (fivexxByOperation.size ? `\n5xx by operation: ${JSON.stringify(Object.fromEntries(fivexxByOperation))}` : ''),
    );
    // the signed-in half was signed in to the end, and its request-forgery token was accepted
    const after = await t.app.inject({
      method: 'POST',
      url: '/api/v1/transactions/search',
      headers: { ...callers['signed in'], 'content-type': 'application/json' },
      payload: '{"table":"payments"}',
    });
    expect(after.statusCode).toBe(200);
    expect(serverErrors.slice(0, 25)).toEqual([]);
    expect(badShapes.slice(0, 25)).toEqual([]);
  }, 600_000);

  it('answers control characters in the wallet routes’ address fields (and a code asked for a wallet) without a 5xx', async () => {
    const headers = { ...signedInPair, authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const tron = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
    const texts = ['\u0000', 'a\u0000b', `${tron}\u0000`, `\u0000${tron}`, '\u0001', '\u001f', '\u007f', '\u0085', '\u2028', '\ud800', `${tron}\r\n`, '\t'];
    const failures: string[] = [];
    for (const text of texts) {
      const calls: { method: 'POST' | 'PUT' | 'DELETE'; url: string; body: unknown }[] = [
        { method: 'POST', url: '/api/v1/partner/wallet', body: { address: text, network: 'TRC20', currencies: ['USDT'], otp: '123456' } },
        { method: 'POST', url: '/api/v1/partner/wallet', body: { address: tron, network: text, currencies: ['USDT'], otp: '123456' } },
        { method: 'PUT', url: '/api/v1/partner/wallet', body: { address: text, network: 'TRC20', status: 'enabled', otp: '123456' } },
        { method: 'PUT', url: '/api/v1/partner/wallet', body: { address: text, status: 'disabled' } },
        { method: 'PUT', url: '/api/v1/partner/wallet/status', body: { address: text, network: 'TRC20', status: 'approved' } },
        { method: 'DELETE', url: `/api/v1/partner/wallet/${encode(text)}`, body: { reason: WALLET_DELETION_REASONS[0], otp: '123456' } },
        ...(['wallet.add', 'wallet.enable', 'wallet.delete'] as const).map((action) => ({
          method: 'PUT' as const,
          url: '/api/v1/user/otp',
          body: { action, target: { address: text, network: 'TRC20' } },
        })),
        { method: 'PUT', url: '/api/v1/user/otp', body: { action: 'wallet.add', target: { address: tron, network: text } } },
      ];
      for (const call of calls) {
        const res = await t.app.inject({ method: call.method, url: call.url, headers, payload: JSON.stringify(call.body) });
        let shape = false;
        try {
          shape = res.statusCode < 400 || ErrorBody.safeParse(res.json()).success;
        } catch {
          shape = false;
        }
        if (res.statusCode >= 500 || !shape)
          failures.push(`${call.method} ${call.url} ${JSON.stringify(call.body)} -> ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
