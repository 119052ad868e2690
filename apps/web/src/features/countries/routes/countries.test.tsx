import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { RATE_MESSAGES } from '@portal/contract/rates';
import { useToasts } from '../../../components/ui/toast-store.ts';
import { apiError, mockApi } from '../../../testing/api-mock.ts';
import { OTHER_ADMIN, USER_ID, partnerRate, profile, signIn } from '../../../testing/factories.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { visibleRates } from '../countries.ts';
import { CountriesScreen } from './countries.tsx';
import { inFrench } from '../../../testing/french.ts';

const KENYA = partnerRate('KE', 'KES', { status: 'enabled', buy: '128.90000000', sell: '130.20000000' });
const BENIN = partnerRate('BJ', 'XOF', { buy: '568.00000000', sell: '580.00000000' });
const GHANA = partnerRate('GH', 'GHS', { status: 'pending_enable', requestedBy: OTHER_ADMIN, requestedAt: '2026-11-20T10:00:00.000Z' });
const RATES = [BENIN, GHANA, KENYA];

const renderCountries = () => renderScreen(<CountriesScreen />, { path: '/countries' });
const row = (locale: string) => screen.getByTestId(`country-${locale}`);
/** The test ids of the country rows shown, in their order. */
const shownCountries = () => screen.getAllByTestId(/^country-/).map((r) => r.dataset.testid);

describe('enabled countries screen', () => {
  it('lists each country with its flag, currency, rates and status; enabled and pending first', async () => {
    signIn('admin');
    mockApi({ 'GET partner/profile': { body: profile() }, 'GET partner/rates': { body: { rates: RATES } } });
    renderCountries();
    await screen.findByTestId('country-KE');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Country', 'Currency', 'Buy rate', 'Sell rate', 'Status', 'Action']);
    expect(shownCountries()).toEqual(['country-KE', 'country-GH', 'country-BJ']);
    const kenya = within(row('KE'));
    expect(kenya.getByText('Kenya')).toBeTruthy();
    expect(kenya.getByText('KE · +254')).toBeTruthy();
    expect(kenya.getByText('Kenyan shilling')).toBeTruthy();
    expect(kenya.getByText('128.90')).toBeTruthy();
    expect(kenya.getByText('130.20')).toBeTruthy();
    expect(kenya.getByText('Enabled')).toBeTruthy();
    expect(row('KE').querySelector('img')?.getAttribute('src')).toMatch(/^data:image\/svg\+xml|ke\.svg/);
    expect(kenya.getByRole('button', { name: 'Disable Kenya' })).toBeTruthy();
    expect(within(row('BJ')).getByRole('button', { name: 'Enable Benin' })).toBeTruthy();
    // a pending country shows who asked, and offers no action until it is reviewed
    expect(within(row('GH')).getByText('Pending enable')).toBeTruthy();
    expect(within(row('GH')).getByText('Asked by Kwame Boateng')).toBeTruthy();
    expect(within(row('GH')).queryByRole('button')).toBeNull();
    expect(screen.getByLabelText('Summary').textContent).toBe('1enabled1pending approval1available to enable');
  });

  it('asks to enable a country after a confirmation, and says that another admin must approve', async () => {
    signIn('admin');
    const api = mockApi({
      'GET partner/profile': { body: profile() },
      'GET partner/rates': { body: { rates: RATES } },
      'PUT partner/rates': { body: { isValid: true } },
    });
    const { user } = renderCountries();
    await user.click(await screen.findByRole('button', { name: 'Enable Benin' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enable Benin?' });
    expect(within(dialog).getByText(/Acme Remit starts serving Benin once another admin approves this request/)).toBeTruthy();
    api.on('GET partner/rates', {
      body: {
        rates: [{ ...BENIN, status: 'pending_enable', requestedBy: { id: USER_ID, name: 'Ada Admin' }, requestedAt: '2026-11-20T10:00:00.000Z' }, GHANA, KENYA],
      },
    });
    await user.click(within(dialog).getByRole('button', { name: 'Request to enable' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.to('PUT partner/rates').map((c) => c.body)).toEqual([
      { rates: [{ partnerRateId: BENIN.id, platformRateId: BENIN.rateId, status: 'pending_enable' }] },
    ]);
    expect(useToasts.getState().toast.message).toBe('Request sent. Another admin must approve it.');
    await waitFor(() => expect(row('BJ').textContent).toContain('Pending enable'));
    expect(row('BJ').textContent).toContain('Asked by you');
  });

  it('asks to disable an enabled country, and shows the failure with the spec message and the reason', async () => {
    signIn('admin');
    const api = mockApi({
      'GET partner/profile': { body: profile() },
      'GET partner/rates': { body: { rates: RATES } },
      'PUT partner/rates': apiError(409, 'Conflict', 'Kenya (KES) already has a change waiting for review.'),
    });
    const { user } = renderCountries();
    await user.click(await screen.findByRole('button', { name: 'Disable Kenya' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disable Kenya?' });
    await user.click(within(dialog).getByRole('button', { name: 'Request to disable' }));
    expect(await within(dialog).findByText(`${RATE_MESSAGES.updateFailed}: Kenya (KES) already has a change waiting for review.`)).toBeTruthy();
    expect(useToasts.getState().toast.message).toBe(RATE_MESSAGES.updateFailed);
    expect(api.to('PUT partner/rates').map((c) => c.body)).toEqual([
      { rates: [{ partnerRateId: KENYA.id, platformRateId: KENYA.rateId, status: 'pending_disable' }] },
    ]);
  });

  it('is read-only for a non-admin', async () => {
    signIn('view');
    mockApi({ 'GET partner/profile': { body: profile() }, 'GET partner/rates': { body: { rates: RATES } } });
    renderCountries();
    await screen.findByTestId('country-KE');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).not.toContain('Action');
    expect(screen.queryByRole('button', { name: /Enable|Disable/ })).toBeNull();
    expect(screen.getByText('Only admins can enable or disable countries.')).toBeTruthy();
  });

  it("says 'Couldn't fetch partner rates' when the rates cannot load", async () => {
    signIn('admin');
    mockApi({ 'GET partner/profile': { body: profile() }, 'GET partner/rates': apiError(500, 'InternalError', 'boom') });
    renderCountries();
    expect(await screen.findByText(RATE_MESSAGES.fetchFailed)).toBeTruthy();
  });

  it('searches by name, code, currency and dialling code, and filters by status', async () => {
    signIn('admin');
    mockApi({ 'GET partner/profile': { body: profile() }, 'GET partner/rates': { body: { rates: RATES } } });
    const { user } = renderCountries();
    await screen.findByTestId('country-KE');
    await user.type(screen.getByRole('searchbox', { name: 'Search countries' }), 'cfa');
    expect(shownCountries()).toEqual(['country-BJ']);
    await user.clear(screen.getByRole('searchbox', { name: 'Search countries' }));
    await user.click(screen.getByRole('radio', { name: 'Pending' }));
    expect(shownCountries()).toEqual(['country-GH']);
    await user.click(screen.getByRole('radio', { name: 'Disabled' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search countries' }), 'kenya');
    expect(screen.getByText('No countries match')).toBeTruthy();
  });

  it('matches searches on every field it promises', () => {
    const codes = (q: string) => visibleRates(RATES, q, 'all').map((r) => r.locale);
    expect(codes('+254')).toEqual(['KE']);
    expect(codes('xof')).toEqual(['BJ']);
    expect(codes('gh')).toEqual(['GH']);
    expect(codes('cedi')).toEqual(['GH']);
  });
});

describe('enabled countries screen in French', () => {
  inFrench('admin');

  it('names the countries and currencies in French, writes rates the French way, and asks for a change in French', async () => {
    const api = mockApi({
      'GET partner/profile': { body: profile() },
      'GET partner/rates': { body: { rates: [...RATES, partnerRate('ZA', 'ZAR', { buy: '18250.50000000', sell: '18300.00000000' })] } },
      'PUT partner/rates': apiError(409, 'Conflict', 'Kenya (KES) already has a change waiting for review.'),
    });
    const { user } = renderCountries();
    await screen.findByTestId('country-KE');
    expect(screen.getByRole('heading', { name: 'Pays activés' })).toBeTruthy();
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Pays', 'Devise', 'Taux d’achat', 'Taux de vente', 'Statut', 'Action']);
    expect(screen.getByLabelText('Résumé').textContent).toBe('1activé1en attente d’approbation2disponibles à l’activation');
    // disabled countries sort by their French names: Afrique du Sud before Bénin
    expect(shownCountries()).toEqual(['country-KE', 'country-GH', 'country-ZA', 'country-BJ']);
    const benin = within(row('BJ'));
    expect(benin.getByText('Bénin')).toBeTruthy();
    expect(benin.getByText('Franc CFA (BCEAO)')).toBeTruthy();
    expect(benin.getByText('Désactivé')).toBeTruthy();
    expect(row('ZA').textContent).toContain('18\u202f250,50');
    expect(within(row('KE')).getByText('128,90')).toBeTruthy();
    expect(within(row('GH')).getByText('Activation en attente')).toBeTruthy();
    expect(within(row('GH')).getByText('Demandé par Kwame Boateng')).toBeTruthy();
    // the search finds a French name without its accents, and an English one
    await user.type(screen.getByRole('searchbox', { name: 'Rechercher des pays' }), 'afrique');
    expect(shownCountries()).toEqual(['country-ZA']);
    await user.clear(screen.getByRole('searchbox', { name: 'Rechercher des pays' }));
    await user.type(screen.getByRole('searchbox', { name: 'Rechercher des pays' }), 'benin');
    expect(shownCountries()).toEqual(['country-BJ']);
    await user.clear(screen.getByRole('searchbox', { name: 'Rechercher des pays' }));
    await user.click(screen.getByRole('radio', { name: 'En attente' }));
    expect(shownCountries()).toEqual(['country-GH']);
    await user.click(screen.getByRole('radio', { name: 'Tous' }));

    await user.click(screen.getByRole('button', { name: 'Désactiver Kenya' }));
    const dialog = await screen.findByRole('dialog', { name: 'Désactiver Kenya\u202f?' });
    expect(within(dialog).getByText(/Acme Remit cessera de servir ce pays \(Kenya\)/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Demander la désactivation' }));
    // the reason, from the server, is translated too when it is a message of the contract
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toBe(
      'Impossible de mettre à jour les taux du partenaire\u00a0: Kenya (KES)\u00a0: une modification attend déjà d’être examinée.',
    );
    expect(useToasts.getState().toast.message).toBe('Impossible de mettre à jour les taux du partenaire');
    expect(api.to('PUT partner/rates')).toHaveLength(1);
  });
});
