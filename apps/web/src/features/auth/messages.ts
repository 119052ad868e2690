import en from '../../locales/en/auth.json';
import { defineMessages } from '../../lib/i18n.ts';

/** The sign-in screens' texts: sign-in, two-factor step, authenticator set-up, password reset, invitation. */
export const authMessages = defineMessages('auth', en);
