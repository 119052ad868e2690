import { PartnerProfile } from '@portal/contract/partner';

/** Where this browser keeps the last partner it showed (localStorage: a reload and a new tab draw the frame at once). */
const KEY = 'portal.frame';

/** What the frame draws before the partner arrives: the partner's name, id, kind and flags (no balances, no people). */
const Remembered = PartnerProfile.pick({ partner: true, featureFlags: true });
export type RememberedPartner = { partner: PartnerProfile['partner']; featureFlags: PartnerProfile['featureFlags'] };

function storage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}

/** Keeps the partner just read for this user, for the next first paint in this browser. */
export function rememberPartner(userId: string, profile: PartnerProfile) {
  try {
    storage()?.setItem(KEY, JSON.stringify({ userId, partner: profile.partner, featureFlags: profile.featureFlags }));
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
    const raw: unknown = JSON.parse(storage()?.getItem(KEY) ?? 'null');
    if (!raw || typeof raw !== 'object' || (raw as { userId?: unknown }).userId !== userId) return undefined;
    const parsed = Remembered.safeParse(raw);
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Logout forgets it (portal-core §9: logout resets partner state, feature flags and product types). */
export function forgetPartner() {
  try {
    storage()?.removeItem(KEY);
  } catch {
    // nothing kept
  }
}
