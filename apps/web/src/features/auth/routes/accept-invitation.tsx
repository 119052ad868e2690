import { useQuery } from '@tanstack/react-query';
import { Link, useLocation } from 'react-router';
import { TEAM_MESSAGES } from '@portal/contract/team';
import { Alert } from '../../../components/ui/alert.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useSession } from '../../../lib/session/session-store.ts';
import { lookupInvitation } from '../api/invitation.ts';
import { AuthCard } from '../components/auth-card.tsx';
import { NewPasswordForm } from '../components/new-password-form.tsx';
import { localizeMessage, useT } from '../../../lib/i18n.ts';
import { authMessages } from '../messages.ts';

/** The token of an invitation link: `/accept-invitation#token=…` (a fragment, so it reaches no server's log). */
export const invitationToken = (hash: string) => new URLSearchParams(hash.replace(/^#/, '')).get('token') ?? '';

/**
 * An invitation's one-time link: what it invites to, then the invitee's first step, choosing a password (the
 * spec's NEW_PASSWORD_REQUIRED, the token standing for the temporary password). A link that is unknown, used or
 * expired says so, and how to get a new one.
 */
export function AcceptInvitationScreen() {
  const t = useT(authMessages);
  const token = invitationToken(useLocation().hash);
  const invitation = useQuery({
    queryKey: ['invitation', token],
    queryFn: async () => {
      const found = await lookupInvitation(token);
      // the session holds the step from here: the authenticator step after it counts on
      useSession.getState().beginInvitation({ email: found.email, token, partnerName: found.partnerName, role: found.role });
      return found;
    },
    enabled: token !== '',
    retry: false,
    staleTime: Infinity,
  });

  if (token === '' || invitation.isError) {
    return (
      <AuthCard title={t('invitation.unusable')}>
        <Alert tone="danger">{invitation.error?.message ?? localizeMessage(TEAM_MESSAGES.invitationInvalid)}</Alert>
        <Link to="/login" className="mt-4 inline-block text-sm font-medium text-brand-700 hover:underline">
          {t('backToSignIn')}
        </Link>
      </AuthCard>
    );
  }
  if (!invitation.data) {
    return (
      <AuthCard title={t('invitation.opening')}>
        <p className="flex items-center gap-2 text-sm text-muted" role="status">
          <Spinner className="size-4" /> {t('invitation.checking')}
        </p>
      </AuthCard>
    );
  }
  const { email, partnerName, role } = invitation.data;
  return <NewPasswordForm email={email} tempPassword={token} invitation={{ partnerName, role }} />;
}
