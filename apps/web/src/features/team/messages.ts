import en from '../../locales/en/team.json';
import { defineMessages, type MessageKey, type Translate } from '../../lib/i18n.ts';

/** The texts of the team screen and its dialogs, and the roles' names and descriptions. */
export const teamMessages = defineMessages('team', en);
export type TeamT = Translate<typeof en>;
export type TeamKey = MessageKey<typeof en>;
