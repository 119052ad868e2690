import { z } from 'zod';
import { OtpCode } from './auth.ts';
import { DecimalString } from './domain.ts';

/**
 * Partner rates (portal-core §3, §4): the countries a B2B partner serves. Each is one of the provider's platform
 * rates (a country's currency with its buy and sell rate against USD) with the partner's status for it. A change is
 * asked for by one admin (the status becomes pending_enable or pending_disable) and takes effect when another admin
 * approves it; a denial restores the previous status.
 */

export const PARTNER_RATE_STATUSES = ['enabled', 'disabled', 'pending_enable', 'pending_disable'] as const;
export const PartnerRateStatus = z.enum(PARTNER_RATE_STATUSES);
export type PartnerRateStatus = z.infer<typeof PartnerRateStatus>;
export type SettledRateStatus = 'enabled' | 'disabled';
export type PendingRateStatus = 'pending_enable' | 'pending_disable';

export const PARTNER_RATE_STATUS_LABELS: Record<PartnerRateStatus, string> = {
  enabled: 'Enabled',
  disabled: 'Disabled',
  pending_enable: 'Pending enable',
  pending_disable: 'Pending disable',
};

export const PartnerRate = z.object({
  /** the partner rate (stable: the same partner and platform rate always have the same id) */
  id: z.guid(),
  /** the platform rate */
  rateId: z.guid(),
  /** the country, ISO 3166-1 alpha-2 */
  locale: z.string(),
  /** the currency, ISO 4217 */
  code: z.string(),
  /** local currency per US dollar */
  buy: DecimalString,
  sell: DecimalString,
  status: PartnerRateStatus,
  /** who asked for the pending change, and when (null when nothing is pending) */
  requestedBy: z.object({ id: z.guid(), name: z.string() }).nullable(),
  requestedAt: z.iso.datetime().nullable(),
});
export type PartnerRate = z.infer<typeof PartnerRate>;
export const PartnerRatesResponse = z.object({ rates: z.array(PartnerRate) });
export type PartnerRatesResponse = z.infer<typeof PartnerRatesResponse>;

/** Rates with locale crypto, code USD or locale US are not countries a partner enables (portal-core §3). */
export const isCountryRate = (rate: { locale: string; code: string }) =>
  rate.locale.toLowerCase() !== 'crypto' && rate.code.toUpperCase() !== 'USD' && rate.locale.toUpperCase() !== 'US';

/** The change a pending status stands for: what it was, the action's label and what approval makes it. */
export type RateChange = { previousStatus: SettledRateStatus; action: 'Enable' | 'Disable'; newStatus: SettledRateStatus };
export function rateChange(status: PartnerRateStatus): RateChange | undefined {
  if (status === 'pending_enable') return { previousStatus: 'disabled', action: 'Enable', newStatus: 'enabled' };
  if (status === 'pending_disable') return { previousStatus: 'enabled', action: 'Disable', newStatus: 'disabled' };
  return undefined;
}
export const isPending = (status: PartnerRateStatus): status is PendingRateStatus => status === 'pending_enable' || status === 'pending_disable';
/** The request that changes a settled status: enabled asks to disable, disabled asks to enable. */
export const requestFor = (status: SettledRateStatus): PendingRateStatus => (status === 'enabled' ? 'pending_disable' : 'pending_enable');

const uniqueRates = <T extends { platformRateId: string }>(rates: T[]) => new Set(rates.map((r) => r.platformRateId)).size === rates.length;
const RATES_PER_CALL = 50;

/** PUT partner/rates: ask for changes (admin); the status asked for is pending_enable or pending_disable. */
export const RateChangeRequest = z.object({
  rates: z
    .array(z.object({ partnerRateId: z.guid(), platformRateId: z.guid(), status: z.enum(['pending_enable', 'pending_disable']) }))
    .min(1)
    .max(RATES_PER_CALL)
    .refine(uniqueRates, 'must name each rate once'),
  /** an e-mailed code (PUT user/otp); optional, and used up when given */
  otp: OtpCode.optional(),
});
export type RateChangeRequest = z.infer<typeof RateChangeRequest>;

/**
 * PUT partner/rates/review: approve or deny pending changes (an admin other than the one who asked, to approve).
 * Each item's status is where the rate goes: the pending change's newStatus approves it, its previousStatus denies it.
 */
export const RateReviewRequest = z.object({
  rates: z
    .array(z.object({ partnerRateId: z.guid(), platformRateId: z.guid(), status: z.enum(['enabled', 'disabled']) }))
    .min(1)
    .max(RATES_PER_CALL)
    .refine(uniqueRates, 'must name each rate once'),
});
export type RateReviewRequest = z.infer<typeof RateReviewRequest>;

/** The rate status update response of portal-core §3. */
export const RateStatusResponse = z.object({ isValid: z.boolean() });
export type RateStatusResponse = z.infer<typeof RateStatusResponse>;

/** The texts of portal-core §8 for country changes, and the server's four-eyes refusal. */
export const RATE_MESSAGES = {
  fetchFailed: "Couldn't fetch partner rates",
  updateFailed: "Couldn't update partner rates",
  reviewFailed: "Couldn't review partner rate status changes",
  approved: 'Request approved',
  denied: 'Request denied',
  approveError: 'Error occured while approving changes',
  fourEyes: 'A change must be approved by another admin than the one who asked for it.',
  notEnabled: 'Enabled countries are not available for your account.',
  noSuchRate: 'No such rate.',
  // `place` names the country and its currency code: "Kenya (KES)"
  alreadyWaiting: (place: string) => `${place} already has a change waiting for review.`,
  alreadyIs: (place: string, status: string) => `${place} is already ${status}.`,
  nothingWaiting: (place: string) => `${place} has no change waiting for review.`,
  changedMeanwhile: (place: string) => `${place} has no change waiting for review: it was reviewed or changed meanwhile.`,
} as const;
