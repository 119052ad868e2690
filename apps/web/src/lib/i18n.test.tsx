import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { formatDate, formatMoney } from './format.ts';
import { LanguageScope, browserLanguage, currentLanguage, defineMessages, initialLanguage, localizeMessage, setLanguage, translator, useT } from './i18n.ts';

const sample = defineMessages('sample-test', {
  title: 'Transactions',
  rows_one: '{{count}} row',
  rows_other: '{{count}} rows',
  signedIn: 'Signed in as <b>{{email}}</b>, {{role}}',
  missingInFrench: 'Only in English',
});

afterEach(async () => {
  await setLanguage('en');
  localStorage.clear();
});

describe('the translation runtime', () => {
  it('writes English by default: plurals by count, values put in, integers grouped', () => {
    const t = translator(sample);
    expect(t('title')).toBe('Transactions');
    expect(t('rows', { count: 1 })).toBe('1 row');
    expect(t('rows', { count: 0 })).toBe('0 rows');
    expect(t('rows', { count: 10000 })).toBe('10,000 rows');
  });

  it('reads a French catalogue once French is set, and falls back to English for a key it lacks', async () => {
    await setLanguage('fr');
    const t = translator(sample);
    // the part has no French file: every key falls back
    expect(t('title')).toBe('Transactions');
    const common = translator(defineMessages('common', { 'notFound.title': 'Page not found' }));
    expect(common('notFound.title')).toBe('Page introuvable');
    // French puts 0 and 1 in the singular and groups with a narrow no-break space
    const plural = defineMessages('common', { n_one: '{{count}} row', n_other: '{{count}} rows' });
    expect(translator(plural, 'en')('n', { count: 0 })).toBe('0 rows');
    expect(translator(plural)('n', { count: 10000 })).toBe('10\u202f000 rows');
    expect(document.documentElement.lang).toBe('fr');
  });

  it('draws elements inside a text', () => {
    function Probe() {
      const t = useT(sample);
      return <p data-testid="p">{t.rich('signedIn', { b: (text) => <strong>{text}</strong>, email: 'ana@acme.test', role: 'admin' })}</p>;
    }
    render(<Probe />);
    const p = screen.getByTestId('p');
    expect(p.textContent).toBe('Signed in as ana@acme.test, admin');
    expect(p.querySelector('strong')?.textContent).toBe('ana@acme.test');
  });

  it('draws the whole tree again when the language changes, numbers and dates included', async () => {
    function Probe() {
      return <p data-testid="p">{`${formatMoney('1234.5', 'USD')} · ${formatDate('2026-11-16T01:44:00Z')}`}</p>;
    }
    render(
      <LanguageScope>
        <Probe />
      </LanguageScope>,
    );
    expect(screen.getByTestId('p').textContent).toBe('USD 1,234.50 · Nov 16, 2026, 01:44 UTC');
    await setLanguage('fr');
    await waitFor(() => expect(screen.getByTestId('p').textContent).toBe('1\u202f234,50\u00a0USD · 16 nov. 2026, 01:44 UTC'));
  });

  it('keeps a chosen language for the next visit, not the browser’s', async () => {
    await setLanguage('fr');
    expect(localStorage.getItem('portal-language')).toBeNull();
    expect(initialLanguage()).toBe(browserLanguage());
    await setLanguage('fr', { remember: true });
    await setLanguage('en');
    expect(currentLanguage()).toBe('en');
    expect(initialLanguage()).toBe('fr');
  });

  it('translates a contract message only in French, and leaves one it does not know as it is', async () => {
    const known = 'The page you asked for does not exist.';
    expect(localizeMessage(known)).toBe(known);
    await setLanguage('fr');
    expect(localizeMessage('A message no catalogue has')).toBe('A message no catalogue has');
  });
});
