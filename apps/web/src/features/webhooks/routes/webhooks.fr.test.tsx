import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Webhook, WebhookDelivery } from '@portal/contract/webhooks';
import { setLanguage } from '../../../lib/i18n.ts';
import { mockApi } from '../../../testing/api-mock.ts';
import { PARTNER_ID, signIn } from '../../../testing/factories.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { WebhooksScreen } from './webhooks.tsx';

const ID = '0a5e00aa-0000-4000-8000-000000000001';
const webhook: Webhook = {
  id: ID,
  partnerId: PARTNER_ID,
  url: 'https://hooks.acme.test/portal',
  description: 'Synchronisation comptable',
  events: ['SETTLEMENT.COMPLETE', 'PAYMENT.FAILED', 'PAYMENT.COMPLETE', 'COLLECTION.COMPLETE'],
  active: true,
  state: 'failing',
  failingSince: '2026-11-21T10:00:00.000Z',
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
};
const delivery: WebhookDelivery = {
  id: '0a5e00bb-0000-4000-8000-000000000001',
  webhookId: ID,
  url: webhook.url,
  eventId: 'evt_0a5e00cc000040008000000000000001',
  eventType: 'SETTLEMENT.COMPLETE',
  payload: { id: 'evt_0a5e00cc000040008000000000000001', type: 'SETTLEMENT.COMPLETE', timestamp: '2026-11-20T10:00:00.000Z', data: { id: 's1' } },
  status: 'failed',
  note: null,
  nextAttemptAt: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  attempts: [
    { attemptedAt: '2026-11-20T10:00:00.000Z', statusCode: 503, durationMs: 84, responseSnippet: 'upstream unavailable', error: null, trigger: 'automatic' },
    { attemptedAt: '2026-11-20T10:00:05.000Z', statusCode: null, durationMs: 10000, responseSnippet: null, error: 'Timed out after 10 s', trigger: 'manual' },
  ],
};

describe('webhooks screen in French', () => {
  beforeEach(async () => {
    await setLanguage('fr');
    signIn('admin');
  });
  afterEach(() => setLanguage('en'));

  it('shows the endpoints, the deliveries and their attempts in French, dates written the French way', async () => {
    mockApi({
      'GET partner/webhook': { body: { webhooks: [webhook] } },
      'GET partner/activity': { body: { activities: [delivery], total: 1 } },
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
