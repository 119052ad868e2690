import { COUNTRIES, LOCAL_CURRENCIES } from '@portal/contract/countries';
import { COINS, PAYMENT_METHODS, REQUEST_SOURCES, SETTLEMENT_STATUSES, TRANSACTION_STATUSES } from '@portal/contract/domain';
import type { SettlementRow, TransactionRow, TransactionRowOf } from '@portal/contract/transaction-rows';
import type { FilterKey, SearchTable } from '@portal/contract/transactions';
import {
  formatCrypto,
  formatDate,
  formatMoney,
  paymentMethodLabel,
  requestSourceLabel,
  titleCase,
  transactionTypeLabel,
} from '../../lib/format.ts';

/** A row of any table, as the server sends it (the row schemas of the contract). */
export type Row = TransactionRow;
/** A column over the rows of type R: a column that reads a field only the rows of some tables have says so in R. */
export type Column<R = Row> = { header: string; cell(row: R): string; /** the value an export writes */ raw?(row: R): string };
export type FilterCategory = { key: FilterKey; name: string; options: string[]; selected: string };

const id: Column<{ id: string }> = { header: 'ID', cell: (r) => r.id };
const date: Column<{ createdAt: string }> = { header: 'Date', cell: (r) => formatDate(r.createdAt), raw: (r) => r.createdAt };
const country: Column<{ country: string }> = { header: 'Country', cell: (r) => r.country };
const status: Column<{ status: string }> = { header: 'Status', cell: (r) => titleCase(r.status) };
const method: Column<{ paymentMethod: string }> = { header: 'Payment Method', cell: (r) => paymentMethodLabel(r.paymentMethod) };
const wallet: Column<{ fiatWallet: string | null }> = { header: 'Wallet', cell: (r) => r.fiatWallet ?? 'USD' };
const localAmount: Column<{ amount: string; currency: string }> = { header: 'Amount', cell: (r) => formatMoney(r.amount, r.currency), raw: (r) => r.amount };

/**
 * A settlement shows the wallet currency with the fiat amount (default 0.00) when its wallet is present and not
 * USD; otherwise the crypto currency with the crypto amount (transaction-data §9).
 */
export function settlementAmount(r: Pick<SettlementRow, 'fiatWallet' | 'fiatAmount' | 'cryptoAmount' | 'cryptoCurrency'>): string {
  if (r.fiatWallet && r.fiatWallet !== 'USD') return formatMoney(r.fiatAmount ?? '0', r.fiatWallet);
  return formatCrypto(r.cryptoAmount, r.cryptoCurrency);
}

export type TabDef<T extends SearchTable = SearchTable> = {
  index: number;
  key: T;
  label: string;
  columns(walletMode: boolean): Column<TransactionRowOf<T>>[];
  filters(): FilterCategory[];
  /** the failed-fetch message (transaction-data §8) */
  fetchError: string;
};

/** A filter category whose preset options are one of the contract's lists. */
const cat = (key: FilterKey, name: string, options: readonly string[]): FilterCategory => ({ key, name, options: [...options], selected: '' });

const payments: TabDef<'payments'> = {
  index: 1,
  key: 'payments',
  label: 'Payments',
  columns: (w) => [id, date, country, ...(w ? [wallet] : []), localAmount, status, method],
  filters: () => [cat('status', 'Status', TRANSACTION_STATUSES), cat('country', 'Country', COUNTRIES)],
  fetchError: 'Could not retrieve payment records',
};
const collections: TabDef<'collections'> = {
  index: 2,
  key: 'collections',
  label: 'Collections',
  columns: (w) => [id, date, country, ...(w ? [wallet] : []), localAmount, status, method, { header: 'Request Source', cell: (r) => requestSourceLabel(r.requestSource) }],
  filters: () => [cat('status', 'Status', TRANSACTION_STATUSES), cat('country', 'Country', COUNTRIES), cat('requestSource', 'Request Source', REQUEST_SOURCES)],
  fetchError: 'Could not retrieve collection records',
};
const settlements: TabDef<'settlements'> = {
  index: 3,
  key: 'settlements',
  label: 'Settlements',
  columns: (w) => [id, date, ...(w ? [wallet] : []), { header: 'Transaction type', cell: (r) => transactionTypeLabel(r.type) }, { header: 'Amount', cell: settlementAmount, raw: (r) => r.cryptoAmount }, status],
  filters: () => [cat('status', 'Status', SETTLEMENT_STATUSES)],
  fetchError: 'Could not retrieve settlement records',
};
const fees: TabDef<'fees'> = {
  index: 4,
  key: 'fees',
  label: 'Fees',
  columns: (w) => [id, date, ...(w ? [wallet] : []), { header: 'Amount', cell: (r) => formatMoney(r.amountUsd, 'USD'), raw: (r) => r.amountUsd }, { header: 'Transaction Type', cell: (r) => transactionTypeLabel(r.transactionType) }, method],
  // payment method starts from the preset list; transaction type starts empty and fills from loaded rows
  filters: () => [cat('paymentMethod', 'Payment Method', PAYMENT_METHODS), cat('transactionType', 'Transaction Type', [])],
  fetchError: 'Could not retrieve fees records',
};

/** The four tabs by display index: payments = 1 (the default), collections, settlements, fees. */
export const TABS: TabDef[] = [payments, collections, settlements, fees];

/** An unknown display index falls back to payments. */
export const tabByIndex = (index: number | string | null | undefined) => TABS.find((t) => t.index === Number(index)) ?? TABS[0]!;

const trades: Omit<TabDef<'trades'>, 'index'> = {
  key: 'trades',
  label: 'Trades',
  columns: () => [
    { header: 'date', cell: (r) => formatDate(r.createdAt), raw: (r) => r.createdAt },
    { header: 'trade id', cell: (r) => r.tradeId },
    { header: 'country', cell: (r) => r.country },
    { header: 'you sold', cell: (r) => (Number(r.cryptoSold) > 0 ? formatCrypto(r.cryptoSold, r.cryptoCurrency) : formatMoney(r.fiatSold, r.fiatCurrency)) },
    { header: 'you received', cell: (r) => (Number(r.fiatBought) > 0 ? formatMoney(r.fiatBought, r.fiatCurrency) : formatCrypto(r.cryptoBought, r.cryptoCurrency)) },
    { header: 'rate including fee', cell: (r) => formatMoney(r.effectiveRate, r.fiatCurrency) },
  ],
  filters: () => [cat('country', 'Country of Trade', COUNTRIES), cat('cryptoCurrency', 'Cryptocurrency', COINS), cat('fiatCurrency', 'Local Currency', LOCAL_CURRENCIES)],
  fetchError: 'Could not retrieve partner transactions',
};
export const TRADES: Omit<TabDef, 'index'> = trades;

const initiatedPayments: Omit<TabDef<'initiate-payments'>, 'index'> = {
  key: 'initiate-payments',
  label: 'Initiated payments',
  columns: () => [id, date, country, { header: 'Recipient', cell: (r) => r.recipientName }, { header: 'Amount', cell: (r) => formatMoney(r.amount, r.localCurrency), raw: (r) => r.amount }, status, method],
  filters: () => [cat('localCurrency', 'Local Currency', LOCAL_CURRENCIES), cat('status', 'Status', TRANSACTION_STATUSES)],
  fetchError: 'Could not retrieve partner transactions',
};
export const INITIATED_PAYMENTS: Omit<TabDef, 'index'> = initiatedPayments;

/** Filter options for payment method and transaction type grow with the values found in loaded rows, without duplicates. */
export function growOptions(categories: FilterCategory[], rows: Row[]): FilterCategory[] {
  const field: Partial<Record<FilterKey, 'paymentMethod' | 'transactionType'>> = { paymentMethod: 'paymentMethod', transactionType: 'transactionType' };
  return categories.map((c) => {
    const f = field[c.key];
    if (!f) return c;
    const found = rows.map((r) => (f in r ? (r as Record<typeof f, unknown>)[f] : undefined)).filter((v): v is string => typeof v === 'string' && !!v);
    const have = new Set(c.options.map((o) => o.toLowerCase()));
    const added = [...new Set(found)].filter((v) => !have.has(v.toLowerCase()));
    return added.length ? { ...c, options: [...c.options, ...added] } : c;
  });
}

export type EmptyState = 'noData' | 'noDataForId' | 'noDataForFilter' | 'noDataForDate' | null;

/** The four mutually exclusive empty states of transaction-data §2; none while rows exist. */
export function emptyState(o: { rows: number; idFilter: string; anyFilter: boolean; hasDate: boolean }): EmptyState {
  if (o.rows > 0) return null;
  if (o.hasDate) return 'noDataForDate';
  if (o.idFilter.trim()) return 'noDataForId';
  if (o.anyFilter) return 'noDataForFilter';
  return 'noData';
}
