import { z } from 'zod';
import { DecimalString, FeatureFlags, ProductType } from './domain.ts';
import { PAYOUT_FREQUENCIES, PAYOUT_TYPES } from './payout.ts';

export const PayoutType = z.enum(PAYOUT_TYPES);
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

export const PartnerAccounts = z.object({
  partner: z.object({ id: z.string().uuid(), name: z.string() }),
  accounts: z.array(z.object({ currency: z.string(), available: DecimalString })),
});
export type PartnerAccounts = z.infer<typeof PartnerAccounts>;

/** A deposit (top-up) address shown to the partner (portal-core §3, "Wallet address"). */
export const DepositAddress = z.object({
  id: z.string().uuid(),
  currencyNetwork: z.string(),
  cryptocurrency: z.string(),
  network: z.string(),
  address: z.string(),
  status: z.enum(['active', 'disabled']),
  tag: z.string().nullable(),
});
export type DepositAddress = z.infer<typeof DepositAddress>;
export const DepositAddressResponse = z.object({ address: DepositAddress });
export const DepositAddressesResponse = z.object({ addresses: z.array(DepositAddress) });
