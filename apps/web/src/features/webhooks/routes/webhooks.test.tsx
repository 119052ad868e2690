import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Webhook, WebhookDelivery } from '@portal/contract/webhooks';
import { useToasts } from '../../../components/ui/toast-store.ts';
import { apiError, mockApi } from '../../../testing/api-mock.ts';
import { formatDate } from '../../../lib/format.ts';
import { PARTNER_ID, signIn } from '../../../testing/factories.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { WebhooksScreen } from './webhooks.tsx';
import { inFrench } from '../../../testing/french.ts';

const ID = '0a5e00aa-0000-4000-8000-000000000001';
const DELIVERY_ID = '0a5e00bb-0000-4000-8000-000000000001';
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwAbCdEfGhIjk=';

function webhook(overrides: Partial<Webhook> = {}): Webhook {
  return {
    id: ID,
    partnerId: PARTNER_ID,
    url: 'https://hooks.acme.test/portal',
    description: 'Ledger sync',
    events: ['SETTLEMENT.COMPLETE', 'PAYMENT.FAILED'],
    active: true,
    state: 'healthy',
    failingSince: null,
    createdAt: '2026-11-20T10:00:00.000Z',
    updatedAt: '2026-11-20T10:00:00.000Z',
    ...overrides,
  };
}

function delivery(overrides: Partial<WebhookDelivery> = {}): WebhookDelivery {
  return {
    id: DELIVERY_ID,
    webhookId: ID,
    url: 'https://hooks.acme.test/portal',
    eventId: 'evt_0a5e00cc000040008000000000000001',
    eventType: 'SETTLEMENT.COMPLETE',
    payload: { id: 'evt_0a5e00cc000040008000000000000001', type: 'SETTLEMENT.COMPLETE', timestamp: '2026-11-20T10:00:00.000Z', data: { id: 's1' } },
    status: 'failed',
    note: null,
    nextAttemptAt: null,
    createdAt: '2026-11-20T10:00:00.000Z',
    attempts: [
      { attemptedAt: '2026-11-20T10:00:00.000Z', statusCode: 503, durationMs: 84, responseSnippet: 'upstream unavailable', error: null, trigger: 'automatic' },
      {
        attemptedAt: '2026-11-20T10:00:05.000Z',
        statusCode: null,
        durationMs: 10000,
        responseSnippet: null,
        error: 'Timed out after 10 s',
        trigger: 'automatic',
      },
    ],
    ...overrides,
  };
}

const OTP_SENT = { body: { message: 'We sent a six-digit code to admin@acme.test.', sentTo: 'admin@acme.test', expiresInSeconds: 600 } };
const renderWebhooks = () => renderScreen(<WebhooksScreen />, { path: '/webhooks' });

describe('webhooks screen', () => {
  it('adds an endpoint with the e-mailed code and shows its secret once', async () => {
    signIn('admin');
    const api = mockApi({
      'GET partner/webhook': { body: { webhooks: [] } },
      'PUT user/otp': OTP_SENT,
      'POST partner/webhook': (call) => ({ status: 201, body: { webhook: webhook({ url: (call.body as { url: string }).url }), secret: SECRET } }),
    });
    const { user } = renderWebhooks();
    await screen.findByText('No webhook endpoints yet');
    await user.click(screen.getByRole('button', { name: 'Add endpoint' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add webhook endpoint' });

    // nothing is sent until the form is right
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(within(dialog).getByText('Enter a valid URL starting with https:// or http://')).toBeTruthy();
    expect(within(dialog).getByText('Choose at least one event.')).toBeTruthy();
    expect(api.to('PUT user/otp')).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Endpoint URL'), 'https://hooks.acme.test/new');
    await user.click(within(dialog).getByLabelText('All settlement events'));
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    await within(dialog).findByText('admin@acme.test');
    expect(api.to('PUT user/otp')).toHaveLength(1);
    await user.type(within(dialog).getByLabelText('Verification code'), '123456');
    await user.click(within(dialog).getByRole('button', { name: 'Add endpoint' }));

    expect((await screen.findByTestId('webhook-secret')).textContent).toBe(SECRET);
    expect(api.to('POST partner/webhook').map((c) => c.body)).toEqual([
      {
        url: 'https://hooks.acme.test/new',
        events: ['SETTLEMENT.PENDING', 'SETTLEMENT.PROCESSING', 'SETTLEMENT.COMPLETE', 'SETTLEMENT.FAILED'],
        otp: '123456',
      },
    ]);
    await user.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByTestId('webhook-secret')).toBeNull());
  });

  it('keeps the user on the code step with the spec message when the code is wrong, and back on the form when the URL is refused', async () => {
    signIn('admin');
    let reply = apiError(400, 'InvalidOtp', 'The code you entered is incorrect. Try again.');
    mockApi({
      'GET partner/webhook': { body: { webhooks: [] } },
      'PUT user/otp': OTP_SENT,
      'POST partner/webhook': () => reply,
    });
    const { user } = renderWebhooks();
    await user.click(await screen.findByRole('button', { name: 'Add endpoint' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Endpoint URL'), 'https://127.0.0.1/hook');
    await user.click(within(dialog).getByLabelText('All payment events'));
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    await user.type(await within(dialog).findByLabelText('Verification code'), '000000');
    await user.click(within(dialog).getByRole('button', { name: 'Add endpoint' }));
    expect(await within(dialog).findByText('The code you entered is incorrect. Try again.')).toBeTruthy();

    reply = apiError(400, 'WebhookUrlRefused', 'This URL points to a private, loopback or link-local address. Use an address reachable from the internet.');
    await user.clear(within(dialog).getByLabelText('Verification code'));
    await user.type(within(dialog).getByLabelText('Verification code'), '123456');
    await user.click(within(dialog).getByRole('button', { name: 'Add endpoint' }));
    expect(await within(dialog).findByText(/points to a private, loopback or link-local address/)).toBeTruthy();
    expect(within(dialog).getByLabelText<HTMLInputElement>('Endpoint URL').value).toBe('https://127.0.0.1/hook');
  });

  it('lists endpoints and deliveries with their attempts, and resends a delivery', async () => {
    signIn('admin');
    const api = mockApi({
      'GET partner/webhook': {
        body: {
          webhooks: [
            webhook(),
            webhook({
              id: '0a5e00aa-0000-4000-8000-000000000002',
              url: 'https://old.acme.test/h',
              state: 'failing',
              failingSince: '2026-11-21T10:00:00.000Z',
              description: null,
            }),
          ],
        },
      },
      'GET partner/activity': { body: { activities: [delivery()], total: 1 } },
      'POST partner/activity/0a5e00bb-0000-4000-8000-000000000001/resend': { body: { delivery: delivery({ status: 'pending' }) } },
    });
    const { user } = renderWebhooks();
    const rows = await screen.findAllByTestId('webhook-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('Active')).toBeTruthy();
    expect(within(rows[1]!).getByText('Failing')).toBeTruthy();
    expect(api.to('GET partner/activity')[0]!.query).toBe('type=webhook&startIndex=0&size=10');

    await user.click(await screen.findByRole('button', { name: /SETTLEMENT.COMPLETE/ }));
    const attempts = screen.getAllByTestId('attempt-row');
    expect(attempts.map((a) => a.textContent)).toEqual([expect.stringContaining('503'), expect.stringContaining('Timeout')]);
    expect(screen.getAllByTestId('attempt-response').map((e) => e.textContent)).toEqual(['upstream unavailable', 'Timed out after 10 s']);
    expect(screen.getByTestId('delivery-event-id').textContent).toBe('evt_0a5e00cc000040008000000000000001');
    await user.click(screen.getByRole('button', { name: 'Resend' }));
    await waitFor(() => expect(api.to('POST partner/activity/0a5e00bb-0000-4000-8000-000000000001/resend')).toHaveLength(1));
    await waitFor(() => expect(useToasts.getState().toast.message).toBe('Event resent'));
  });

  it('deletes an endpoint after the code', async () => {
    signIn('admin');
    const api = mockApi({
      'GET partner/webhook': { body: { webhooks: [webhook()] } },
      'GET partner/activity': { body: { activities: [], total: 0 } },
      'PUT user/otp': OTP_SENT,
      [`DELETE partner/webhook/${ID}`]: { body: { id: ID } },
    });
    const { user } = renderWebhooks();
    await user.click(await screen.findByRole('button', { name: 'Delete https://hooks.acme.test/portal' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete webhook endpoint' });
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    await user.type(await within(dialog).findByLabelText('Verification code'), '654321');
    await user.click(within(dialog).getByRole('button', { name: 'Delete endpoint' }));
    await waitFor(() => expect(api.to(`DELETE partner/webhook/${ID}`).map((c) => c.query)).toEqual(['otp=654321']));
    await waitFor(() => expect(useToasts.getState().toast.message).toBe('Webhook endpoint deleted'));
  });

  it('rolls a secret: the overlap, the code, the new secret once, and the row says until when the old one signs', async () => {
    signIn('admin');
    const until = '2026-11-21T10:00:00.000Z';
    let rolled = false;
    const NEW_SECRET = 'whsec_NewNewNewGKYqrTwjUPD8ILPZIo2LaLaSwAbCdEfGhIj=';
    const api = mockApi({
      'GET partner/webhook': () => ({ body: { webhooks: [webhook(rolled ? { previousSecretExpiresAt: until } : {})] } }),
      'GET partner/activity': { body: { activities: [], total: 0 } },
      'PUT user/otp': OTP_SENT,
      [`POST partner/webhook/${ID}/roll-secret`]: () => {
        rolled = true;
        return { body: { webhook: webhook({ previousSecretExpiresAt: until }), secret: NEW_SECRET } };
      },
    });
    const { user } = renderWebhooks();
    await user.click(await screen.findByRole('button', { name: 'Roll secret of https://hooks.acme.test/portal' }));
    const dialog = await screen.findByRole('dialog', { name: 'Roll signing secret' });
    for (const label of ['Now', 'In 1 hour', 'In 24 hours', 'In 7 days']) expect(within(dialog).getByLabelText(label)).toBeTruthy();
    await user.click(within(dialog).getByLabelText('In 7 days'));
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    // the code is asked for this change of this endpoint
    await waitFor(() => expect(api.to('PUT user/otp').map((c) => c.body)).toEqual([{ action: 'webhook.roll', target: { id: ID } }]));
    await user.type(await within(dialog).findByLabelText('Verification code'), '246810');
    await user.click(within(dialog).getByRole('button', { name: 'Roll secret' }));
    await waitFor(() =>
      expect(api.to(`POST partner/webhook/${ID}/roll-secret`).map((c) => c.body)).toEqual([{ previousSecretMinutes: 7 * 24 * 60, otp: '246810' }]),
    );
    const done = await screen.findByRole('dialog', { name: 'Save the new signing secret' });
    expect(within(done).getByTestId('webhook-secret').textContent).toBe(NEW_SECRET);
    expect(within(done).getByRole('button', { name: 'Copy signing secret' })).toBeTruthy();
    expect(within(done).getByTestId('roll-outcome').textContent).toBe(`The old secret keeps signing until ${formatDate(until)}.`);
    await user.click(within(done).getByRole('button', { name: 'Done' }));
    expect(screen.queryByText(NEW_SECRET)).toBeNull();
    expect(await screen.findByText(`Previous secret valid until ${formatDate(until)}`)).toBeTruthy();
  });

  it('keeps the roll on the code step when the code is wrong', async () => {
    signIn('admin');
    mockApi({
      'GET partner/webhook': { body: { webhooks: [webhook()] } },
      'GET partner/activity': { body: { activities: [], total: 0 } },
      'PUT user/otp': OTP_SENT,
      [`POST partner/webhook/${ID}/roll-secret`]: apiError(400, 'InvalidOtp', 'The code you entered is incorrect. Try again.'),
    });
    const { user } = renderWebhooks();
    expect(screen.queryByText(/Previous secret valid until/)).toBeNull();
    await user.click(await screen.findByRole('button', { name: 'Roll secret of https://hooks.acme.test/portal' }));
    const dialog = await screen.findByRole('dialog', { name: 'Roll signing secret' });
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    await user.type(await within(dialog).findByLabelText('Verification code'), '000000');
    await user.click(within(dialog).getByRole('button', { name: 'Roll secret' }));
    expect(await within(dialog).findByText('The code you entered is incorrect. Try again.')).toBeTruthy();
    expect(within(dialog).queryByTestId('webhook-secret')).toBeNull();
  });

  it('is read-only for other roles', async () => {
    signIn('view');
    mockApi({ 'GET partner/webhook': { body: { webhooks: [webhook()] } }, 'GET partner/activity': { body: { activities: [delivery()], total: 1 } } });
    const { user } = renderWebhooks();
    await screen.findAllByTestId('webhook-row');
    expect(screen.getByText('You do not have edit access because you are not an admin')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Add endpoint|Edit|Delete|Send test|Roll secret/ })).toBeNull();
    await user.click(await screen.findByRole('button', { name: /SETTLEMENT.COMPLETE/ }));
    expect(screen.queryByRole('button', { name: 'Resend' })).toBeNull();
  });

  it('says so when webhooks are not enabled for the partner', async () => {
    signIn('admin');
    mockApi({ 'GET partner/webhook': apiError(403, 'Forbidden', 'Webhooks are not enabled for your account.') });
    renderWebhooks();
    expect(await screen.findByText('Webhooks are not enabled for your account.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add endpoint' })).toBeNull();
  });
});

/** The delivery whose second attempt someone sent again by hand. */
function resentByHand(): WebhookDelivery {
  const d = delivery();
  return { ...d, attempts: [d.attempts[0]!, { ...d.attempts[1]!, trigger: 'manual' }] };
}

// a failing endpoint with a French description and four events
const frenchWebhook = webhook({
  description: 'Synchronisation comptable',
  events: ['SETTLEMENT.COMPLETE', 'PAYMENT.FAILED', 'PAYMENT.COMPLETE', 'COLLECTION.COMPLETE'],
  state: 'failing',
  failingSince: '2026-11-21T10:00:00.000Z',
});

describe('webhooks screen in French', () => {
  inFrench('admin');

  it('shows the endpoints, the deliveries and their attempts in French, dates written the French way', async () => {
    mockApi({
      'GET partner/webhook': { body: { webhooks: [frenchWebhook] } },
      'GET partner/activity': { body: { activities: [resentByHand()], total: 1 } },
    });
    const { user } = renderScreen(<WebhooksScreen />, { path: '/webhooks' });
    const [row] = await screen.findAllByTestId('webhook-row');
    expect(screen.getByRole('heading', { name: 'Points de terminaison' })).toBeTruthy();
    expect(within(row!).getByText('En échec')).toBeTruthy();
    expect(within(row!).getByText('+1 autre')).toBeTruthy();
    expect(row!.textContent).toContain('Ajouté le 20 nov. 2026, 10:00 UTC · en échec depuis le 21 nov. 2026, 10:00 UTC');
    expect(within(row!).getByRole('button', { name: 'Renouveler le secret de https://hooks.acme.test/portal' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Ajouter un point de terminaison' })).toBeTruthy();

    expect(await screen.findByRole('heading', { name: 'Livraisons' })).toBeTruthy();
    const deliveryRow = screen.getByTestId('delivery-row');
    expect(within(deliveryRow).getByText('Échouée')).toBeTruthy();
    expect(deliveryRow.textContent).toContain('2 tentatives');
    expect(screen.getByTestId('delivery-page-summary').textContent).toBe('1–1 sur 1');

    await user.click(within(deliveryRow).getByRole('button', { name: /SETTLEMENT.COMPLETE/ }));
    const attempts = screen.getAllByTestId('attempt-row');
    expect(attempts[1]!.textContent).toContain('Délai dépassé');
    expect(attempts[1]!.textContent).toContain('10\u202f000 ms');
    expect(within(attempts[1]!).getByText('Manuel')).toBeTruthy();
    expect(screen.getByText('ID de l’événement (webhook-id)')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Renvoyer' })).toBeTruthy();
  });
});
