import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { mockApi } from '../../../testing/api-mock.ts';
import { profile, signIn } from '../../../testing/factories.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { buildInfo } from '../../../lib/build-info.ts';
import { formatDate } from '../../../lib/format.ts';
import { AboutScreen } from './about.tsx';
import { inFrench } from '../../../testing/french.ts';

describe('about screen', () => {
  afterEach(() => document.head.querySelector('meta[name="portal-config"]')?.remove());

  it('names the product, its version and build, and links the API documentation and support', async () => {
    const meta = document.createElement('meta');
    meta.name = 'portal-config';
    meta.content = JSON.stringify({ supportEmail: 'help@provider.test' });
    document.head.append(meta);
    signIn('view');
    mockApi({ 'GET partner/profile': { body: profile() } });
    renderScreen(<AboutScreen />, { path: '/about' });
    const details = screen.getByTestId('about-details');
    expect(within(details).getByText('Partner Dashboard')).toBeTruthy();
    // the build's values, written in by vite's define (the tests run through the same config)
    expect(buildInfo.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(within(details).getByText(buildInfo.version)).toBeTruthy();
    expect(within(details).getByText(buildInfo.commit)).toBeTruthy();
    expect(await within(details).findByText('Acme Remit', { exact: false })).toBeTruthy();
    const docs = screen.getByRole('link', { name: /API documentation/ });
    expect(docs.getAttribute('href')).toBe('/api/docs');
    expect(docs.getAttribute('target')).toBe('_blank');
    expect(screen.getByRole('link', { name: /Support/ }).getAttribute('href')).toBe('mailto:help@provider.test');
  });
});

describe('about screen in French', () => {
  inFrench('view');

  it('names its rows and links in French, the build date in French', async () => {
    mockApi({ 'GET partner/profile': { body: profile() } });
    renderScreen(<AboutScreen />, { path: '/about' });
    expect(screen.getByRole('heading', { name: 'À propos' })).toBeTruthy();
    // the no-break space before the colon, as French sets it
    expect(screen.getByText(/les soldes, les transactions/).textContent).toBe(
      'Partner Dashboard\u00a0: les soldes, les transactions et les paramètres de votre entreprise chez nous.',
    );
    const details = screen.getByTestId('about-details');
    for (const term of ['Produit', 'Version', 'Révision', 'API']) expect(within(details).getByText(term)).toBeTruthy();
    expect(await within(details).findByText('Partenaire')).toBeTruthy();
    // the build's date as French writes it ("28 nov. 2026, 01:29 UTC")
    expect(buildInfo.builtAt).not.toBe('');
    const built = formatDate(buildInfo.builtAt);
    expect(built).toMatch(/^\d{1,2} [a-zéû]+\.? \d{4}/);
    expect(within(details).getByText(`· générée le ${built}`, { exact: false })).toBeTruthy();
    expect(screen.getByRole('link', { name: /Documentation de l’API/ }).getAttribute('href')).toBe('/api/docs');
    expect(screen.getByRole('link', { name: /Assistance/ })).toBeTruthy();
    expect(screen.getByLabelText('(s’ouvre dans un nouvel onglet)')).toBeTruthy();
  });
});
