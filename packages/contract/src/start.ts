import { z } from 'zod';
import { FiatWalletsResponse } from './fiat-wallets.ts';
import { NotificationList } from './notifications.ts';
import { PartnerAccounts, PartnerProfile } from './partner.ts';
import { PartnerRatesResponse } from './rates.ts';
import { UserPreferences } from './team.ts';
import { WalletsResponse } from './wallets.ts';

/**
 * GET partner/start: what a signed-in screen reads at start, in one round trip. The parts of the start data. Each is what its own call answers (`partner/profile`, `partner/accounts`, …), or null
 * where that call would refuse this user (a flag off, a role without it, a partner kind it is not for): the start
 * call gives nobody more than the calls it stands for.
 */
export const StartResponse = z.object({
  profile: PartnerProfile,
  accounts: PartnerAccounts.nullable(),
  rates: PartnerRatesResponse.nullable(),
  wallets: WalletsResponse.nullable(),
  fiatWallets: FiatWalletsResponse.nullable(),
  preferences: UserPreferences.nullable(),
  notifications: NotificationList.nullable(),
  /** a request-forgery token bound to this session (also set as its cookie), as POST security/csrf answers */
  csrf: z.string(),
});
export type StartResponse = z.infer<typeof StartResponse>;

/** The parts a screen's own query may take from the start data instead of calling again. */
export type StartPart = Exclude<keyof StartResponse, 'csrf'>;
