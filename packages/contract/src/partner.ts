import { z } from 'zod';
import { SessionUser } from './auth.ts';
import { CURRENCY_NETWORK_IDS, Coin, CurrencyNetworkId, DecimalString, FeatureFlags, Network, ProductType, splitCurrencyNetwork } from './domain.ts';
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

/**
 * The partner and its flags; for a signed-in user also the user as the server sees it now (role, status), so that a
 * role changed since the sign-in shows on the next read of the profile (an API key has no user).
 */
export const PartnerProfile = z.object({ partner: Partner, featureFlags: FeatureFlags, user: SessionUser.optional() });
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

/**
 * A deposit (top-up) address shown to the partner (portal-core §3, "Wallet address"). `demo` marks an address made
 * up for the demo: nothing sent to it can be recovered, and the portal says so.
 */
export const DepositAddress = z.object({
  id: z.string().uuid(),
  currencyNetwork: z.string(),
  cryptocurrency: z.string(),
  network: z.string(),
  address: z.string(),
  status: z.enum(['active', 'disabled']),
  tag: z.string().nullable(),
  demo: z.boolean(),
});
export type DepositAddress = z.infer<typeof DepositAddress>;
export const DepositAddressResponse = z.object({ address: DepositAddress });
export type DepositAddressResponse = z.infer<typeof DepositAddressResponse>;
/** The partner's addresses, and the currency networks for which the caller may get one now (POST partner/addresses). */
export const DepositAddressesResponse = z.object({ addresses: z.array(DepositAddress), assignable: z.array(CurrencyNetworkId) });
export type DepositAddressesResponse = z.infer<typeof DepositAddressesResponse>;

/** Asks for the partner's deposit address of a coin on a network (admin or treasury). */
export const AssignDepositAddressRequest = z.object({ currency: Coin, network: Network });
export type AssignDepositAddressRequest = z.infer<typeof AssignDepositAddressRequest>;

/** The currency network id of a coin on a network (USDT, TRC20 → usdt-trc20); undefined when the pair is not offered. */
export function currencyNetworkFor(coin: Coin, network: Network): CurrencyNetworkId | undefined {
  return CURRENCY_NETWORK_IDS.find((id) => {
    const pair = splitCurrencyNetwork(id);
    return pair.coin === coin && pair.network === network;
  });
}

/** What the server says of a partner it cannot find or change, and of its deposit addresses. */
export const PARTNER_MESSAGES = {
  noSuchPartner: 'No such partner',
  noPartner: (id: string) => `No partner ${id}`,
  abbreviationTaken: (abbreviation: string) => `A partner with the abbreviation ${abbreviation} exists already`,
  noDepositAddress: (coin: string, network: string) => `No ${coin} (${network}) deposit address can be assigned yet: none is configured. Contact support.`,
  notOffered: (currency: string, network: string) => `${currency} is not offered on ${network}`,
} as const;
