import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { mockApi } from '../../../testing/api-mock.ts';
import { profile, signIn } from '../../../testing/factories.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { buildInfo } from '../../../lib/build-info.ts';
import { AboutScreen } from './about.tsx';

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
