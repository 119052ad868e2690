import { Fragment, useEffect, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { UserPreferences, type UpdateUserPreferencesRequest } from '@portal/contract/team';
import { initialLanguage, setLanguage } from './i18n.ts';
import { api } from './api-client.ts';
import { startOr } from './start.ts';
import { setDisplayTimeZone } from './format.ts';
import { useSession } from './session/session-store.ts';

/** The zone the browser is in ("Africa/Nairobi"); UTC when it does not say. */
export const browserTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

const preferencesKey = (userId: string | undefined) => ['user', userId, 'preferences'] as const;

/** The preferences this tab last read, per user (session storage: the tab's, like its access token). */
const STORE = 'portal-time-zone';
function remembered(userId: string | undefined): UserPreferences | undefined {
  try {
    const stored = JSON.parse(sessionStorage.getItem(STORE) ?? 'null') as ({ userId?: string } & Partial<UserPreferences>) | null;
    return stored && stored.userId === userId && stored.timeZone !== undefined && stored.language !== undefined
      ? { timeZone: stored.timeZone, language: stored.language, startScreen: stored.startScreen ?? 'transactions' }
      : undefined;
  } catch {
    return undefined;
  }
}
function remember(userId: string | undefined, prefs: UserPreferences): UserPreferences {
  try {
    sessionStorage.setItem(STORE, JSON.stringify({ userId, timeZone: prefs.timeZone, language: prefs.language, startScreen: prefs.startScreen }));
  } catch {
    // storage full or refused: the preference is read from the server each time
  }
  return prefs;
}
/** Other tabs of the same browser hear of a change at once (and read the preference again). */
const CHANNEL = 'portal-time-zone';

function announce() {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage('changed');
  channel.close();
}

/**
 * The signed-in user's preferences (time zone and language), read at start and saved on the server per user; a
 * save sends only what changes, and other tabs read them again.
 */
export function usePreferences() {
  const userId = useSession((s) => s.user?.id);
  const qc = useQueryClient();
  const query = useQuery({
    queryKey: preferencesKey(userId),
    queryFn: async () => remember(userId, await startOr('preferences', UserPreferences, () => api.get('user/preferences', { schema: UserPreferences }))),
    enabled: Boolean(userId),
    staleTime: Infinity,
    // what this tab last read: a reload draws at once in the right zone, and the answer confirms it
    placeholderData: () => remembered(userId),
  });
  const save = useMutation({
    mutationFn: (change: UpdateUserPreferencesRequest) => api.put('user/preferences', change, { schema: UserPreferences }),
    onSuccess: (data) => {
      qc.setQueryData(preferencesKey(userId), remember(userId, data));
      announce();
    },
  });
  return { query, save, pending: query.isPending && Boolean(userId) };
}

/**
 * The signed-in user's time zone: the one every time, date filter and export uses (UTC unless the user chose their
 * browser's, saved on the server per user). Reading it also makes it the zone of the shared formatter. It gives the
 * saved language of the same preferences too (undefined until they are read), which TimeZoneScope puts in force.
 */
export function useTimeZone() {
  const { query, save, pending } = usePreferences();
  const chosen = query.data?.timeZone ?? null;
  const zone = chosen ?? 'UTC';
  setDisplayTimeZone(zone);
  return { zone, chosen, pending, save, language: query.data?.language };
}

/**
 * The signed-in pages, drawn in the user's zone: once the preference is known (at once when it is cached), and drawn
 * again when it changes, here or in another tab, so that every time on screen follows it together.
 */
export function TimeZoneScope({ children }: { children: ReactNode }) {
  const userId = useSession((s) => s.user?.id);
  const qc = useQueryClient();
  const { zone, language } = useTimeZone();
  useEffect(() => {
    if (typeof BroadcastChannel === 'undefined') return;
    const channel = new BroadcastChannel(CHANNEL);
    channel.onmessage = () => void qc.invalidateQueries({ queryKey: preferencesKey(userId) });
    return () => channel.close();
  }, [qc, userId]);
  // the user's saved language, once known, is the page's (their choice follows them from browser to browser); none
  // saved: this browser's
  useEffect(() => {
    if (language === undefined) return;
    void setLanguage(language ?? initialLanguage(), { remember: language !== null });
  }, [language]);
  // drawn at once (in UTC, or the zone this tab last read) rather than after one more request: a first answer that
  // differs draws the pages again in its zone
  return <Fragment key={zone}>{children}</Fragment>;
}
