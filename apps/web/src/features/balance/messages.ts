import en from '../../locales/en/balance.json';
import { defineMessages, type MessageKey } from '../../lib/i18n.ts';

/** The balance screen's texts: the balances, the movements, the statement, the top-up and withdrawal dialogs. */
export const balanceMessages = defineMessages('balance', en);
export type BalanceKey = MessageKey<typeof en>;
