import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, mockApi } from '../../../testing/api-mock.ts';
import { channel, network, profile, signIn } from '../../../testing/factories.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { CoverageScreen } from './coverage.tsx';
import { inFrench } from '../../../testing/french.ts';

const momoIn = channel({ channelType: 'momo', rampType: 'deposit' });
const momoOut = channel({ channelType: 'momo', rampType: 'withdraw', feeLocal: '30.00000000', feeUSD: '0.23000000', estimatedSettlementTime: 60 });
const bankOut = channel({ channelType: 'bank', rampType: 'withdraw', min: '100.00000000', max: '5000000.00000000', feeLocal: '100.00000000', feeUSD: '0.78000000', estimatedSettlementTime: 900, apiStatus: 'active', widgetStatus: 'inactive' });
const ghMomo = channel({ country: 'GH', currency: 'GHS', channelType: 'momo' });
const NETWORKS = [
  network({ name: 'M-Pesa', code: 'MPESA', channelIds: [momoIn.id, momoOut.id] }),
  network({ name: 'Equity Bank', code: 'EQUITY', accountNumberType: 'bank', channelIds: [bankOut.id] }),
  network({ name: 'HaloPesa', code: 'HALOPESA', tempDisabledFor: ['withdraw'], channelIds: [momoIn.id] }),
  network({ name: 'MTN Mobile Money', code: 'MTN', country: 'GH', channelIds: [ghMomo.id] }),
];

function setupApi() {
  signIn('view');
  return mockApi({
    'GET partner/profile': { body: profile() },
    'GET channels': { body: { channels: [momoIn, momoOut, bankOut, ghMomo] } },
    'GET networks': { body: { networks: NETWORKS } },
  });
}
const rowsOf = (testId: string) => screen.queryAllByTestId(testId);

describe('coverage screen', () => {
  it('opens on every country at a glance, then a country shows its channels and networks', async () => {
    setupApi();
    const { user, router } = renderScreen(<CoverageScreen />, { path: '/coverage' });
    const list = await screen.findByRole('list', { name: 'Countries covered' });
    const cards = within(list).getAllByRole('button');
    expect(cards.map((c) => c.textContent)).toEqual(['GhanaGHS1deposit0withdrawal1networksMobile money', 'KenyaKES1deposit2withdrawal3networksMobile moneyBank transfer']);
    await user.click(cards[1]!);
    expect(router.state.location.search).toBe('?country=KE');
    expect(await screen.findByRole('heading', { name: 'Kenya' })).toBeTruthy();
    expect(screen.getByText('KES · dialling code +254')).toBeTruthy();
    expect(rowsOf('channel-row')).toHaveLength(3);
    const bank = rowsOf('channel-row').find((r) => r.textContent?.includes('Bank transfer'))!;
    for (const text of ['Withdrawal', '100.00 – 5,000,000.00', 'KES 100.00', '≈ USD 0.78', '≈ 15 min', 'Automatic', 'Active', 'API only']) expect(bank.textContent).toContain(text);
    expect(rowsOf('network-row').map((r) => r.textContent)).toEqual([
      expect.stringMatching(/^M-PesaMPESA.*Phone number.*Mobile money · Deposit, Withdrawal.*Active/),
      expect.stringMatching(/^Equity BankEQUITY.*Bank account number.*Bank transfer · Withdrawal.*Active/),
      expect.stringMatching(/^HaloPesa.*Paused for withdrawals/),
    ]);
  });

  it('filters by direction, channel type and search, and picks a country from the searchable picker', async () => {
    setupApi();
    const { user } = renderScreen(<CoverageScreen />, { path: '/coverage', url: '/coverage?country=ke' });
    await screen.findByRole('heading', { name: 'Kenya' });
    await user.click(screen.getByRole('radio', { name: 'Deposit' }));
    expect(rowsOf('channel-row')).toHaveLength(1);
    expect(rowsOf('network-row').map((r) => r.textContent?.split('MPESA')[0])).toEqual(expect.arrayContaining(['M-Pesa']));
    await user.click(screen.getByRole('radio', { name: 'All' }));
    await user.click(screen.getByRole('radio', { name: 'Bank transfer' }));
    expect(rowsOf('channel-row')).toHaveLength(1);
    expect(rowsOf('network-row')).toHaveLength(1);
    await user.click(screen.getByRole('radio', { name: 'All types' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search networks and channels' }), 'pesa');
    expect(rowsOf('network-row')).toHaveLength(2);
    await user.clear(screen.getByRole('searchbox', { name: 'Search networks and channels' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search networks and channels' }), 'airtel');
    expect(screen.getByText('No channel matches these filters.')).toBeTruthy();
    // the picker: type a name, Enter picks it
    await user.click(screen.getByRole('button', { name: 'Country: Kenya' }));
    await user.keyboard('Gha{Enter}');
    expect(await screen.findByRole('heading', { name: 'Ghana' })).toBeTruthy();
    expect(rowsOf('network-row').map((r) => r.textContent)).toEqual([expect.stringContaining('MTN Mobile Money')]);
    await user.click(screen.getByRole('button', { name: 'All countries' }));
    await waitFor(() => expect(screen.getByRole('list', { name: 'Countries covered' })).toBeTruthy());
  });

  it('says when coverage cannot load', async () => {
    signIn('view');
    mockApi({ 'GET partner/profile': { body: profile() }, 'GET channels': apiError(500, 'InternalError', 'Something went wrong on our side.'), 'GET networks': { body: { networks: [] } } });
    renderScreen(<CoverageScreen />, { path: '/coverage' });
    expect(await screen.findByText('Coverage could not be loaded: Something went wrong on our side.')).toBeTruthy();
  });
});

describe('coverage screen in French', () => {
  inFrench();

  it('draws the overview and a country in French, amounts written the French way', async () => {
    setupApi();
    const { user } = renderScreen(<CoverageScreen />, { path: '/coverage' });
    expect(screen.getByRole('heading', { name: 'Couverture' })).toBeTruthy();
    const list = await screen.findByRole('list', { name: 'Pays couverts' });
    expect(within(list).getAllByRole('button').map((c) => c.textContent)).toEqual([
      'GhanaGHS1dépôt0retrait1réseauxMobile Money',
      'KenyaKES1dépôt2retrait3réseauxMobile MoneyVirement bancaire',
    ]);
    await user.click(within(list).getAllByRole('button')[1]!);
    expect(await screen.findByRole('heading', { name: 'Kenya' })).toBeTruthy();
    expect(screen.getByText('KES · indicatif +254')).toBeTruthy();
    expect(screen.getByRole('table', { name: 'Canaux' })).toBeTruthy();
    const bank = rowsOf('channel-row').find((r) => r.textContent?.includes('Virement bancaire'))!;
    for (const text of ['Retrait', '100,00 – 5\u202f000\u202f000,00', '100,00\u00a0KES', '≈ 0,78\u00a0USD', '≈\u00a015\u00a0min', 'Automatique', 'Actif', 'API uniquement']) {
      expect(bank.textContent).toContain(text);
    }
    expect(rowsOf('network-row').map((r) => r.textContent)).toEqual([
      expect.stringMatching(/^M-PesaMPESA.*Numéro de téléphone.*Mobile Money · Dépôt, Retrait.*Actif/),
      expect.stringMatching(/^Equity BankEQUITY.*Numéro de compte bancaire.*Virement bancaire · Retrait.*Actif/),
      expect.stringMatching(/^HaloPesa.*Suspendu pour les retraits/),
    ]);
    // the filters and the search speak French too: "virement" finds the bank transfer channel
    await user.click(screen.getByRole('radio', { name: 'Dépôt' }));
    expect(rowsOf('channel-row')).toHaveLength(1);
    await user.click(screen.getByRole('radio', { name: 'Tous' }));
    await user.type(screen.getByRole('searchbox', { name: 'Rechercher des réseaux et des canaux' }), 'virement');
    expect(rowsOf('channel-row')).toHaveLength(1);
    expect(rowsOf('network-row').map((r) => r.textContent?.split('EQUITY')[0])).toEqual(['Equity Bank']);
    await user.type(screen.getByRole('searchbox', { name: 'Rechercher des réseaux et des canaux' }), 'xyz');
    expect(screen.getByText('Aucun canal ne correspond à ces filtres.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Tous les pays' }));
    expect(await screen.findByRole('list', { name: 'Pays couverts' })).toBeTruthy();
  });
});
