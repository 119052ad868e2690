import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export type Received = { path: string; id: string; timestamp: string; signature: string; body: string; at: number };
/** How the receiver answers a request: a status (and text, after `afterMs`), a dropped connection, or no answer at all. */
export type Answer = { status: number; text?: string; afterMs?: number } | { drop: true } | { hang: true };

/**
 * A partner's webhook receiver on a local port: it records every request and answers as `answer` says (200 'ok'
 * by default); `verify` checks a request with the Standard Webhooks reference library, as a partner would.
 */
export async function webhookReceiver() {
  const received: Received[] = [];
  let answer: (request: Received) => Answer = () => ({ status: 200, text: 'ok' });
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const request: Received = {
        path: req.url ?? '/',
        id: String(req.headers['webhook-id']),
        timestamp: String(req.headers['webhook-timestamp']),
        signature: String(req.headers['webhook-signature']),
        body,
        at: Date.now(),
      };
      received.push(request);
      const a = answer(request);
      if ('drop' in a) return void req.socket.destroy();
      if ('hang' in a) return;
      const send = () => void res.writeHead(a.status, { 'content-type': 'text/plain' }).end(a.text ?? '');
      if (a.afterMs) setTimeout(send, a.afterMs);
      else send();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    /** sets how every following request is answered */
    answer: (next: typeof answer) => void (answer = next),
    /** the parsed body when the request verifies with this secret; throws otherwise */
    verify: (secret: string, r: Received) =>
      new Webhook(secret).verify(r.body, { 'webhook-id': r.id, 'webhook-timestamp': r.timestamp, 'webhook-signature': r.signature }) as {
        id: string;
        type: string;
        timestamp: string;
        data: Record<string, unknown>;
      },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
export type Receiver = Awaited<ReturnType<typeof webhookReceiver>>;
