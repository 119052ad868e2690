import { z } from 'zod';

/** The signed-in user's event stream (server-sent events). */
export const LIVE_EVENTS_PATH = '/events';

/**
 * What a change touched, so that the portal refetches only what shows it: the transaction tables and payments, the
 * enabled countries (a change asked for, approved or refused), the settlement wallets (added, approved, denied,
 * screened), the webhooks (endpoints and their deliveries), the API keys (a change, a key's last use), the team, and
 * the notifications (one was written for someone of the partner: each reads only their own).
 */
export const LIVE_TOPICS = ['payments', 'collections', 'settlements', 'countries', 'wallets', 'webhooks', 'api-keys', 'team', 'notifications'] as const;
export type LiveTopic = (typeof LIVE_TOPICS)[number];

/** One change the live event stream announces (`event: change`): which row moved, and to what. */
export const LiveEvent = z.object({
  table: z.enum(LIVE_TOPICS),
  kind: z.string(),
  id: z.string(),
  status: z.string(),
  at: z.string(),
});
export type LiveEvent = z.infer<typeof LiveEvent>;

/**
 * `event: access`: what this user may see or do changed (a role, the partner's feature flags or kind). The portal
 * reads the profile again (it carries the user's current role) and redraws navigation, buttons and guards.
 */
export const LiveAccessEvent = z.object({ reason: z.enum(['role', 'partner']) });
export type LiveAccessEvent = z.infer<typeof LiveAccessEvent>;

/** Why a session ended: the portal says it in words on the sign-in page. */
export const SessionEndReason = z.enum([
  'logout',
  'removed',
  'deactivated',
  'password-reset',
  'password-changed',
  'refresh-reuse',
  'ended-remotely',
  'expired',
]);
export type SessionEndReason = z.infer<typeof SessionEndReason>;

/** The words for each reason; `partner` is the partner's name where the reason needs it. */
export function sessionEndMessage(reason: SessionEndReason, partner?: string): string {
  switch (reason) {
    case 'logout':
      return 'You signed out in another tab or window.';
    case 'removed':
      return `You no longer have access to ${partner ?? 'this partner'}.`;
    case 'deactivated':
      return "You don't have access to this dashboard currently. Contact your administrator if this is an error.";
    case 'password-reset':
      return 'An admin reset your password. Sign in again and use the code sent to your e-mail to choose a new one.';
    case 'password-changed':
      return 'Your password was changed. Sign in with the new password.';
    case 'refresh-reuse':
      return 'For your security your session was ended, because it was used from two places at once. Sign in again.';
    case 'ended-remotely':
      return 'This session was ended from your security settings in another browser. Sign in again.';
    case 'expired':
      return 'Your session has expired. Sign in again.';
  }
}

/**
 * `event: ended`: the session of this stream ended (the stream closes after it). Also the body of the 401
 * `SessionEnded` that a call or a refresh of an ended session answers (with the error's code and request id).
 */
export const LiveEndedEvent = z.object({ reason: SessionEndReason, message: z.string() });
export type LiveEndedEvent = z.infer<typeof LiveEndedEvent>;

export const LIVE_MESSAGES = {
  tooManyStreams: 'Too many open event streams: close other tabs of the portal and try again.',
} as const;
