import en from '../../locales/en/webhooks.json';
import { defineMessages } from '../../lib/i18n.ts';

/** The webhooks screen's texts: the endpoints, their dialogs and the deliveries. */
export const webhooksMessages = defineMessages('webhooks', en);
