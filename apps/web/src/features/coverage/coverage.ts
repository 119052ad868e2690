import { channelTypeLabel, channelTypeName, type Channel, type PaymentNetwork, type RampType } from '@portal/contract/coverage';
import { CHANNEL_TYPE_LABELS } from '@portal/contract/domain';
import { formatNumber } from '../../lib/format.ts';
import { currentLanguage, translator, type MessageKey, type Translate } from '../../lib/i18n.ts';
import type en from '../../locales/en/coverage.json';
import { localCountryName, searchText } from '../../lib/country-names.ts';
import { coverageMessages } from './messages.ts';

export type RampFilter = 'all' | RampType;
export type CoverageFilters = { ramp: RampFilter; type: string; query: string };
export const NO_FILTERS: CoverageFilters = { ramp: 'all', type: 'all', query: '' };

export type CountrySummary = { country: string; name: string; currency: string; deposit: number; withdraw: number; networks: number; types: string[] };

type T = Translate<typeof en>;

/** The contract's channel type names (channelTypeName) and product labels (CHANNEL_TYPE_LABELS), as catalogue keys. */
const CHANNEL_TYPE_KEYS: Record<string, MessageKey<typeof en>> = {
  bank: 'channelType.bank',
  eft: 'channelType.eft',
  p2p: 'channelType.p2p',
  momo: 'channelType.momo',
  card: 'channelType.card',
  highvolumeotc: 'channelType.highvolumeotc',
};
const PRODUCT_KEYS: Record<string, MessageKey<typeof en>> = { 'Bank Transfer': 'product.bankTransfer', 'Mobile Money': 'product.mobileMoney' };

/** A channel type's name, as the contract's channelTypeName says it: bank 'Bank transfer', a `{product}Pin` type 'PIN voucher'. */
export function channelTypeText(t: T, type: string): string {
  const key = CHANNEL_TYPE_KEYS[type];
  if (key) return t(key);
  if (/pin$/i.test(type)) return t('channelType.pin');
  return channelTypeName(type);
}

/** The product label of a channel type ('Bank Transfer' for bank, eft and p2p), else its name (the contract's channelTypeLabel). */
export function channelProductText(t: T, type: string): string {
  const label = CHANNEL_TYPE_LABELS[type];
  if (!label) return channelTypeText(t, type);
  const key = PRODUCT_KEYS[label];
  return key ? t(key) : label;
}

/** A settlement time in seconds as a person reads it (the contract's formatSettlementTime): 'Instant', '≈ 5 min', '≈ 1.5 h', '≈ 2 days'. */
export function settlementTimeText(t: T, seconds: number): string {
  if (seconds <= 60) return t('settlement.instant');
  if (seconds < 3600) return t('settlement.minutes', { minutes: Math.round(seconds / 60) });
  if (seconds < 86_400) return t('settlement.hours', { hours: formatNumber(Math.round((seconds / 3600) * 2) / 2) });
  return t('settlement.days', { count: Math.round(seconds / 86_400) });
}

/** One line per country that has channels, by name (in the language in force): what an operations person scans first. */
export function countrySummaries(channels: Channel[], networks: PaymentNetwork[]): CountrySummary[] {
  const language = currentLanguage();
  const byCountry = new Map<string, CountrySummary>();
  for (const c of channels) {
    const s = byCountry.get(c.country) ?? {
      country: c.country,
      name: localCountryName(c.country, language),
      currency: c.currency,
      deposit: 0,
      withdraw: 0,
      networks: 0,
      types: [],
    };
    s[c.rampType] += 1;
    if (!s.types.includes(c.channelType)) s.types.push(c.channelType);
    byCountry.set(c.country, s);
  }
  for (const n of networks) {
    const s = byCountry.get(n.country);
    if (s) s.networks += 1;
  }
  return [...byCountry.values()].sort((a, b) => a.name.localeCompare(b.name, language));
}

/** The channel types present, as options for the type filter. */
export const channelTypesOf = (channels: Channel[]) => [...new Set(channels.map((c) => c.channelType))].sort();

const includes = (q: string, ...texts: string[]) => texts.some((text) => searchText(text).includes(q));

/**
 * A country's channels and networks under the filters. Ramp and type narrow the channels; a network stays when a
 * channel left reaches it. The search matches a channel by its type (its code, or its name in English or as shown),
 * and a network by its name or code; a channel also stays when it reaches a network that matches (searching "M-Pesa"
 * shows M-Pesa and the channels to it).
 */
export function filterCoverage(country: string, channels: Channel[], networks: PaymentNetwork[], f: CoverageFilters) {
  const q = searchText(f.query.trim());
  const t = translator(coverageMessages);
  const inCountry = channels.filter((c) => c.country === country);
  const narrowed = inCountry.filter((c) => (f.ramp === 'all' || c.rampType === f.ramp) && (f.type === 'all' || c.channelType === f.type));
  const ids = new Set(narrowed.map((c) => c.id));
  const countryNetworks = networks.filter((n) => n.country === country);
  // with no channel filter, a network no channel reaches yet still shows; with one, only those the channels reach
  const narrowing = f.ramp !== 'all' || f.type !== 'all';
  const reachable = countryNetworks.filter((n) => !narrowing || n.channelIds.some((id) => ids.has(id)));
  if (!q) return { channels: narrowed, networks: reachable };
  const networksFound = reachable.filter((n) => includes(q, n.name, n.code));
  const reached = new Set(networksFound.flatMap((n) => n.channelIds));
  const typeTexts = (type: string) => [type, channelTypeName(type), channelTypeLabel(type), channelTypeText(t, type), channelProductText(t, type)];
  const channelsFound = narrowed.filter((c) => includes(q, ...typeTexts(c.channelType)) || reached.has(c.id));
  const typeMatched = new Set(channelsFound.filter((c) => !reached.has(c.id)).map((c) => c.id));
  return {
    channels: channelsFound,
    networks: reachable.filter((n) => networksFound.includes(n) || n.channelIds.some((id) => typeMatched.has(id))),
  };
}

/** The channel types and directions a network is reached through: "Mobile money · Deposit, Withdrawal". */
export function reachOf(network: PaymentNetwork, channels: Channel[]): { type: string; ramps: RampType[] }[] {
  const byId = new Map(channels.map((c) => [c.id, c]));
  const out = new Map<string, RampType[]>();
  for (const id of network.channelIds) {
    const c = byId.get(id);
    if (!c) continue;
    const ramps = out.get(c.channelType) ?? [];
    if (!ramps.includes(c.rampType)) ramps.push(c.rampType);
    out.set(c.channelType, ramps);
  }
  return [...out].map(([type, ramps]) => ({ type, ramps: ramps.sort() }));
}
