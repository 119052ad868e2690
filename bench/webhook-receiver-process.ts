// A webhook receiver in a process of its own (as a partner's server would be), for webhooks.bench.ts: it prints its
// address, and on the message 'dump' sends what it received and forgets it.
import { webhookReceiver } from '../apps/server/test/webhook-receiver.ts';

const rx = await webhookReceiver();
process.send?.({ url: rx.url });
process.on('message', (message) => {
  if (message === 'dump') {
    process.send?.({ received: rx.received.splice(0) });
  } else if (message === 'stop') {
    void rx.close().then(() => process.exit(0));
  }
});
