import { CURRENCY_NAMES, countryNameIn } from '@portal/contract/countries';
import { displayName } from '@portal/contract/written';
import { currentLanguage, type Language } from './i18n.ts';

/**
 * Country and currency names in the language in force. The contract's list holds the English names; the French
 * ones come from the browser's own data (Intl.DisplayNames, made once, when first asked: contract/written.ts).
 */

/** A country's name (Kenya, Côte d’Ivoire, Afrique du Sud), or its code when no list has it. */
export const localCountryName = (locale: string, language: Language = currentLanguage()): string => countryNameIn(locale, language);

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
