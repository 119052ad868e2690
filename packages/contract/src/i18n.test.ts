import { describe, expect, it } from 'vitest';
import { pickLanguage, translateMessage } from './i18n.ts';

describe('pickLanguage', () => {
  it('reads tags in order and Accept-Language by its weights', () => {
    expect(pickLanguage(['fr-CI', 'en'])).toBe('fr');
    expect(pickLanguage(['de-DE', 'en-GB'])).toBe('en');
    expect(pickLanguage(['de'])).toBeUndefined();
    expect(pickLanguage('en;q=0.5, fr-SN;q=0.9, de')).toBe('fr');
    expect(pickLanguage('de, fr;q=0')).toBeUndefined();
    expect(pickLanguage('FR')).toBe('fr');
    expect(pickLanguage(undefined)).toBeUndefined();
    expect(pickLanguage('')).toBeUndefined();
  });
});

describe('translateMessage', () => {
  const fr = {
    'Enter a valid e-mail address.': 'Saisissez une adresse e-mail valide.',
    'Amount must be at most {{max}} ({{currency}})': 'Le montant doit être d’au plus {{max}} ({{currency}})',
  };
  it('translates a text it has, a template with its parts carried over, and leaves any other as it is', () => {
    expect(translateMessage('Enter a valid e-mail address.', fr)).toBe('Saisissez une adresse e-mail valide.');
    expect(translateMessage('Amount must be at most 1,000.00 (USD)', fr)).toBe('Le montant doit être d’au plus 1,000.00 (USD)');
    expect(translateMessage('Amount must be at least 5', fr)).toBe('Amount must be at least 5');
    expect(translateMessage('Amount must be at most 5 (USD) today', fr)).toBe('Amount must be at most 5 (USD) today');
    expect(translateMessage('anything', undefined)).toBe('anything');
  });
});
