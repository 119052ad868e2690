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

export type Row = Record<string, string | null | undefined>;
export type Column = { header: string; cell(row: Row): string; /** the value an export writes */ raw?(row: Row): string };
export type FilterCategory = { key: FilterKey; name: string; options: string[]; selected: string };

const COUNTRIES = ['NG', 'KE', 'GH', 'ZA', 'UG', 'TZ', 'RW', 'CM', 'SN', 'CI', 'ZM', 'MW'];
const STATUSES = ['complete', 'pending', 'processing', 'failed', 'expired', 'created', 'pending_approval', 'refunded', 'cancelled'];

const id: Column = { header: 'ID', cell: (r) => r.id ?? '' };
const date: Column = { header: 'Date', cell: (r) => formatDate(r.createdAt), raw: (r) => r.createdAt ?? '' };
const country: Column = { header: 'Country', cell: (r) => r.country ?? '' };
const status: Column = { header: 'Status', cell: (r) => titleCase(r.status) };
const method: Column = { header: 'Payment Method', cell: (r) => paymentMethodLabel(r.paymentMethod) };
const wallet: Column = { header: 'Wallet', cell: (r) => r.fiatWallet ?? 'USD' };
const localAmount: Column = { header: 'Amount', cell: (r) => formatMoney(r.amount, r.currency ?? undefined), raw: (r) => r.amount ?? '' };

/**
 * A settlement shows the wallet currency with the fiat amount (default 0.00) when its wallet is present and not
 * USD; otherwise the crypto currency with the crypto amount (transaction-data §9).
 */
export function settlementAmount(r: Row): string {
  if (r.fiatWallet && r.fiatWallet !== 'USD') return formatMoney(r.fiatAmount ?? '0', r.fiatWallet);
  return formatCrypto(r.cryptoAmount, r.cryptoCurrency ?? undefined);
}

export type TabDef = {
  index: number;
  key: SearchTable;
  label: string;
  columns(walletMode: boolean): Column[];
  filters(): FilterCategory[];
  /** the failed-fetch message (transaction-data §8) */
  fetchError: string;
};

const cat = (key: FilterKey, name: string, options: string[]): FilterCategory => ({ key, name, options, selected: '' });

/** The four tabs by display index: payments = 1 (the default), collections, settlements, fees. */
export const TABS: TabDef[] = [
  {
    index: 1,
    key: 'payments',
    label: 'Payments',
    columns: (w) => [id, date, country, ...(w ? [wallet] : []), localAmount, status, method],
    filters: () => [cat('status', 'Status', STATUSES), cat('country', 'Country', COUNTRIES)],
    fetchError: 'Could not retrieve payment records',
  },
  {
    index: 2,
    key: 'collections',
    label: 'Collections',
    columns: (w) => [id, date, country, ...(w ? [wallet] : []), localAmount, status, method, { header: 'Request Source', cell: (r) => requestSourceLabel(r.requestSource) }],
    filters: () => [cat('status', 'Status', STATUSES), cat('country', 'Country', COUNTRIES), cat('requestSource', 'Request Source', ['api', 'widget', 'portal'])],
    fetchError: 'Could not retrieve collection records',
  },
  {
    index: 3,
    key: 'settlements',
    label: 'Settlements',
    columns: (w) => [id, date, ...(w ? [wallet] : []), { header: 'Transaction type', cell: (r) => transactionTypeLabel(r.type) }, { header: 'Amount', cell: settlementAmount, raw: (r) => r.cryptoAmount ?? '' }, status],
    filters: () => [cat('status', 'Status', ['complete', 'pending', 'processing', 'failed'])],
    fetchError: 'Could not retrieve settlement records',
  },
  {
    index: 4,
    key: 'fees',
    label: 'Fees',
    columns: (w) => [id, date, ...(w ? [wallet] : []), { header: 'Amount', cell: (r) => formatMoney(r.amountUsd, 'USD'), raw: (r) => r.amountUsd ?? '' }, { header: 'Transaction Type', cell: (r) => transactionTypeLabel(r.transactionType) }, method],
    // payment method starts from the preset list; transaction type starts empty and fills from loaded rows
    filters: () => [cat('paymentMethod', 'Payment Method', ['BANK_TRANSFER', 'MOBILE_MONEY']), cat('transactionType', 'Transaction Type', [])],
    fetchError: 'Could not retrieve fees records',
  },
];

/** An unknown display index falls back to payments. */
export const tabByIndex = (index: number | string | null | undefined) => TABS.find((t) => t.index === Number(index)) ?? TABS[0]!;

export const TRADES: Omit<TabDef, 'index'> = {
  key: 'trades',
  label: 'Trades',
  columns: () => [
    { header: 'date', cell: (r) => formatDate(r.createdAt), raw: (r) => r.createdAt ?? '' },
    { header: 'trade id', cell: (r) => r.tradeId ?? '' },
    { header: 'country', cell: (r) => r.country ?? '' },
    { header: 'you sold', cell: (r) => (Number(r.cryptoSold) > 0 ? formatCrypto(r.cryptoSold, r.cryptoCurrency ?? undefined) : formatMoney(r.fiatSold, r.fiatCurrency ?? undefined)) },
    { header: 'you received', cell: (r) => (Number(r.fiatBought) > 0 ? formatMoney(r.fiatBought, r.fiatCurrency ?? undefined) : formatCrypto(r.cryptoBought, r.cryptoCurrency ?? undefined)) },
    { header: 'rate including fee', cell: (r) => formatMoney(r.effectiveRate, r.fiatCurrency ?? undefined) },
  ],
  filters: () => [cat('country', 'Country of Trade', COUNTRIES), cat('cryptoCurrency', 'Cryptocurrency', ['USDT', 'USDC', 'PYUSD']), cat('fiatCurrency', 'Local Currency', ['NGN', 'KES', 'GHS', 'ZAR', 'UGX', 'TZS', 'RWF', 'XAF', 'XOF', 'ZMW', 'MWK'])],
  fetchError: 'Could not retrieve partner transactions',
};

export const INITIATED_PAYMENTS: Omit<TabDef, 'index'> = {
  key: 'initiate-payments',
  label: 'Initiated payments',
  columns: () => [id, date, country, { header: 'Recipient', cell: (r) => r.recipientName ?? '' }, { header: 'Amount', cell: (r) => formatMoney(r.amount, r.localCurrency ?? undefined), raw: (r) => r.amount ?? '' }, status, method],
  filters: () => [cat('localCurrency', 'Local Currency', ['NGN', 'KES', 'GHS', 'ZAR', 'UGX', 'TZS', 'RWF', 'XAF', 'XOF', 'ZMW', 'MWK']), cat('status', 'Status', STATUSES)],
  fetchError: 'Could not retrieve partner transactions',
};

/** Filter options for payment method and transaction type grow with the values found in loaded rows, without duplicates. */
export function growOptions(categories: FilterCategory[], rows: Row[]): FilterCategory[] {
  const field: Partial<Record<FilterKey, string>> = { paymentMethod: 'paymentMethod', transactionType: 'transactionType' };
  return categories.map((c) => {
    const f = field[c.key];
    if (!f) return c;
    const found = rows.map((r) => r[f]).filter((v): v is string => !!v);
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
