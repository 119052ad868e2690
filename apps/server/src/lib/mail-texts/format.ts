import { normalise, plainDecimal } from '@portal/contract/decimal';
import type { Language } from '@portal/contract/i18n';
import { localDecimal, utcDayAndTime, withCurrency } from '@portal/contract/written';

/**
 * Amounts and times as an e-mail or a notification writes them in each language: "USD 1,234.56" and
 * "Nov 16, 2026, 01:44 UTC" in English, "1 234,56 USD" (narrow no-break spaces between the thousands, a no-break
 * space before the currency) and "16 nov. 2026, 01:44 UTC" in French, as the portal's own formatters write them.
 */

/** A time in UTC: "Nov 26, 2026, 14:03 UTC", "26 nov. 2026, 14:03 UTC". */
export function utcDateTime(at: Date, language: Language): string {
  const { day, time } = utcDayAndTime(at, language);
  return `${day}, ${time} UTC`;
}

/** Money with two decimals: "USD 1,250.00", "1 250,00 USD". */
export function moneyText(amount: string, currency: string, language: Language): string {
  return withCurrency(localDecimal(normalise(amount, 2), language), currency, language);
}

/**
 * A coin amount with two to eight decimals, after the figure in both languages: "7957.00 USDT" in English (as
 * before: no digit groups), "7 957,00 USDT" in French.
 */
export function coinText(amount: string, coin: string, language: Language): string {
  const plain = plainDecimal(amount, 2, 8);
  return language === 'fr' ? withCurrency(localDecimal(plain, language), coin, language) : `${plain} ${coin}`;
}
