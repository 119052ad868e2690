import en from '../../locales/en/settings.json';
import { defineMessages, type MessageKey, type Translate } from '../../lib/i18n.ts';

/** The texts of Settings (its sections, the payout schedule, the links to Team and Security). */
export const settingsMessages = defineMessages('settings', en);
export type SettingsKey = MessageKey<typeof en>;
export type SettingsT = Translate<typeof en>;
