import { z } from 'zod';
import { DecimalString } from './domain.ts';

/**
 * Fiat wallets (portal-core §3): a partner's local-currency wallets, each with a payment (pay-out) and a collection
 * switch. When the partner has fiat wallets enabled, the default USD/US wallet (id 1, both switches on) comes first;
 * it is always on and cannot be changed.
 */
export const DEFAULT_FIAT_WALLET_ID = 1;
export const DEFAULT_FIAT_WALLET = { id: DEFAULT_FIAT_WALLET_ID, currency: 'USD', country: 'US' } as const;

export const FiatWallet = z.object({
  id: z.number().int().positive(),
  currency: z.string().regex(/^[A-Z]{3}$/),
  country: z.string().regex(/^[A-Z]{2}$/),
  paymentEnabled: z.boolean(),
  collectionEnabled: z.boolean(),
  /** the available amount of the wallet's currency on the ledger, or 0 */
  balance: DecimalString,
});
export type FiatWallet = z.infer<typeof FiatWallet>;

export const FiatWalletsResponse = z.object({ fiatWallets: z.array(FiatWallet) });
export type FiatWalletsResponse = z.infer<typeof FiatWalletsResponse>;

/** PUT partner/fiat-wallet: switches payments and/or collections of one wallet (admin or treasury). */
export const UpdateFiatWalletRequest = z
  .object({
    id: z.number().int().positive(),
    paymentEnabled: z.boolean().optional(),
    collectionEnabled: z.boolean().optional(),
  })
  .refine((b) => b.paymentEnabled !== undefined || b.collectionEnabled !== undefined, {
    message: 'Send paymentEnabled, collectionEnabled or both',
    path: ['paymentEnabled'],
  });
export type UpdateFiatWalletRequest = z.infer<typeof UpdateFiatWalletRequest>;
export const UpdateFiatWalletResponse = z.object({ fiatWallet: FiatWallet });

export const FIAT_WALLET_MESSAGES = {
  disabled: 'Fiat wallets are not enabled for your account.',
  notFound: 'No such fiat wallet.',
  defaultFixed: 'The default USD wallet is always on for payments and collections.',
  /** portal-core §8: the portal's failure texts */
  fetchFailed: (reason: string) => `could not fetch partner fiat wallets: ${reason}`,
  noUserForGet: 'cannot get partner fiat wallets without partner and user',
  noUserForUpdate: 'cannot update partner fiat wallet without partner and user',
  currencyCode: 'The currency must be a three-letter code other than USD (the default wallet)',
  countryCode: 'The country must be a two-letter code',
  exists: (currency: string) => `The partner has a ${currency} wallet already`,
} as const;
