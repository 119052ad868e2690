import { z } from 'zod';
import { OtpCode } from './auth.ts';
import { addressText } from './validation.ts';
import { CURRENCY_NETWORK_IDS, Coin, NETWORKS, Network, splitCurrencyNetwork, type Network as NetworkT } from './domain.ts';

/**
 * Settlement wallets: the partner's own crypto addresses that withdrawals go to (portal-core §2, §3, §4, §5, §8).
 * A new one waits for a second person's approval, then for screening, before money can go to it.
 */

export const WALLET_STATUSES = ['pending_approval', 'pending_screening', 'enabled', 'disabled', 'denied', 'deleted'] as const;
export const WalletStatus = z.enum(WALLET_STATUSES);
export type WalletStatus = z.infer<typeof WalletStatus>;

/** Statuses that hold one of the pair's places: enabled, or on the way to it (portal-core §9: at most 3). */
export const WALLET_SLOT_STATUSES: readonly WalletStatus[] = ['pending_approval', 'pending_screening', 'enabled'];
export const MAX_ENABLED_WALLETS_PER_PAIR = 3;

/** The coins each network carries (from the currency network ids of portal-core §9). */
export const NETWORK_CURRENCIES = Object.fromEntries(
  NETWORKS.map((n) => [
    n,
    CURRENCY_NETWORK_IDS.map(splitCurrencyNetwork)
      .filter((p) => p.network === n)
      .map((p) => p.coin),
  ]),
) as Record<NetworkT, Coin[]>;

/** Networks a settlement wallet can be on: those that carry at least one coin. */
export const WALLET_NETWORKS = (Object.keys(NETWORK_CURRENCIES) as NetworkT[]).filter((n) => NETWORK_CURRENCIES[n].length > 0);

/** The memo (tag) goes with Stellar addresses only (portal-core §3: "the memo is the tag only when the network is xlm"). */
export const networkTakesTag = (network: NetworkT) => network === 'XLM';

export const WALLET_DELETION_REASONS = [
  'This wallet address is no longer used',
  'This wallet was compromised',
  'This wallet address was added by accident',
  'We are using this asset on a different network',
] as const;
export const WALLET_DENIAL_REASONS = [
  'This is not a recognised wallet address',
  'We decided to use a different wallet address',
  'This wallet address was added by accident',
  'There is a mistake in this wallet address',
] as const;

export const WALLET_MESSAGES = {
  invalidAddress: 'Enter a valid wallet address',
  approved: "New wallet address approved and is pending screening. You'll be notified once approved.",
  denied: 'New wallet address denied',
  denyReasonRequired: 'Enter a reason for denying this wallet address',
  ownReview: 'You added this wallet address, so another admin or treasury user of your team must review it.',
  screeningFailed: 'This wallet address did not pass screening',
  // portal-core §8, with the reason appended by the portal
  createFailed: 'could not create wallet address: ',
  deleteFailed: 'could not delete wallet address: ',
  fetchFailed: 'could not fetch partner wallets: ',
  statusFailed: 'could not update wallet status: ',
  updateFailed: 'could not assign partner wallet address: ',
  otpFailed: 'could not generate otp: ',
  registeredElsewhere: 'This wallet address is registered to another account and cannot be added. Contact support if it is yours.',
  noMatch: 'No wallet address of yours matches this address',
  onNetworks: (networks: readonly string[]) => `This address is registered on ${networks.join(' and ')}: say which network`,
  limitReached: (max: number, pairs: readonly string[]) =>
    `You already have ${max} enabled or pending wallet addresses for ${pairs.join(', ')}. Disable or delete one first.`,
  notOffered: (coins: readonly string[], network: string, offered: readonly string[]) =>
    `${coins.join(', ')} is not offered on ${network}: choose ${offered.join(' or ')}`,
  chooseNetwork: (networks: readonly string[]) => `Choose one of the networks: ${networks.join(', ')}`,
  alreadyYours: (network: string) => `This ${network} address is already one of your wallet addresses`,
  // `status` as said in words: "pending approval"
  onlyFrom: (status: string, from: string, to: string) => `This wallet address is ${status}: only ${from} wallet addresses can be ${to}`,
  notWaiting: (status: string) => `This wallet address is not waiting for approval (it is ${status})`,
  reviewedMeanwhile: 'This wallet address was reviewed by someone else just now',
  changedMeanwhile: 'This wallet address was changed by someone else just now',
} as const;

/** Travel-rule details of the wallet's owner (portal-core §3, travelRuleInfo). */
export const TravelRuleInfo = z.object({
  name: z.string().trim().min(1, 'Enter the full name of the entity or beneficiary').max(200),
  businessRegistrationNumber: z.string().trim().min(1, 'Enter the business registration number').max(100),
});
export type TravelRuleInfo = z.infer<typeof TravelRuleInfo>;

const Address = addressText(WALLET_MESSAGES.invalidAddress);
const Tag = z
  .string()
  .trim()
  .max(64)
  .nullish()
  .transform((t) => (t ? t : null));

/** A settlement wallet as the partner sees it (portal-core §3, "Partner settlement wallet"). */
export const SettlementWallet = z.object({
  id: z.string().uuid(),
  partnerId: z.string().uuid(),
  address: z.string(),
  network: Network,
  status: WalletStatus,
  tag: z.string().nullable(),
  currencies: z.array(Coin),
  createdById: z.string().uuid(),
  createdByName: z.string(),
  createdAt: z.string(),
  travelRuleInfo: TravelRuleInfo.nullable(),
  /** the denial or deletion reason, kept with the wallet */
  reason: z.string().nullable(),
  reviewedByName: z.string().nullable(),
  /** whether the caller may approve or deny it now (admin or treasury, not its creator, pending approval) */
  canReview: z.boolean(),
});
export type SettlementWallet = z.infer<typeof SettlementWallet>;

export const WalletsResponse = z.object({ wallets: z.array(SettlementWallet) });
export type WalletsResponse = z.infer<typeof WalletsResponse>;
export const WalletResponse = z.object({ wallet: SettlementWallet });
export type WalletResponse = z.infer<typeof WalletResponse>;

/** POST partner/wallet (portal-core §5: address, network, optional tag, currencies and otp). */
export const CreateWalletRequest = z.object({
  address: Address,
  network: Network,
  tag: Tag,
  currencies: z.array(Coin).min(1, 'Choose at least one currency').max(8),
  travelRuleInfo: TravelRuleInfo.nullish(),
  otp: OtpCode,
});
export type CreateWalletRequest = z.input<typeof CreateWalletRequest>;

/** Which wallet: by address, and by network too when the same address is registered on several networks. */
const WalletRef = { address: Address, network: Network.optional() };

/** PUT partner/wallet: enable (needs the e-mailed code) or disable. */
export const UpdateWalletRequest = z.object({ ...WalletRef, status: z.enum(['enabled', 'disabled']), otp: OtpCode.optional() });
export type UpdateWalletRequest = z.input<typeof UpdateWalletRequest>;

/** DELETE partner/wallet/{address}: one of the four reasons, and the e-mailed code. */
export const DeleteWalletParams = z.object({ address: Address });
export const DeleteWalletRequest = z.object({ reason: z.enum(WALLET_DELETION_REASONS), otp: OtpCode, network: Network.optional() });
export type DeleteWalletRequest = z.input<typeof DeleteWalletRequest>;

/** PUT partner/wallet/status: the second person's review (portal-core §4, §7: address, status, optional reason). */
export const WalletStatusUpdateRequest = z.object({
  ...WalletRef,
  status: z.enum(['approved', 'denied']),
  reason: z.string().trim().max(500).optional(),
});
export type WalletStatusUpdateRequest = z.input<typeof WalletStatusUpdateRequest>;

/** The deny reason sent: free text wins over a chosen reason (portal-core §4). */
export const denyReason = (selected: string | null | undefined, other: string | null | undefined) => (other ?? '').trim() || (selected ?? '').trim();

/** A first look at an address in the portal (the server checks the checksum): the shape of each network's addresses. */
export const ADDRESS_SHAPES: Record<NetworkT, RegExp> = {
  TRC20: /^T[1-9A-HJ-NP-Za-km-z]{33}$/,
  ERC20: /^0x[0-9a-fA-F]{40}$/,
  POLYGON: /^0x[0-9a-fA-F]{40}$/,
  BASE: /^0x[0-9a-fA-F]{40}$/,
  CELO: /^0x[0-9a-fA-F]{40}$/,
  BTC: /^(1|3)[1-9A-HJ-NP-Za-km-z]{25,34}$|^(bc1|BC1)[0-9a-zA-Z]{11,71}$/,
  SOL: /^[1-9A-HJ-NP-Za-km-z]{32,44}$/,
  XLM: /^G[A-Z2-7]{55}$/,
};
