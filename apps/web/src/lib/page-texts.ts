import en from '../locales/en/page-texts.json';
import { frameMessages } from './frame-messages.ts';
import { defineMessages, translator } from './i18n.ts';

/** The headers of the transaction screens (transactions, trades, payments) and of the Overview. */
export const pageTextsMessages = defineMessages('page-texts', en);

type Header = { readonly title: string; readonly description: string };

/**
 * A screen's title and description, looked up each time they are read (getters), so that a screen spreading them
 * (`<PageHeader {...PAGE_TEXTS.trades} />`) draws them in the language in force, never in that of the module's load.
 */
const header = (title: () => string, description: () => string): Header => ({
  get title() {
    return title();
  },
  get description() {
    return description();
  },
});
const transactionScreen = (name: 'transactions' | 'trades' | 'payments' | 'overview') =>
  header(
    () => translator(pageTextsMessages)(`${name}.title`),
    () => translator(pageTextsMessages)(`${name}.description`),
  );
const frameScreen = (name: 'balance' | 'settings') =>
  header(
    () => translator(frameMessages)(`page.${name}.title`),
    () => translator(frameMessages)(`page.${name}.description`),
  );

/**
 * The titles and descriptions of the screens people open first: the screens draw them, and so does the frame's
 * skeleton of each before its data arrives (app/layout/page-skeleton.tsx), in the same place.
 */
export const PAGE_TEXTS = {
  overview: transactionScreen('overview'),
  transactions: transactionScreen('transactions'),
  trades: transactionScreen('trades'),
  payments: transactionScreen('payments'),
  balance: frameScreen('balance'),
  settings: frameScreen('settings'),
} as const;
