import { sessionEndMessage, type SessionEndReason } from '@portal/contract/live';
import { AppError } from '../../lib/errors.ts';

/** The reasons a session is ended with (`auth_sessions.ended_reason`); 'expired' is read from its expiry instead. */
export type EndReason = Exclude<SessionEndReason, 'expired'>;

/** What a read of a session and its user (`sessionUser`) says of both. */
type SessionState = { revoked_at: Date | null; ended_reason: string | null; status: string };

const byStatus = (status: string): SessionEndReason | undefined => (status === 'active' ? undefined : status === 'deleted' ? 'removed' : 'deactivated');

/**
 * Why the session no longer serves, or undefined while it is open and its user active: the reason it was ended with;
 * else, for a user no longer active, removed (deleted) or deactivated. A session ended before reasons were kept says
 * 'expired' (nothing more is known of it).
 */
export function sessionEnd(state: SessionState): SessionEndReason | undefined {
  if (state.revoked_at) return (state.ended_reason as EndReason | null) ?? byStatus(state.status) ?? 'expired';
  return byStatus(state.status);
}

/**
 * The 401 of a call or a refresh of a session that ended: code SessionEnded, the reason, and the words for it
 * (a removed user is told which partner's access it lost, so its name is read, on this path only).
 */
export async function sessionEnded(reason: SessionEndReason, partnerId: string, partnerName: (partnerId: string) => Promise<string | undefined>) {
  const name = reason === 'removed' ? await partnerName(partnerId) : undefined;
  return new AppError(401, 'SessionEnded', sessionEndMessage(reason, name), { reason });
}
