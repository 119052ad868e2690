import { describe, expect, it } from 'vitest';
import { ALL_FEATURE_FLAGS, NO_FEATURE_FLAGS, type FeatureFlags, type Role } from '@portal/contract/domain';
import { guard, guardRefusal, homePath, type GuardInput } from './guard.ts';
import { ROUTES, type RouteName } from './routes.ts';

const kind = (b2b: boolean, commercial: boolean, whitelisted: boolean) => ({
  isB2B: b2b,
  isCommercial: commercial,
  isWhitelistedCommercial: commercial && whitelisted,
});
const persona = (role: Role, partner: GuardInput['partner'], featureFlags: FeatureFlags): GuardInput => ({
  isLoggedIn: true,
  verified: true,
  role,
  partner,
  featureFlags,
});

const ACME = kind(true, false, false);
const KORA_FLAGS = { ...NO_FEATURE_FLAGS, paymentsViewEnabled: true, walletManagementEnabled: true };

/** The demo personas of the README, as the guard sees them. */
const PERSONAS: Record<string, GuardInput> = {
  'admin@acme.test': persona('admin', ACME, ALL_FEATURE_FLAGS),
  'admin2@acme.test': persona('admin', ACME, ALL_FEATURE_FLAGS),
  'treasury@acme.test': persona('treasury', ACME, ALL_FEATURE_FLAGS),
  'viewer@acme.test': persona('view', ACME, ALL_FEATURE_FLAGS),
  'admin@kora.test': persona('admin', kind(false, true, true), KORA_FLAGS),
  'admin@baobab.test': persona('admin', kind(false, true, false), NO_FEATURE_FLAGS),
  'admin@lean.test': persona('admin', ACME, NO_FEATURE_FLAGS),
  'signed out': { isLoggedIn: false, verified: false },
  'password ok, code not yet given': { isLoggedIn: true, verified: false },
};

const ALL: RouteName[] = Object.keys(ROUTES) as RouteName[];
const PUBLIC: RouteName[] = ['passwordChanged', 'accountInactive', 'login', 'requestedPasswordReset', 'acceptInvitation'];
const PARTIAL: RouteName[] = ['resetPassword', 'twoFactor'];

/** What an Acme admin opens (null) or where it is sent instead, route by route. */
const ACME_ADMIN: Partial<Record<RouteName, string | null>> = {
  about: null,
  overview: null,
  transactions: null,
  balance: null,
  fiatWallet: null,
  fiatWallets: null,
  coverage: null,
  apiKeys: null,
  settings: null,
  wallets: null,
  countries: null,
  trades: '/transactions',
  payments: '/transactions',
  initiatePayment: '/transactions',
  webhooks: null,
  dataDownload: null,
  home: null,
  team: null,
  security: null,
};

/** The same for a Kora admin (a whitelisted commercial partner, with payments and wallets). */
const KORA_ADMIN: Partial<Record<RouteName, string | null>> = {
  about: '/trades',
  overview: '/trades',
  transactions: '/trades',
  balance: null,
  fiatWallet: null,
  fiatWallets: null,
  coverage: '/trades',
  apiKeys: '/trades',
  settings: null,
  wallets: null,
  countries: '/trades',
  trades: null,
  payments: null,
  initiatePayment: null,
  webhooks: '/trades',
  dataDownload: '/trades',
  home: null,
  team: null,
  security: null,
};

/** Expected outcome of every route for every persona; null: the route opens. The others differ from the two above where written. */
const EXPECTED: Record<string, Partial<Record<RouteName, string | null>>> = {
  'admin@acme.test': ACME_ADMIN,
  'admin2@acme.test': ACME_ADMIN,
  'treasury@acme.test': { ...ACME_ADMIN, apiKeys: '/' },
  'viewer@acme.test': { ...ACME_ADMIN, apiKeys: '/', wallets: '/' },
  'admin@kora.test': KORA_ADMIN,
  // not whitelisted and without flags: no wallets, payments or initiating
  'admin@baobab.test': { ...KORA_ADMIN, wallets: '/', payments: '/trades', initiatePayment: '/trades' },
  // a B2B partner without feature flags
  'admin@lean.test': { ...ACME_ADMIN, coverage: '/', apiKeys: '/', wallets: '/', countries: '/', dataDownload: '/' },
};

describe('navigation guard', () => {
  for (const [who, input] of Object.entries(PERSONAS)) {
    describe(who, () => {
      for (const name of ALL) {
        const verified = input.isLoggedIn && input.verified;
        let expected: string | null | undefined;
        if (PUBLIC.includes(name)) expected = verified ? '/' : null;
        else if (PARTIAL.includes(name)) expected = !input.isLoggedIn ? '/login' : verified ? '/' : null;
        else if (!verified) expected = '/login';
        else expected = EXPECTED[who]![name];
        it(`${ROUTES[name].path} → ${expected ?? 'opens'}`, () => {
          expect(expected).not.toBeUndefined();
          expect(guard(ROUTES[name], input)).toBe(expected);
        });
      }
    });
  }

  it('checks admin-only before partner type (a commercial viewer opening API keys goes to /)', () => {
    expect(guard(ROUTES.apiKeys, persona('view', kind(false, true, true), ALL_FEATURE_FLAGS))).toBe('/');
  });

  // Both rules send to /, so the redirect alone cannot tell which ran first: a guard checking the flag first gave
  // the same answers. The rule that refused can: a viewer without the flag fails both, and the role must win.
  it('checks the wallet role before the feature flag', () => {
    expect(guardRefusal(ROUTES.wallets, persona('view', ACME, NO_FEATURE_FLAGS))).toEqual({ rule: 'walletRole', redirect: '/' });
    expect(guardRefusal(ROUTES.wallets, persona('view', ACME, ALL_FEATURE_FLAGS))).toEqual({ rule: 'walletRole', redirect: '/' });
    expect(guardRefusal(ROUTES.wallets, persona('treasury', ACME, NO_FEATURE_FLAGS))).toEqual({ rule: 'featureFlag', redirect: '/' });
    expect(guardRefusal(ROUTES.wallets, persona('treasury', ACME, ALL_FEATURE_FLAGS))).toBeNull();
  });

  it('checks admin-only before the feature flag (a viewer of a partner without API keys)', () => {
    expect(guardRefusal(ROUTES.apiKeys, persona('view', ACME, NO_FEATURE_FLAGS))).toEqual({ rule: 'adminOnly', redirect: '/' });
  });

  it('checks the partner type before the feature flag (a commercial partner without the reports flag)', () => {
    expect(guardRefusal(ROUTES.dataDownload, persona('admin', kind(false, true, true), NO_FEATURE_FLAGS))).toEqual({
      rule: 'partnerType',
      redirect: '/trades',
    });
  });

  it('sends home to transactions for B2B and to trades otherwise', () => {
    expect(homePath(ACME)).toBe('/transactions');
    expect(homePath(kind(false, true, true))).toBe('/trades');
    expect(homePath(kind(false, true, false))).toBe('/trades');
  });

  it("sends a B2B partner's user home to the first screen they chose; others have trades alone", () => {
    expect(homePath(ACME, 'overview')).toBe('/overview');
    expect(homePath(ACME, 'transactions')).toBe('/transactions');
    expect(homePath(kind(false, true, true), 'overview')).toBe('/trades');
  });
});

describe('/about', () => {
  it('is not a shared screen: B2B partners open it, commercial partners go to /trades (partner-type rule)', () => {
    expect(guardRefusal(ROUTES.about, PERSONAS['admin@acme.test']!)).toBeNull();
    expect(guardRefusal(ROUTES.about, PERSONAS['admin@lean.test']!)).toBeNull();
    expect(guardRefusal(ROUTES.about, PERSONAS['admin@kora.test']!)).toEqual({ rule: 'partnerType', redirect: '/trades' });
    expect(guardRefusal(ROUTES.about, PERSONAS['admin@baobab.test']!)).toEqual({ rule: 'partnerType', redirect: '/trades' });
    expect(guardRefusal(ROUTES.about, PERSONAS['signed out']!)).toEqual({ rule: 'authentication', redirect: '/login' });
  });
});
