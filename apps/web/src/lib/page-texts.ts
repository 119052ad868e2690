/**
 * The titles and descriptions of the screens people open first: the screens draw them, and so does the frame's
 * skeleton of each before its data arrives (app/layout/page-skeleton.tsx), in the same place.
 */
export const PAGE_TEXTS = {
  transactions: { title: 'Transactions', description: 'Your payments, collections, settlements and fees.' },
  trades: { title: 'Trades', description: 'Your trades between local currency and stablecoins.' },
  payments: { title: 'Initiate payments', description: 'Payments you initiated, newest first.' },
  balance: {
    title: 'Balance',
    description: 'Your available funds. Top up with stablecoins sent to your deposit address; withdraw to one of your settlement wallets.',
  },
  settings: { title: 'Settings', description: 'Balance alerts, payouts, your notifications, your time zone and your team.' },
} as const;
