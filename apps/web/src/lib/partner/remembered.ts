import type { PartnerProfile } from '@portal/contract/partner';
import { buildInfo } from '../build-info.ts';
import { localStore } from '../local-store.ts';

/** Where this browser keeps the last partner it showed (localStorage: a reload and a new tab draw the frame at once). */
const KEY = 'portal.frame';

/**
 * The build that wrote it. The value is the partner this build read and checked with the contract's schema; a value
 * another build wrote (whose shape may differ) is not used. So it is not parsed again at start, where building and
 * running that schema was some 60 ms of a phone's first render; it is never trusted for access anyway.
 */
const BUILD = `${buildInfo.commit}@${buildInfo.builtAt}`;

/** What the frame draws before the partner arrives: the partner's name, id, kind and flags (no balances, no people). */
export type RememberedPartner = { partner: PartnerProfile['partner']; featureFlags: PartnerProfile['featureFlags'] };

/** Keeps the partner just read for this user, for the next first paint in this browser. */
export function rememberPartner(userId: string, profile: PartnerProfile) {
  try {
    localStore()?.setItem(KEY, JSON.stringify({ build: BUILD, userId, partner: profile.partner, featureFlags: profile.featureFlags }));
  } catch {
    // storage full or refused: the next first paint waits for the partner, as without it
  }
}

/**
 * The partner this browser last showed this user, to draw the frame (logo, partner, navigation) and the screen's
 * skeleton before the partner arrives. Never trusted for access: the guard decides on the partner the server sends.
 */
export function rememberedPartner(userId: string | undefined): RememberedPartner | undefined {
  if (!userId) return undefined;
  try {
    const raw = JSON.parse(localStore()?.getItem(KEY) ?? 'null') as Partial<RememberedPartner & { build: string; userId: string }> | null;
    if (!raw || typeof raw !== 'object' || raw.build !== BUILD || raw.userId !== userId) return undefined;
    const { partner, featureFlags } = raw;
    if (!partner || typeof partner !== 'object' || !featureFlags || typeof featureFlags !== 'object') return undefined;
    return { partner, featureFlags };
  } catch {
    return undefined;
  }
}

/** Logout forgets it (portal-core §9: logout resets partner state, feature flags and product types). */
export function forgetPartner() {
  try {
    localStore()?.removeItem(KEY);
  } catch {
    // nothing kept
  }
}
