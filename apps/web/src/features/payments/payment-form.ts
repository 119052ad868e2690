import type { Channel, PaymentNetwork } from '@portal/contract/coverage';
import { countryByLocale } from '@portal/contract/countries';
import { compareDecimal, normalise } from '@portal/contract/decimal';
import { PAYMENT_MESSAGES, RAMP_OF_KIND, accountNumberProblem, localAmountProblem, type PaymentKind, type PaymentMarket } from '@portal/contract/payments';

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

export const EMPTY_DRAFT: PaymentDraft = {
  kind: 'disbursement',
  country: '',
  channelId: '',
  networkId: '',
  accountNumber: '',
  name: '',
  amount: '',
  reference: '',
};

const servedBy = (markets: PaymentMarket[]) => {
  const served = new Set(markets.map((m) => `${m.country}:${m.currency}`));
  return (c: Channel) => served.has(`${c.country}:${c.currency}`);
};

/** The countries with an active channel in the kind's direction in a market the partner serves (enabled), by name. */
export function countriesFor(kind: PaymentKind, channels: Channel[], markets: PaymentMarket[]) {
  const codes = [...new Set(channelsOf(kind, channels, markets).map((c) => c.country))];
  return codes.map((code) => ({ code, name: countryByLocale(code)?.name ?? code })).sort((a, b) => a.name.localeCompare(b.name));
}

const channelsOf = (kind: PaymentKind, channels: Channel[], markets: PaymentMarket[]) => {
  const served = servedBy(markets);
  return channels.filter((c) => c.rampType === RAMP_OF_KIND[kind] && c.apiStatus === 'active' && served(c));
};

export const channelsFor = (kind: PaymentKind, country: string, channels: Channel[], markets: PaymentMarket[]) =>
  channelsOf(kind, channels, markets).filter((c) => c.country === country);

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
  if (needsAccount && !d.accountNumber.trim())
    p.accountNumber = d.kind === 'disbursement' ? "Enter the recipient's account number" : "Enter the payer's phone number";
  else if (d.accountNumber.trim()) {
    // the server's rule: a disbursement by the network's account type, a collection's payer by phone (momo) or bank
    const type = d.kind === 'disbursement' ? network?.accountNumberType : channel ? (channel.channelType === 'momo' ? 'phone' : 'bank') : undefined;
    const problem = type && accountNumberProblem(type, d.accountNumber);
    if (problem) p.accountNumber = problem;
  }
  if (!d.name.trim()) p.name = d.kind === 'disbursement' ? "Enter the recipient's name" : "Enter the payer's name";
  const amountProblem = localAmountProblem(d.amount);
  const amount = d.amount.trim();
  if (amountProblem === PAYMENT_MESSAGES.amountPositive && channel) p.amount = PAYMENT_MESSAGES.amountBelow(normalise(channel.min, 2), channel.currency);
  else if (amountProblem) p.amount = amountProblem;
  else if (channel && compareDecimal(amount, channel.min) < 0) p.amount = PAYMENT_MESSAGES.amountBelow(normalise(channel.min, 2), channel.currency);
  else if (channel && compareDecimal(amount, channel.max) > 0) p.amount = PAYMENT_MESSAGES.amountAbove(normalise(channel.max, 2), channel.currency);
  return p;
}
