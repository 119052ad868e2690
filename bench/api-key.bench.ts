// HMAC-authenticated reads of the partner API per second, as a share of a bare Fastify hello-world measured in the
// same run (budget >= 40%), beside the portal's bearer-token read. Prints figures; asserts nothing.
import crypto from 'node:crypto';
import { DEMO_PARTNERS, DEMO_USERS } from '../apps/server/src/db/seed/demo.ts';
import { createApiKeysRepository } from '../apps/server/src/modules/api-keys/api-keys.repository.ts';
import { createApiKeysService } from '../apps/server/src/modules/api-keys/api-keys.service.ts';
import { createPartnerAccess, createTestPartners } from '../apps/server/src/modules/partners/index.ts';
import { createLedger } from '../apps/server/src/modules/ledger/index.ts';
import { adminToken, embeddedApp, helloWorld, rps } from './support.ts';

const line = (name: string, value: string) => console.log(`${name.padEnd(62)} ${value}`);
const ROUNDS = 5;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The three headers of a signed GET (valid for the 300 s window: the run replays them, as a benchmark may). */
function signedHeaders(key: { apiKey: string; secretKey: string }, pathname: string) {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const bodySha256 = crypto.createHash('sha256').update('').digest('hex');
  const signature = crypto.createHmac('sha256', key.secretKey).update(`${timestamp}GET${pathname}${bodySha256}`).digest('hex');
  return { 'x-api-key': key.apiKey, 'x-api-timestamp': timestamp, 'x-api-signature': signature };
}

const hello = await helloWorld();

// the per-key limit is raised out of the way (its counting still runs on every call, as in production)
const portal = await embeddedApp('apikey', { MAIL_CATCHER: 'false', API_KEY_RATE_LIMIT: '1000000000' });
const { app, database, keys, origin: base } = portal;

const admin = DEMO_USERS[0]!;
const partnerId = DEMO_PARTNERS.acme.id;
const service = createApiKeysService({
  repo: createApiKeysRepository(database.db),
  partners: createPartnerAccess(database.db),
  testPartners: createTestPartners(database.db, createLedger(database.db)),
  encryptionKey: keys.encryptionKey,
  now: Date.now,
  invalidateKey: () => Promise.resolve(),
  live: app.liveBus,
  notifier: app.services.notifier,
});
const auth = { userId: admin.id, partnerId, role: 'admin' as const, email: admin.email, name: admin.name, sessionId: '' };
const key = await service.create(auth, { name: 'Benchmark', permissions: ['api_read'] });
const token = await adminToken(database.db, keys.jwtSecret, partnerId, admin);

console.log('── partner API: HMAC-signed reads against a bare Fastify hello-world (embedded database) ──');
const check = await fetch(`${base}/api/v1/partner/profile`, { headers: signedHeaders(key, '/api/v1/partner/profile') });
if (check.status !== 200) throw new Error(`signed call refused: ${check.status} ${await check.text()}`);

const bare: number[] = [];
const signed: number[] = [];
const bearer: number[] = [];
let lastSigned: Awaited<ReturnType<typeof rps>> | undefined;
let lastBare: Awaited<ReturnType<typeof rps>> | undefined;
let lastBearer: Awaited<ReturnType<typeof rps>> | undefined;
// rounds of the three, one after the other, so that the machine's load weighs on each alike
for (let round = 0; round < ROUNDS; round++) {
  lastBare = await rps(hello.url);
  bare.push(lastBare.rps);
  lastSigned = await rps(`${base}/api/v1/partner/profile`, signedHeaders(key, '/api/v1/partner/profile'));
  signed.push(lastSigned.rps);
  lastBearer = await rps(`${base}/api/v1/partner/profile`, { authorization: `Bearer ${token}` });
  bearer.push(lastBearer.rps);
}
const accounts = await rps(`${base}/api/v1/partner/accounts`, signedHeaders(key, '/api/v1/partner/accounts'));
// test mode: a key made for test reaches the account's test partner; the portal's test view looks it up per call
const testKey = await service.create(auth, { name: 'Benchmark (test)', permissions: ['api_read'], mode: 'test' });
const testAccounts = await rps(`${base}/api/v1/partner/accounts`, signedHeaders(testKey, '/api/v1/partner/accounts'));
const liveView = await rps(`${base}/api/v1/partner/accounts`, { authorization: `Bearer ${token}` });
const testView = await rps(`${base}/api/v1/partner/accounts`, { authorization: `Bearer ${token}`, 'x-portal-mode': 'test' });

const ratios = bare.map((b, i) => signed[i]! / b);
const bearerRatios = bare.map((b, i) => bearer[i]! / b);
line(
  `bare Fastify hello-world (20 connections, 5 s; median of ${ROUNDS})`,
  `${Math.round(median(bare))} req/s, p50 ${lastBare!.p50} ms, p99 ${lastBare!.p99} ms`,
);
line(
  `GET partner/profile signed with an API key (median of ${ROUNDS})`,
  `${Math.round(median(signed))} req/s, p50 ${lastSigned!.p50} ms, p99 ${lastSigned!.p99} ms, errors ${lastSigned!.errors}`,
);
line('  ratio to hello-world, each round (budget >= 40%)', ratios.map((r) => `${(r * 100).toFixed(0)}%`).join(', '));
line('  ratio to hello-world, median', `${(median(ratios) * 100).toFixed(0)}%`);
line(
  `GET partner/profile with a bearer token (median of ${ROUNDS})`,
  `${Math.round(median(bearer))} req/s, p50 ${lastBearer!.p50} ms, errors ${lastBearer!.errors}`,
);
line('  ratio to hello-world, median', `${(median(bearerRatios) * 100).toFixed(0)}%`);
line('GET partner/accounts signed (balances summed in the database)', `${Math.round(accounts.rps)} req/s, p50 ${accounts.p50} ms, errors ${accounts.errors}`);
line('GET partner/accounts signed with a test key', `${Math.round(testAccounts.rps)} req/s, p50 ${testAccounts.p50} ms, errors ${testAccounts.errors}`);
line('GET partner/accounts, bearer token, live view', `${Math.round(liveView.rps)} req/s, p50 ${liveView.p50} ms, errors ${liveView.errors}`);
line(
  'GET partner/accounts, bearer token, test view (x-portal-mode: test)',
  `${Math.round(testView.rps)} req/s, p50 ${testView.p50} ms, errors ${testView.errors}`,
);

await portal.close();
await hello.server.close();
