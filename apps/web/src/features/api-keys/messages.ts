import en from '../../locales/en/api-keys.json';
import { defineMessages } from '../../lib/i18n.ts';

/** The API keys screen's texts: the keys, their dialogs and the allowed IP addresses. */
export const apiKeysMessages = defineMessages('api-keys', en);
