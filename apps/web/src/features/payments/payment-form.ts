import type { Channel, PaymentNetwork } from '@portal/contract/coverage';
import { compareDecimal, normalise } from '@portal/contract/decimal';
import { PAYMENT_MESSAGES, RAMP_OF_KIND, accountNumberProblem, localAmountProblem, type PaymentKind, type PaymentMarket } from '@portal/contract/payments';
import { currentLanguage, localizeMessage, translator } from '../../lib/i18n.ts';
import { localCountryName } from '../../lib/country-names.ts';
import { paymentsMessages } from './messages.ts';

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

/**
 * The countries with an active channel in the kind's direction in a market the partner serves (enabled), by name:
 * the contract's names in English, the browser's names in the language in force otherwise.
 */
export function countriesFor(kind: PaymentKind, channels: Channel[], markets: PaymentMarket[]) {
  const language = currentLanguage();
  const codes = [...new Set(channelsOf(kind, channels, markets).map((c) => c.country))];
  return codes
    .map((code) => ({ code, name: localCountryName(code, language) }))
    .sort((a, b) => a.name.localeCompare(b.name, language === 'en' ? undefined : language));
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

/**
 * What is missing before a quote can be asked for, in the language in force; empty when the draft is complete. The
 * rules the server shares (account number, amount) say it with the contract's messages, translated as the server's.
 */
export function draftProblems(d: PaymentDraft, channel: Channel | undefined, network: PaymentNetwork | undefined): Partial<Record<keyof PaymentDraft, string>> {
  const t = translator(paymentsMessages);
  const p: Partial<Record<keyof PaymentDraft, string>> = {};
  if (!d.country) p.country = t('form.chooseCountry');
  if (!channel) p.channelId = t('form.chooseChannel');
  if (d.kind === 'disbursement' && !network) p.networkId = t('form.chooseNetwork');
  const needsAccount = d.kind === 'disbursement' || channel?.channelType === 'momo';
  if (needsAccount && !d.accountNumber.trim()) p.accountNumber = d.kind === 'disbursement' ? t('problem.recipientAccount') : t('problem.payerPhone');
  else if (d.accountNumber.trim()) {
    // the server's rule: a disbursement by the network's account type, a collection's payer by phone (momo) or bank
    const type = d.kind === 'disbursement' ? network?.accountNumberType : channel ? (channel.channelType === 'momo' ? 'phone' : 'bank') : undefined;
    const problem = type && accountNumberProblem(type, d.accountNumber);
    if (problem) p.accountNumber = localizeMessage(problem);
  }
  if (!d.name.trim()) p.name = d.kind === 'disbursement' ? t('problem.recipientName') : t('problem.payerName');
  const amountProblem = localAmountProblem(d.amount);
  const amount = d.amount.trim();
  if (amountProblem === PAYMENT_MESSAGES.amountPositive && channel) p.amount = PAYMENT_MESSAGES.amountBelow(normalise(channel.min, 2), channel.currency);
  else if (amountProblem) p.amount = amountProblem;
  else if (channel && compareDecimal(amount, channel.min) < 0) p.amount = PAYMENT_MESSAGES.amountBelow(normalise(channel.min, 2), channel.currency);
  else if (channel && compareDecimal(amount, channel.max) > 0) p.amount = PAYMENT_MESSAGES.amountAbove(normalise(channel.max, 2), channel.currency);
  if (p.amount) p.amount = localizeMessage(p.amount);
  return p;
}

const CHANNEL_TYPES = ['bank', 'eft', 'p2p', 'momo', 'card', 'highvolumeotc'] as const;
/**
 * A channel type's name in the language in force: bank "Bank transfer", momo "Mobile money"; a `{product}Pin` type
 * "PIN voucher"; a type the portal does not know is written as it is.
 */
export function channelTypeName(type: string): string {
  const t = translator(paymentsMessages);
  const known = CHANNEL_TYPES.find((c) => c === type);
  if (known) return t(`channelType.${known}`);
  return /pin$/i.test(type) ? t('channelType.pin') : type;
}

/** What an account number is, by the network's account number type: "Phone number", "Bank account number"... */
export const accountTypeName = (type: 'phone' | 'bank' | 'app'): string => translator(paymentsMessages)(`accountType.${type}`);
