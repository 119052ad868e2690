import type { FilterKey } from '@portal/contract/transactions';

/**
 * The tables of /transactions by the display index their tab has in `?tab=` (transaction-data §2): payments 1 (the
 * default), collections 2, settlements 3, fees 4, and the combined one 5. Links made elsewhere (the Overview's
 * figures) carry these numbers, so the tables and the links read them from here.
 */
export const TRANSACTION_TABS = { payments: 1, collections: 2, settlements: 3, fees: 4, all: 5 } as const;
export type TransactionTab = keyof typeof TRANSACTION_TABS;

/**
 * The search parameters of the address that hold a table's state, so that a reload keeps it and a link shares it:
 * `page` (from 1), `id`, `from` and `to` (YYYY-MM-DD), `wallet`, and each filter by its key (`status=failed`).
 */
export const TRANSACTION_URL_KEYS = { page: 'page', id: 'id', from: 'from', to: 'to', wallet: 'wallet' } as const;

/**
 * The address of a table of /transactions opened on a period of days (in the user's zone, as the tables read their
 * dates), a wallet ('all' leaves it out) and filters by their keys; a status filter lists its statuses separated by
 * commas.
 */
export function transactionsLink(
  table: TransactionTab,
  o: { from: string; to: string; wallet: string; filters?: Partial<Record<FilterKey, string | readonly string[]>> },
): string {
  const params = new URLSearchParams({ tab: String(TRANSACTION_TABS[table]) });
  for (const [key, value] of Object.entries(o.filters ?? {})) {
    const text = typeof value === 'string' ? value : (value ?? []).join(',');
    if (text) params.set(key, text);
  }
  params.set(TRANSACTION_URL_KEYS.from, o.from);
  params.set(TRANSACTION_URL_KEYS.to, o.to);
  if (o.wallet && o.wallet !== 'all') params.set(TRANSACTION_URL_KEYS.wallet, o.wallet);
  return `/transactions?${params.toString()}`;
}
