import en from '../../locales/en/transactions.json';
import { defineMessages, type MessageKey } from '../../lib/i18n.ts';

/** The transaction tables' texts: tabs, columns, filters, pager, empty states, details drawer, fiat wallet screen. */
export const transactionsMessages = defineMessages('transactions', en);
export type TransactionsKey = MessageKey<typeof en>;
