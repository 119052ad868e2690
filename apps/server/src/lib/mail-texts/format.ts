import { countryName } from '@portal/contract/countries';
import { normalise, plainDecimal } from '@portal/contract/decimal';
import type { Language } from '@portal/contract/i18n';

/**
 * Amounts, times and country names as an e-mail or a notification writes them in each language: "USD 1,234.56" and
 * "Nov 16, 2026, 01:44 UTC" in English, "1 234,56 USD" (narrow no-break spaces between the thousands, a no-break
 * space before the currency) and "16 nov. 2026, 01:44 UTC" in French, as the portal's own formatters write them.
 */

const MONTHS: Record<Language, readonly string[]> = {
  en: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
  fr: ['janv.', 'févr.', 'mars', 'avr.', 'mai', 'juin', 'juil.', 'août', 'sept.', 'oct.', 'nov.', 'déc.'],
};
const two = (n: number) => String(n).padStart(2, '0');

/** A time in UTC: "Nov 26, 2026, 14:03 UTC", "26 nov. 2026, 14:03 UTC". */
export function utcDateTime(at: Date, language: Language): string {
  const month = MONTHS[language][at.getUTCMonth()]!;
  const day = language === 'fr' ? `${at.getUTCDate()} ${month} ${at.getUTCFullYear()}` : `${month} ${at.getUTCDate()}, ${at.getUTCFullYear()}`;
  return `${day}, ${two(at.getUTCHours())}:${two(at.getUTCMinutes())} UTC`;
}

/** A plain decimal ("-1234.5") with the language's digit groups and decimal mark. */
function localDecimal(plain: string, language: Language): string {
  const [, sign = '', whole = '', fraction] = /^(-?)(\d+)(?:\.(\d+))?$/.exec(plain) ?? [];
  if (!whole) return plain;
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, language === 'fr' ? '\u202f' : ',');
  return `${sign}${grouped}${fraction ? `${language === 'fr' ? ',' : '.'}${fraction}` : ''}`;
}

/** Money with two decimals: "USD 1,250.00", "1 250,00 USD". */
export function moneyText(amount: string, currency: string, language: Language): string {
  const figures = localDecimal(normalise(amount, 2), language);
  return language === 'fr' ? `${figures}\u00a0${currency}` : `${currency} ${figures}`;
}

/**
 * A coin amount with two to eight decimals, after the figure in both languages: "7957.00 USDT" in English (as
 * before: no digit groups), "7 957,00 USDT" in French.
 */
export function coinText(amount: string, coin: string, language: Language): string {
  const plain = plainDecimal(amount, 2, 8);
  return language === 'fr' ? `${localDecimal(plain, language)}\u00a0${coin}` : `${plain} ${coin}`;
}

const frenchRegions = new Intl.DisplayNames(['fr'], { type: 'region' });

/** A country's name from its ISO code: the portal's English list, the French names Intl knows. */
export function countryText(code: string, language: Language): string {
  if (language === 'fr') {
    try {
      const name = frenchRegions.of(code.toUpperCase());
      if (name && name !== code.toUpperCase()) return name;
    } catch {
      // not a region code: the English list (or the code itself) below
    }
  }
  return countryName(code);
}
