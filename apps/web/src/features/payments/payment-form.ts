import type { Channel, PaymentNetwork } from '@portal/contract/coverage';
import { countryByLocale } from '@portal/contract/countries';
import { RAMP_OF_KIND, type PaymentKind, type PaymentStatus } from '@portal/contract/payments';
import type { BadgeTone } from '../../components/ui/status-badge.tsx';

/** What the initiate form holds. */
export type PaymentDraft = {
  kind: PaymentKind;
  country: string;
  channelId: string;
  networkId: string;
  accountNumber: string;
  name: string;
  amount: string;
  reference: string;
};

export const EMPTY_DRAFT: PaymentDraft = { kind: 'disbursement', country: '', channelId: '', networkId: '', accountNumber: '', name: '', amount: '', reference: '' };

/** The countries with an active channel in the kind's direction, by name. */
export function countriesFor(kind: PaymentKind, channels: Channel[]) {
  const codes = [...new Set(channels.filter((c) => c.rampType === RAMP_OF_KIND[kind] && c.apiStatus === 'active').map((c) => c.country))];
  return codes.map((code) => ({ code, name: countryByLocale(code)?.name ?? code })).sort((a, b) => a.name.localeCompare(b.name));
}

export const channelsFor = (kind: PaymentKind, country: string, channels: Channel[]) =>
  channels.filter((c) => c.country === country && c.rampType === RAMP_OF_KIND[kind] && c.apiStatus === 'active');

/** The networks a disbursement through the channel can reach. */
export const networksFor = (country: string, channelId: string, networks: PaymentNetwork[]) =>
  networks.filter((n) => n.country === country && n.channelIds.includes(channelId) && !n.tempDisabledFor.includes('withdraw'));

/** What is missing before a quote can be asked for; empty when the draft is complete. */
export function draftProblems(d: PaymentDraft, channel: Channel | undefined, network: PaymentNetwork | undefined): Partial<Record<keyof PaymentDraft, string>> {
  const p: Partial<Record<keyof PaymentDraft, string>> = {};
  if (!d.country) p.country = 'Choose a country';
  if (!channel) p.channelId = 'Choose a channel';
  if (d.kind === 'disbursement' && !network) p.networkId = 'Choose a network';
  const needsAccount = d.kind === 'disbursement' || channel?.channelType === 'momo';
  if (needsAccount && !d.accountNumber.trim()) p.accountNumber = d.kind === 'disbursement' ? "Enter the recipient's account number" : "Enter the payer's phone number";
  if (!d.name.trim()) p.name = d.kind === 'disbursement' ? "Enter the recipient's name" : "Enter the payer's name";
  if (!/^\d{1,15}(\.\d{1,2})?$/.test(d.amount.trim())) p.amount = 'Enter an amount with at most 2 decimals';
  return p;
}

const FINAL_GOOD = new Set<string>(['complete']);
const FINAL_BAD = new Set<string>(['failed', 'expired', 'denied', 'cancelled', 'refunded', 'refund_failed']);
export function statusTone(status: PaymentStatus): BadgeTone {
  if (FINAL_GOOD.has(status)) return 'success';
  if (FINAL_BAD.has(status)) return 'danger';
  return status === 'created' ? 'neutral' : 'warning';
}
export const statusLabel = (status: string) => status.replace(/_/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());
