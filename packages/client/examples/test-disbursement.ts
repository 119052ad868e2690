// A disbursement in test mode, from its request to its verified webhook (docs/quick-start.md).
// Run: PORTAL_URL=... PORTAL_API_KEY=ak_test_... PORTAL_API_SECRET=sk_test_... PORTAL_WEBHOOK_SECRET=whsec_... \
//      PORT=4242 node --import tsx packages/client/examples/test-disbursement.ts
import http from 'node:http';
import { createPortalClient, verifyWebhook } from '@portal/client';

const setting = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`Set ${name} (see docs/quick-start.md)`);
  return value;
};

const client = createPortalClient({ baseUrl: setting('PORTAL_URL'), apiKey: setting('PORTAL_API_KEY'), secret: setting('PORTAL_API_SECRET') });
const webhookSecret = setting('PORTAL_WEBHOOK_SECRET');
const port = Number(process.env.PORT ?? '4242');

// 1. Receive the webhooks: verify each against the endpoint's secret, with the body exactly as it came.
type Event = { type: string; data: { id: string; status: string } };
const finished = new Map<string, (event: Event) => void>();
const receiver = http.createServer((request, response) => {
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk: string) => (body += chunk));
  request.on('end', () => {
    verifyWebhook<Event>(webhookSecret, request.headers, body).then(
      ({ payload }) => {
        response.writeHead(204).end();
        console.log(`webhook verified: ${payload.type} ${payload.data.id}`);
        if (payload.type === 'PAYMENT.COMPLETE' || payload.type === 'PAYMENT.FAILED') finished.get(payload.data.id)?.(payload);
      },
      (err: Error) => {
        response.writeHead(400).end();
        console.log(`webhook refused: ${err.message}`);
      },
    );
  });
});
await new Promise<void>((resolve) => receiver.listen(port, resolve));

// 2. The test balance the payment is paid from.
const accounts = await client.GET('/api/v1/partner/accounts');
if (!accounts.data) throw new Error(`accounts: ${JSON.stringify(accounts.error)}`);
const usd = accounts.data.accounts.find((a) => a.currency === 'USD')?.available ?? '0';
// amounts are decimal strings (never floats): shown here to the cent
const [whole, fraction = ''] = usd.split('.');
console.log(`test balance: USD ${whole}.${fraction.padEnd(2, '0').slice(0, 2)}`);

// 3. A mobile-money payout in Kenya. In test mode the amount decides the outcome: a whole part ending in 0 completes.
const channels = await client.GET('/api/v1/channels', { params: { query: { country: 'KE' } } });
const channel = channels.data?.channels.find((c) => c.rampType === 'withdraw' && c.channelType === 'momo' && c.status === 'active');
const networks = await client.GET('/api/v1/networks', { params: { query: { country: 'KE' } } });
const network = networks.data?.networks.find((n) => channel && n.channelIds.includes(channel.id));
if (!channel || !network) throw new Error('no mobile-money channel in Kenya for this key');
const created = await client.POST('/api/v1/partner/disbursement', {
  body: {
    country: 'KE',
    channelId: channel.id,
    networkId: network.id,
    accountNumber: '+254712345678',
    recipient: { name: 'Amina Juma' },
    amount: '1500',
    sequenceId: crypto.randomUUID(),
  },
});
if (!created.data) throw new Error(`disbursement: ${JSON.stringify(created.error)}`);
const payment = created.data.payment;
console.log(`disbursement created: ${payment.id} ${payment.status}`);

// 4. Wait for its final webhook.
const event = await new Promise<Event>((resolve, reject) => {
  finished.set(payment.id, resolve);
  setTimeout(() => reject(new Error('no final webhook within 60 s: is the endpoint registered in test mode?')), 60_000).unref();
});
console.log(`disbursement ${event.data.status}: ${event.type}`);
receiver.close();
