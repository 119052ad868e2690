import { countryName } from '@portal/contract/countries';
import { channelTypeLabel, channelTypeName, type Channel, type PaymentNetwork, type RampType } from '@portal/contract/coverage';

export type RampFilter = 'all' | RampType;
export type CoverageFilters = { ramp: RampFilter; type: string; query: string };
export const NO_FILTERS: CoverageFilters = { ramp: 'all', type: 'all', query: '' };

export type CountrySummary = { country: string; name: string; currency: string; deposit: number; withdraw: number; networks: number; types: string[] };

/** One line per country that has channels, by name: what an operations person scans first. */
export function countrySummaries(channels: Channel[], networks: PaymentNetwork[]): CountrySummary[] {
  const byCountry = new Map<string, CountrySummary>();
  for (const c of channels) {
    const s = byCountry.get(c.country) ?? { country: c.country, name: countryName(c.country), currency: c.currency, deposit: 0, withdraw: 0, networks: 0, types: [] };
    s[c.rampType] += 1;
    if (!s.types.includes(c.channelType)) s.types.push(c.channelType);
    byCountry.set(c.country, s);
  }
  for (const n of networks) {
    const s = byCountry.get(n.country);
    if (s) s.networks += 1;
  }
  return [...byCountry.values()].sort((a, b) => a.name.localeCompare(b.name, 'en'));
}

/** The channel types present, as options for the type filter. */
export const channelTypesOf = (channels: Channel[]) => [...new Set(channels.map((c) => c.channelType))].sort();

const includes = (q: string, ...texts: string[]) => texts.some((t) => t.toLowerCase().includes(q));

/**
 * A country's channels and networks under the filters. Ramp and type narrow the channels; a network stays when a
 * channel left reaches it. The search matches a channel by its type, and a network by its name or code; a channel
 * also stays when it reaches a network that matches (searching "M-Pesa" shows M-Pesa and the channels to it).
 */
export function filterCoverage(country: string, channels: Channel[], networks: PaymentNetwork[], f: CoverageFilters) {
  const q = f.query.trim().toLowerCase();
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
  const channelsFound = narrowed.filter((c) => includes(q, c.channelType, channelTypeName(c.channelType), channelTypeLabel(c.channelType)) || reached.has(c.id));
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
