import { CURRENCY_NAMES, countryName } from '@portal/contract/countries';
import { currentLanguage, type Language } from './i18n.ts';

/**
 * Country and currency names in the language in force. The contract's list holds the English names; the French
 * ones come from the browser's own data (Intl.DisplayNames), which knows every two-letter and currency code. Making
 * those objects costs time on first use (~20 ms of a phone's first paint), so each is made once, when first asked.
 */
const names = new Map<string, Intl.DisplayNames>();

/** A name from the browser's data, or undefined when the code is not one it takes (it throws on a malformed code). */
export function displayName(type: 'region' | 'currency', code: string, language: Language = currentLanguage()): string | undefined {
  try {
    let of = names.get(`${type}:${language}`);
    if (!of) names.set(`${type}:${language}`, (of = new Intl.DisplayNames([language], { type })));
    const name = of.of(code);
    return name && name !== code ? name : undefined;
  } catch {
    return undefined;
  }
}

/** A country's name (Kenya, Côte d’Ivoire, Afrique du Sud), or its code when no list has it. */
export function localCountryName(locale: string, language: Language = currentLanguage()): string {
  if (language === 'fr' && /^[A-Za-z]{2}$/.test(locale)) return displayName('region', locale.toUpperCase(), 'fr') ?? countryName(locale);
  return countryName(locale);
}

/** A local currency's name as it is read next to its code ("Kenyan shilling", "Shilling kényan"); empty when unknown. */
export function localCurrencyName(code: string, language: Language = currentLanguage()): string {
  const english = CURRENCY_NAMES[code as keyof typeof CURRENCY_NAMES] ?? '';
  if (language !== 'fr' || !english || !/^[A-Za-z]{3}$/.test(code)) return english;
  const name = displayName('currency', code.toUpperCase(), 'fr');
  // French writes currency names in lower case; alone on a line it starts with a capital
  return name ? name.charAt(0).toUpperCase() + name.slice(1) : english;
}

/** A text as a search compares it: lower case, accents dropped ("Côte" is found by "cote"). */
export const searchText = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
