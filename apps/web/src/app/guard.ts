import type { FeatureFlags, Role } from '@portal/contract/domain';
import type { RouteMeta } from './routes.ts';

export type GuardInput = {
  isLoggedIn: boolean;
  verified: boolean;
  role?: Role;
  /** the partner's kind and flags; needed once verified */
  partner?: { isB2B: boolean; isCommercial: boolean; isWhitelistedCommercial: boolean };
  featureFlags?: FeatureFlags;
};

/**
 * The navigation guard of portal-core §2, in the spec's order: authentication, admin-only, wallet management role,
 * partner type, feature flags. Answers the path to redirect to, or null when the route may open.
 */
export function guard(route: RouteMeta, s: GuardInput): string | null {
  // 1. authentication
  const verifiedUser = s.isLoggedIn && s.verified;
  if (route.access === 'public') return verifiedUser ? '/' : null;
  if (route.access === 'partial') {
    if (!s.isLoggedIn) return '/login';
    return s.verified ? '/' : null;
  }
  if (!verifiedUser) return '/login';

  // 2. admin-only
  if (route.adminOnly && s.role !== 'admin') return '/';

  // 3. wallet management: treasury or admin
  if (route.walletManagement && s.role !== 'treasury' && s.role !== 'admin') return '/';

  // 4. partner type
  const p = s.partner ?? { isB2B: false, isCommercial: false, isWhitelistedCommercial: false };
  if (route.area !== 'shared') {
    if (p.isCommercial && !p.isWhitelistedCommercial) {
      if (route.area !== 'trades') return '/trades';
    } else if (p.isCommercial) {
      if (route.area !== 'trades' && route.area !== 'payments') return '/trades';
    } else if (p.isB2B) {
      if (route.area === 'trades' || route.area === 'payments') return '/transactions';
    } else {
      return '/trades';
    }
  }

  // 5. feature flags
  if (route.featureFlag && !s.featureFlags?.[route.featureFlag]) return '/';
  return null;
}

/** Where home sends a verified user (portal-core §2, §9). */
export const homePath = (partner: GuardInput['partner']) => (partner?.isB2B ? '/transactions' : '/trades');
