import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURL_EXAMPLE, NODE_EXAMPLE } from '../src/modules/api-keys/api-docs.ts';
import { DATABASES, setup, signIn, type TestContext } from './harness.ts';
import { createKey, type KeyPair } from './partner-api-client.ts';

const run = promisify(execFile);

type Operation = {
  operationId?: string;
  security?: Record<string, string[]>[];
  parameters?: { in: string; name: string }[];
  responses?: Record<string, { description?: string; headers?: Record<string, unknown> }>;
};
type OpenApi = {
  info: { description: string };
  components: { securitySchemes: Record<string, { type: string; in?: string; name?: string; scheme?: string }> };
  paths: Record<string, Record<string, Operation>>;
};

describe.each(DATABASES)('the API documentation of the partner API on %s', (kind) => {
  let t: TestContext;
  let doc: OpenApi;
  let key: KeyPair;
  let baseUrl: string;
  beforeAll(async () => {
    // on a real clock: the examples sign with the time of the machine
    t = await setup(kind, { config: { LOGIN_RATE_LIMIT: '10000' } });
    doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<OpenApi>();
    const admin = await signIn(t, 'admin@acme.test');
    key = await createKey(admin, { name: 'Docs example', permissions: ['api_read', 'api_write'] });
    t.clock.now = Date.now();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  });
  afterAll(async () => t?.close());

  it('documents the per-key rate limit: its headers, and the 429 with Retry-After on each partner-API operation', () => {
    expect(doc.info.description).toContain('### Rate limit');
    for (const header of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After']) expect(doc.info.description).toContain(header);
    for (const op of [doc.paths['/api/v1/partner/accounts']!.get!, doc.paths['/api/v1/transactions/search']!.post!]) {
      const refused = op.responses?.['429'];
      expect(refused?.description).toContain('Too many calls with this API key');
      expect(Object.keys(refused?.headers ?? {}).sort()).toEqual(['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']);
    }
    // the portal's own operations are not limited per key
    expect(doc.paths['/api/v1/partner/apikey']!.get!.responses?.['429']).toBeUndefined();
  });

  it('documents both ways to authenticate, and which operations take which', () => {
    expect(doc.components.securitySchemes).toMatchObject({
      bearerAuth: { type: 'http', scheme: 'bearer' },
      apiKeyId: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
      apiKeyTimestamp: { type: 'apiKey', in: 'header', name: 'X-Api-Timestamp' },
      apiKeySignature: { type: 'apiKey', in: 'header', name: 'X-Api-Signature' },
    });
    const both = [{ bearerAuth: [] }, { apiKeyId: [], apiKeyTimestamp: [], apiKeySignature: [] }];
    expect(doc.paths['/api/v1/partner/accounts']!.get!.security).toEqual(both);
    expect(doc.paths['/api/v1/transactions/search']!.post!.security).toEqual(both);
    expect(doc.paths['/api/v1/transactions/{table}/{id}']!.get!.security).toEqual(both);
    expect(doc.paths['/api/v1/partner/apikey']!.get!.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.paths['/api/v1/users/login']!.post!.security).toEqual([]);
    // a POST of the partner API documents Idempotency-Key
    expect(doc.paths['/api/v1/partner/addresses']!.post!.parameters).toContainEqual(expect.objectContaining({ in: 'header', name: 'Idempotency-Key' }));
    expect(doc.info.description).toContain('timestamp + METHOD + path + sha256(body)');
    expect(doc.info.description).toContain(CURL_EXAMPLE);
    expect(doc.info.description).toContain(NODE_EXAMPLE);
  });

  it('generates a typed client with openapi-typescript, and the types compile', async () => {
    const source = astToString(await openapiTS(doc as never, { silent: true }));
    expect(source).toContain('"/api/v1/partner/accounts"');
    expect(source).toContain('"Idempotency-Key"');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-openapi-'));
    const file = path.join(dir, 'api.d.ts');
    fs.writeFileSync(file, source);
    const program = ts.createProgram([file], { strict: true, noEmit: true, skipLibCheck: false, types: [] });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(problems).toEqual([]);
  });

  it('has a curl example that works as written', async () => {
    const script = CURL_EXAMPLE.replace('BASE_URL=https://portal.example.com', `BASE_URL=${baseUrl}`)
      .replace('API_KEY=ak_...', `API_KEY=${key.apiKey}`)
      .replace('API_SECRET=sk_...', `API_SECRET=${key.secretKey}`);
    const { stdout } = await run('bash', ['-c', `set -eu\n${script}`], { timeout: 20_000 });
    // two replies, one after the other: the accounts, then the address
    const [accounts, address] = stdout.split(/(?<=\})(?=\{)/).map((part) => JSON.parse(part) as Record<string, unknown>);
    // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- vitest types its asymmetric matchers (expect.any, objectContaining) any
    expect(accounts).toMatchObject({ partner: { name: 'Acme Remit' }, accounts: expect.any(Array) });
    expect(address).toMatchObject({ address: { currencyNetwork: 'usdt-trc20' } });
  });

  it('has a Node example that works as written', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'portal-node-example-')), 'example.mjs');
    fs.writeFileSync(file, NODE_EXAMPLE);
    const { stdout } = await run(process.execPath, [file], {
      env: { ...process.env, PORTAL_URL: baseUrl, PORTAL_API_KEY: key.apiKey, PORTAL_API_SECRET: key.secretKey },
      timeout: 20_000,
    });
    expect(stdout).toContain("currency: 'USD'");
    expect(stdout).toMatch(/\d+ payments/);
  });
});
