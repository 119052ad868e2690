import { z } from 'zod';
import { ACCOUNT_NUMBER_TYPES, CHANNEL_TYPE_LABELS, DecimalString } from './domain.ts';

/**
 * Channels and payment networks (portal-core §3): the provider's global reference data of how money reaches each
 * country. A channel is one way in or out of a country (a ramp type, a channel type and a currency, with its limits,
 * fees and settlement time); a payment network is an operator or bank reached through channels (M-Pesa, Equity
 * Bank) with the kind of account number it takes. Partners see active ones only.
 */

export const RAMP_TYPES = ['deposit', 'withdraw'] as const;
export const RampType = z.enum(RAMP_TYPES);
export type RampType = z.infer<typeof RampType>;
export const RAMP_TYPE_LABELS: Record<RampType, string> = { deposit: 'Deposit', withdraw: 'Withdrawal' };

export const REFERENCE_STATUSES = ['active', 'inactive'] as const;
export const ReferenceStatus = z.enum(REFERENCE_STATUSES);
export type ReferenceStatus = z.infer<typeof ReferenceStatus>;

export const SETTLEMENT_TYPES = ['instant', 'manual'] as const;
export const SettlementType = z.enum(SETTLEMENT_TYPES);

export const AccountNumberType = z.enum(ACCOUNT_NUMBER_TYPES);
export type AccountNumberType = z.infer<typeof AccountNumberType>;
export const ACCOUNT_NUMBER_TYPE_LABELS: Record<AccountNumberType, string> = {
  phone: 'Phone number',
  bank: 'Bank account number',
  app: 'App account (wallet ID)',
};

/** What each channel type is, more precisely than the product label of transaction-data §9 (which calls bank, eft and p2p all 'Bank Transfer'). */
const CHANNEL_TYPE_NAMES: Record<string, string> = {
  bank: 'Bank transfer',
  eft: 'EFT',
  p2p: 'P2P transfer',
  momo: 'Mobile money',
  card: 'Card',
  highvolumeotc: 'High-volume OTC',
};
/** A channel type's name: bank 'Bank transfer', momo 'Mobile money'; a `{product}Pin` type 'PIN voucher'. */
export function channelTypeName(type: string): string {
  if (CHANNEL_TYPE_NAMES[type]) return CHANNEL_TYPE_NAMES[type];
  if (/pin$/i.test(type)) return 'PIN voucher';
  return type;
}
/** The product label of transaction-data §9 ('Bank Transfer', 'Mobile Money'), else the channel type's name. */
export const channelTypeLabel = (type: string): string => CHANNEL_TYPE_LABELS[type] ?? channelTypeName(type);

/** Channel of portal-core §3. Money as decimal strings; estimatedSettlementTime in seconds. */
export const Channel = z.object({
  id: z.guid(),
  vendorId: z.string(),
  rampType: RampType,
  channelType: z.string(),
  country: z.string(),
  currency: z.string(),
  status: ReferenceStatus,
  commercialStatus: ReferenceStatus,
  feeUSD: DecimalString,
  feeLocal: DecimalString,
  min: DecimalString,
  max: DecimalString,
  /** the share of successful transactions (0 to 1) under which the channel is taken out of routing */
  successThreshold: DecimalString,
  estimatedSettlementTime: z.number().int().nonnegative(),
  settlementType: SettlementType,
  widgetStatus: ReferenceStatus,
  apiStatus: ReferenceStatus,
  widgetMin: DecimalString,
  widgetMax: DecimalString,
});
export type Channel = z.infer<typeof Channel>;
export const ChannelsResponse = z.object({ channels: z.array(Channel) });
export type ChannelsResponse = z.infer<typeof ChannelsResponse>;

/** Payment network of portal-core §3; `channelIds` lists the active channels it is reached through. */
export const PaymentNetwork = z.object({
  id: z.guid(),
  code: z.string(),
  name: z.string(),
  country: z.string(),
  status: ReferenceStatus,
  channelIds: z.array(z.guid()),
  accountNumberType: AccountNumberType,
  featureFlagEnabled: z.boolean(),
  /** ramp types for which the network is paused for now (an operator outage, maintenance) */
  tempDisabledFor: z.array(RampType),
});
export type PaymentNetwork = z.infer<typeof PaymentNetwork>;
export const NetworksResponse = z.object({ networks: z.array(PaymentNetwork) });
export type NetworksResponse = z.infer<typeof NetworksResponse>;

/** Optional narrowing of GET channels and GET networks (a script asks for one country; the portal loads all). */
export const CoverageQuery = z.object({
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code')
    .transform((c) => c.toUpperCase())
    .optional(),
  rampType: RampType.optional(),
});
export type CoverageQuery = z.infer<typeof CoverageQuery>;

/** A settlement time in seconds as a person reads it: 'Instant', '≈ 5 min', '≈ 2 h', '≈ 1 day'. */
export function formatSettlementTime(seconds: number): string {
  if (seconds <= 60) return 'Instant';
  if (seconds < 3600) return `≈ ${Math.round(seconds / 60)} min`;
  if (seconds < 86_400) {
    const hours = Math.round((seconds / 3600) * 2) / 2;
    return `≈ ${hours} h`;
  }
  const days = Math.round(seconds / 86_400);
  return `≈ ${days} day${days === 1 ? '' : 's'}`;
}
