import type { FiatWallet } from '@portal/contract/fiat-wallets';
import type { Language } from '@portal/contract/i18n';
import type { NotificationList } from '@portal/contract/notifications';
import type { PartnerAccounts, PartnerProfile } from '@portal/contract/partner';
import type { PartnerRatesResponse } from '@portal/contract/rates';
import type { StartResponse } from '@portal/contract/start';
import type { UserPreferences } from '@portal/contract/team';
import type { WalletsResponse } from '@portal/contract/wallets';
import { liveSideOf, type Auth } from '../../lib/access.ts';
import { AppError } from '../../lib/errors.ts';

/** The reads the start data is made of: each module's own, with its own rules (narrow ports, wired in composition.ts). */
export type StartReads = {
  profile: (auth: Auth) => Promise<PartnerProfile>;
  accounts: (auth: Auth) => Promise<PartnerAccounts>;
  rates: (auth: Auth) => Promise<PartnerRatesResponse>;
  wallets: (auth: Auth) => Promise<WalletsResponse>;
  fiatWallets: (auth: Auth) => Promise<FiatWallet[]>;
  preferences: (auth: Auth) => Promise<UserPreferences>;
  /** the bell, its texts in `language` */
  notifications: (auth: Auth, language: Language) => Promise<NotificationList>;
};

/** A part its own call would refuse this user (403): null, as the portal would not have asked for it. */
async function unlessRefused<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof AppError && err.statusCode === 403) return null;
    throw err;
  }
}

/**
 * GET partner/start: what every signed-in screen reads at start (the partner and its flags, balances, the banners'
 * data, the bell, the user's time zone), in one round trip instead of seven. Each part is read by the module that owns
 * it, with that module's access rules: the start data gives nobody more than the calls it stands for. The parts are
 * read at once (each its own query; on PostgreSQL, each its own connection).
 */
export function createStartService(reads: StartReads) {
  return {
    /** language: the request's; the bell is in the user's saved one where there is one, which the portal turns to */
    async start(caller: Auth, language: Language): Promise<Omit<StartResponse, 'csrf'>> {
      // in the portal's test view the balances are the test side's, as their own call answers them there; the rest is
      // the account's in both modes
      const auth = liveSideOf(caller);
      const preferencesRead = unlessRefused(reads.preferences(auth));
      const [profile, accounts, rates, wallets, fiatWallets, preferences, notifications] = await Promise.all([
        reads.profile(auth),
        unlessRefused(reads.accounts(caller)),
        unlessRefused(reads.rates(auth)),
        unlessRefused(reads.wallets(auth)),
        unlessRefused(reads.fiatWallets(auth)),
        preferencesRead,
        preferencesRead.then((p) => unlessRefused(reads.notifications(auth, p?.language ?? language))),
      ]);
      return { profile, accounts, rates, wallets, fiatWallets: fiatWallets && { fiatWallets }, preferences, notifications };
    },
  };
}
export type StartService = ReturnType<typeof createStartService>;
