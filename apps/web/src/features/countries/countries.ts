import { CURRENCY_NAMES, countryByLocale, countryName } from '@portal/contract/countries';
import { isPending, type PartnerRate } from '@portal/contract/rates';

export type StatusFilter = 'all' | 'enabled' | 'disabled' | 'pending';
export const STATUS_FILTERS: { value: StatusFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'enabled', label: 'Enabled' },
  { value: 'pending', label: 'Pending' },
  { value: 'disabled', label: 'Disabled' },
];

const matchesStatus = (r: PartnerRate, filter: StatusFilter) => filter === 'all' || (filter === 'pending' ? isPending(r.status) : r.status === filter);

/**
 * The rows shown: by status, and by a search of country name, two-letter code, currency code or name and dialling
 * code; enabled and pending countries first, then by name.
 */
export function visibleRates(rates: PartnerRate[], query: string, filter: StatusFilter): PartnerRate[] {
  const q = query.trim().toLowerCase();
  const rank = (r: PartnerRate) => (r.status === 'enabled' ? 0 : isPending(r.status) ? 1 : 2);
  return rates
    .filter((r) => matchesStatus(r, filter))
    .filter((r) => {
      if (!q) return true;
      const currencyName = CURRENCY_NAMES[r.code as keyof typeof CURRENCY_NAMES] ?? '';
      return [countryName(r.locale), r.locale, r.code, currencyName, countryByLocale(r.locale)?.code ?? ''].some((t) => t.toLowerCase().includes(q));
    })
    .sort((a, b) => rank(a) - rank(b) || countryName(a.locale).localeCompare(countryName(b.locale), 'en'));
}

export function rateCounts(rates: PartnerRate[]) {
  return {
    enabled: rates.filter((r) => r.status === 'enabled').length,
    pending: rates.filter((r) => isPending(r.status)).length,
    disabled: rates.filter((r) => r.status === 'disabled').length,
  };
}
