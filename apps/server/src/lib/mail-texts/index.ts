import type { Language } from '@portal/contract/i18n';
import { en, type MailTexts } from './en.ts';
import { fr } from './fr.ts';

/**
 * The words of the e-mails and notifications, one file per language (en.ts, fr.ts). An e-mail is written in its
 * recipient's language (lib/language.ts mailLanguage); a notification is written in every language, and the bell
 * shows the reader's.
 */
export const MAIL_TEXTS: Record<Language, MailTexts> = { en, fr };

export type { MailTexts };
export type { Notice, Person, WalletRef, CountryChange, WebhookChange } from './types.ts';
export { utcDateTime } from './format.ts';
