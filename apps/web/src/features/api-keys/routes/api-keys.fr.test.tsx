import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ApiKey } from '@portal/contract/api-keys';
import { mockApi } from '../../../testing/api-mock.ts';
import { PARTNER_ID, profile } from '../../../testing/factories.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { ApiKeysScreen } from './api-keys.tsx';
import { inFrench } from '../../../testing/french.ts';

const key: ApiKey = {
  partnerId: PARTNER_ID,
  mode: 'live',
  apiKey: 'ak_live_0123456789abcdef0123456789abcdef',
  name: 'Serveur de décaissements',
  status: 'disabled',
  permissions: ['api_read', 'api_write'],
  publicKey: 'pk_public',
  secretHint: 'WXYZ',
  expiry: null,
  expired: false,
  previousSecretExpiresAt: '2026-11-22T18:05:00.000Z',
  lastUsedAt: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
};

describe('API keys screen in French', () => {
  inFrench('admin');

  it('lists the keys, their permissions and dates, the allowed addresses and the roll choices in French', async () => {
    mockApi({
      'GET partner/profile': { body: profile({}, { whitelistedIpsEnabled: true }) },
      'GET partner/ip-addresses': { body: { ipAddresses: [{ ipAddress: '203.0.113.7', status: 'whitelisted', createdAt: key.createdAt, createdBy: null }] } },
      'GET partner/apikey': { body: { apiKeys: [key] } },
    });
    const { user } = renderScreen(<ApiKeysScreen />, { path: '/api-keys' });
    const [row] = await screen.findAllByTestId('api-key-row');
    expect(screen.getByRole('heading', { name: 'Clés API', level: 1 })).toBeTruthy();
    expect(within(row!).getByText('Production')).toBeTruthy();
    expect(within(row!).queryByText('Live')).toBeNull();
    expect(within(row!).getByText('Lecture API')).toBeTruthy();
    expect(within(row!).getByText('Écriture API')).toBeTruthy();
    expect(within(row!).getByText('Inactive')).toBeTruthy();
    expect(row!.textContent).toContain('20 nov. 2026');
    expect(row!.textContent).toContain('L’ancien secret reste valable jusqu’au 22 nov. 2026, 18:05 UTC');
    expect(within(row!).getAllByText('Jamais')).toHaveLength(2);
    expect(within(row!).getByRole('button', { name: 'Activer Serveur de décaissements' })).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'Dernière utilisation' })).toBeTruthy();

    expect(await screen.findByRole('heading', { name: 'Adresses IP autorisées' })).toBeTruthy();
    expect(within(await screen.findByTestId('ip-address-row')).getByText('Autorisée')).toBeTruthy();

    await user.click(within(row!).getByRole('button', { name: 'Renouveler le secret de Serveur de décaissements' }));
    const dialog = await screen.findByRole('dialog', { name: 'Renouveler le secret de la clé API «\u00a0Serveur de décaissements\u00a0»' });
    for (const choice of ['Immédiatement', 'Dans 1 heure', 'Dans 24 heures', 'Dans 3 jours', 'Dans 7 jours']) {
      expect(within(dialog).getByRole('radio', { name: choice })).toBeTruthy();
    }
    expect(within(dialog).getByRole('button', { name: 'Annuler' })).toBeTruthy();
  });

  it('asks for the mode in French and says the new key is a test key', async () => {
    const api = mockApi({
      'GET partner/profile': { body: profile({}, { whitelistedIpsEnabled: false }) },
      'GET partner/apikey': { body: { apiKeys: [] } },
      'POST partner/apikey': { status: 201, body: { apiKey: { ...key, mode: 'test', name: 'Bac à sable', status: 'active', secretKey: 'sk_secret' } } },
    });
    const { user } = renderScreen(<ApiKeysScreen />, { path: '/api-keys' });
    await user.click((await screen.findAllByRole('button', { name: 'Créer une clé API' }))[0]!);
    const dialog = await screen.findByRole('dialog');
    const group = within(dialog).getByRole('group', { name: 'Mode' });
    expect(group.textContent).toBe(
      'ModeProductionAccède à vos soldes et transactions réels.' +
        'TestN’accède qu’aux données de test\u00a0: des paiements du bac à sable qui ne déplacent jamais d’argent réel.',
    );
    expect(dialog.textContent).not.toMatch(/Live|Reaches/);
    await user.click(within(group).getByRole('radio', { name: /^Test/ }));
    await user.type(within(dialog).getByLabelText('Nom'), 'Bac à sable');
    await user.click(within(dialog).getByRole('button', { name: 'Créer la clé' }));
    await within(dialog).findByTestId('secret-key');
    expect((api.to('POST partner/apikey')[0]!.body as { mode: string }).mode).toBe('test');
    expect(dialog.textContent).toContain('La clé de test «\u00a0Bac à sable\u00a0» est active.');
  });
});
