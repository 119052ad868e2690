import en from '../../locales/en/fiat-wallets.json';
import { defineMessages } from '../../lib/i18n.ts';

/** The fiat wallets screen's texts: the list, its switches and their toasts. */
export const fiatWalletsMessages = defineMessages('fiat-wallets', en);
