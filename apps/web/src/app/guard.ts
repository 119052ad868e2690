import { can } from '@portal/contract/permissions';
import type { FeatureFlags, Role } from '@portal/contract/domain';
import type { Partner } from '@portal/contract/partner';
import type { StartScreen } from '@portal/contract/team';
import type { RouteMeta } from './routes.ts';

export type GuardInput = {
  isLoggedIn: boolean;
  verified: boolean;
  role?: Role;
  /** the partner's kind and flags; needed once verified */
  partner?: Pick<Partner, 'isB2B' | 'isCommercial' | 'isWhitelistedCommercial'>;
  featureFlags?: FeatureFlags;
};

/** The rules of the guard, in the spec's order. */
export type GuardRule = 'authentication' | 'adminOnly' | 'walletRole' | 'partnerType' | 'featureFlag';
export type GuardRefusal = { rule: GuardRule; redirect: string };

/**
 * The navigation guard of portal-core §2, in the spec's order: authentication, admin-only, wallet management role,
 * partner type, feature flags. Answers the first rule that refuses the route and where it sends the user, or null
 * when the route may open. (Several rules send to /: the rule named is what shows which one was checked first.)
 */
export function guardRefusal(route: RouteMeta, s: GuardInput): GuardRefusal | null {
  const refuse = (rule: GuardRule, redirect: string): GuardRefusal => ({ rule, redirect });
  // 1. authentication
  const verifiedUser = s.isLoggedIn && s.verified;
  if (route.access === 'public') return verifiedUser ? refuse('authentication', '/') : null;
  if (route.access === 'partial') {
    if (!s.isLoggedIn) return refuse('authentication', '/login');
    return s.verified ? refuse('authentication', '/') : null;
  }
  if (!verifiedUser) return refuse('authentication', '/login');

  // 2. admin-only, then 3. wallet management (treasury or admin): whom the permission table lets do the route's action
  const { requires } = route;
  if (requires?.rule === 'adminOnly' && !can(s.role, requires.action)) return refuse('adminOnly', '/');
  if (requires?.rule === 'walletRole' && !can(s.role, requires.action)) return refuse('walletRole', '/');

  // 4. partner type
  const p = s.partner ?? { isB2B: false, isCommercial: false, isWhitelistedCommercial: false };
  if (route.area !== 'shared') {
    if (p.isCommercial && !p.isWhitelistedCommercial) {
      if (route.area !== 'trades') return refuse('partnerType', '/trades');
    } else if (p.isCommercial) {
      if (route.area !== 'trades' && route.area !== 'payments') return refuse('partnerType', '/trades');
    } else if (p.isB2B) {
      if (route.area === 'trades' || route.area === 'payments') return refuse('partnerType', '/transactions');
    } else {
      return refuse('partnerType', '/trades');
    }
  }

  // 5. feature flags
  if (route.featureFlag && !s.featureFlags?.[route.featureFlag]) return refuse('featureFlag', '/');
  return null;
}

/** Where the guard sends the user instead of the route, or null when the route may open. */
export const guard = (route: RouteMeta, s: GuardInput): string | null => guardRefusal(route, s)?.redirect ?? null;

/**
 * Where home sends a verified user (portal-core §2, §9): a B2B partner's user to the first screen they chose (the
 * transactions unless they chose the Overview), others to their trades.
 */
export const homePath = (partner: GuardInput['partner'], startScreen: StartScreen = 'transactions') =>
  partner?.isB2B ? (startScreen === 'overview' ? '/overview' : '/transactions') : '/trades';
