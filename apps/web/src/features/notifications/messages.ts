import en from '../../locales/en/notifications.json';
import { defineMessages } from '../../lib/i18n.ts';

/** The bell's texts, with the names of the notification topics. */
export const notificationsMessages = defineMessages('notifications', en);
