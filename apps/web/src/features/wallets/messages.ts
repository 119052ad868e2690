import en from '../../locales/en/wallets.json';
import { defineMessages, type MessageKey } from '../../lib/i18n.ts';

/** The wallets screen's texts: the settlement wallets, their dialogs and the review banners. */
export const walletsMessages = defineMessages('wallets', en);
export type WalletsKey = MessageKey<typeof en>;
