import type { LoginResponse } from '@portal/contract/auth';
import { useSession } from '../../lib/session/session-store.ts';
import { commonMessages } from '../../lib/common-messages.ts';
import { translator } from '../../lib/i18n.ts';

/** Where each sign-in challenge continues (portal-core §4). NEW_PASSWORD_REQUIRED comes from an invitation link, not a sign-in. */
export function nextPathFor(res: LoginResponse): string {
  switch (res.challengeName) {
    case 'MFA_SETUP':
    case 'SOFTWARE_TOKEN_MFA':
      return '/two-factor-authentication';
    case 'PASSWORD_RESET_REQUESTED':
      return '/requested-password-reset?reason=admin';
    default:
      throw new Error(translator(commonMessages)('errors.challengeNotImplemented'));
  }
}

/** Stores the challenge and answers the path to go to. */
export function continueSignIn(res: LoginResponse, credentials: { email: string; password: string }): string {
  useSession.getState().applyChallenge(res, credentials);
  return nextPathFor(res);
}
