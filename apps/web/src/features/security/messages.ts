import en from '../../locales/en/security.json';
import { defineMessages } from '../../lib/i18n.ts';

/** The texts of the security screen: sessions, passkeys and the security history (its sentences and kinds are the contract's). */
export const securityMessages = defineMessages('security', en);
