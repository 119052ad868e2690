import type { Language } from './i18n.ts';

/**
 * Numbers, days and country names as each language writes them, one definition for the portal's screens, the
 * server's e-mails and notifications, and the security history's sentences: "1,234.56" and "Nov 16, 2026" in
 * English; "1 234,56" (a narrow no-break space between the thousands, a decimal comma) and "16 nov. 2026" in French,
 * as `Intl` writes them in en-US and fr-FR, without its data (loading it costs a phone's first render tens of ms).
 */

/** The digits of an integer grouped by thousands: "10,000", "10 000". */
export const groupDigits = (digits: string, language: Language): string => digits.replace(/\B(?=(\d{3})+(?!\d))/g, language === 'fr' ? '\u202f' : ',');

/** A plain decimal ("-1234.5") with the language's digit groups and decimal mark; any other text as it is. */
export function localDecimal(plain: string, language: Language): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(plain);
  if (!m) return plain;
  return `${m[1]}${groupDigits(m[2]!, language)}${m[3] ? `${language === 'fr' ? ',' : '.'}${m[3]}` : ''}`;
}

/** Written figures with their currency or coin: "USD 1,234.56" in English, "1 234,56 USD" in French. */
export const withCurrency = (figures: string, currency: string, language: Language): string =>
  language === 'fr' ? `${figures}\u00a0${currency}` : `${currency} ${figures}`;

const MONTHS: Record<Language, readonly string[]> = {
  en: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
  fr: ['janv.', 'févr.', 'mars', 'avr.', 'mai', 'juin', 'juil.', 'août', 'sept.', 'oct.', 'nov.', 'déc.'],
};
const two = (n: number) => String(n).padStart(2, '0');

/** An instant's day and time in UTC: { day: "Nov 16, 2026" | "16 nov. 2026", time: "01:44" }. */
export function utcDayAndTime(at: Date, language: Language): { day: string; time: string } {
  const month = MONTHS[language][at.getUTCMonth()]!;
  const year = at.getUTCFullYear();
  const day = language === 'fr' ? `${at.getUTCDate()} ${month} ${year}` : `${month} ${at.getUTCDate()}, ${year}`;
  return { day, time: `${two(at.getUTCHours())}:${two(at.getUTCMinutes())}` };
}

// made on first use, once per language and kind: the first costs tens of milliseconds of a phone's first paint
const names = new Map<string, Intl.DisplayNames>();

/** A region's or currency's name from the runtime's own data, or undefined when it has none (or the code is malformed). */
export function displayName(type: 'region' | 'currency', code: string, language: Language): string | undefined {
  try {
    let of = names.get(`${type}:${language}`);
    if (!of) names.set(`${type}:${language}`, (of = new Intl.DisplayNames([language], { type })));
    const name = of.of(code);
    return name && name !== code ? name : undefined;
  } catch {
    return undefined;
  }
}
