import { z } from 'zod';
import { DecimalString, FeatureFlags, ProductType } from './domain.ts';

export const PAYOUT_TYPES = ['MANUAL', 'AUTOMATED'] as const;
export const PayoutType = z.enum(PAYOUT_TYPES);
export const PAYOUT_FREQUENCIES = ['Daily', 'Weekly', 'Monthly', 'Yearly'] as const;
export const PayoutFrequency = z.enum(PAYOUT_FREQUENCIES);

/** Partner fields of portal-core §3, plus the derived kind flags. */
export const Partner = z.object({
  id: z.string().uuid(),
  name: z.string(),
  abbreviation: z.string(),
  walletAddress: z.string().nullable(),
  withdrawalAddress: z.string().nullable(),
  settlementThreshold: DecimalString.nullable(),
  lowBalanceLimit: DecimalString.nullable(),
  payoutType: PayoutType,
  payoutFrequency: PayoutFrequency.nullable(),
  productTypes: z.array(ProductType),
  fiatWalletsEnabled: z.boolean(),
  whitelisted: z.boolean(),
  isB2B: z.boolean(),
  isCommercial: z.boolean(),
  isWhitelistedCommercial: z.boolean(),
});
export type Partner = z.infer<typeof Partner>;

export const PartnerProfile = z.object({ partner: Partner, featureFlags: FeatureFlags });
export type PartnerProfile = z.infer<typeof PartnerProfile>;

/** Kind flags follow from product types and the whitelist (portal-core §6). */
export function partnerKind(productTypes: readonly ProductType[], whitelisted: boolean) {
  const isB2B = productTypes.includes('B2B');
  const isCommercial = productTypes.includes('COMMERCIAL');
  return { isB2B, isCommercial, isWhitelistedCommercial: isCommercial && whitelisted };
}
