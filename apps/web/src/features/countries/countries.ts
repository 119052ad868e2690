import { countryByLocale, countryName } from '@portal/contract/countries';
import { isPending, type PartnerRate } from '@portal/contract/rates';
import { currentLanguage, type MessageKey } from '../../lib/i18n.ts';
import type en from '../../locales/en/countries.json';
import { localCountryName, localCurrencyName, searchText } from '../../lib/country-names.ts';

export type StatusFilter = 'all' | 'enabled' | 'disabled' | 'pending';
/** The status filter's choices; their labels are looked up where they are drawn. */
export const STATUS_FILTERS: { value: StatusFilter; label: MessageKey<typeof en> }[] = [
  { value: 'all', label: 'filter.all' },
  { value: 'enabled', label: 'filter.enabled' },
  { value: 'pending', label: 'filter.pending' },
  { value: 'disabled', label: 'filter.disabled' },
];

const matchesStatus = (r: PartnerRate, filter: StatusFilter) => filter === 'all' || (filter === 'pending' ? isPending(r.status) : r.status === filter);

/**
 * The rows shown: by status, and by a search of country name, two-letter code, currency code or name and dialling
 * code; enabled and pending countries first, then by name. Names are searched and sorted as they are shown (in the
 * language in force), and a name in English is found too; accents need not be typed.
 */
export function visibleRates(rates: PartnerRate[], query: string, filter: StatusFilter): PartnerRate[] {
  const q = searchText(query.trim());
  const language = currentLanguage();
  const rank = (r: PartnerRate) => (r.status === 'enabled' ? 0 : isPending(r.status) ? 1 : 2);
  const names = new Map(rates.map((r) => [r.locale, localCountryName(r.locale, language)]));
  const name = (r: PartnerRate) => names.get(r.locale) ?? r.locale;
  return rates
    .filter((r) => matchesStatus(r, filter))
    .filter((r) => {
      if (!q) return true;
      const texts = [
        name(r),
        countryName(r.locale),
        r.locale,
        r.code,
        localCurrencyName(r.code, language),
        localCurrencyName(r.code, 'en'),
        countryByLocale(r.locale)?.code ?? '',
      ];
      return texts.some((t) => searchText(t).includes(q));
    })
    .sort((a, b) => rank(a) - rank(b) || name(a).localeCompare(name(b), language));
}

export function rateCounts(rates: PartnerRate[]) {
  return {
    enabled: rates.filter((r) => r.status === 'enabled').length,
    pending: rates.filter((r) => isPending(r.status)).length,
    disabled: rates.filter((r) => r.status === 'disabled').length,
  };
}
