import { COUNTRIES, LOCAL_CURRENCIES } from '@portal/contract/countries';
import { COINS, PAYMENT_METHODS, REQUEST_SOURCES, SETTLEMENT_STATUSES, TRANSACTION_STATUSES } from '@portal/contract/domain';
import type { SettlementRow, TradeRow, TransactionRow, TransactionRowOf } from '@portal/contract/transaction-rows';
import type { FilterKey, SearchTable } from '@portal/contract/transactions';
import {
  formatAmount,
  formatDate,
  formatMoney,
  formatRate,
  formatSignedMoney,
  paymentMethodLabel,
  requestSourceLabel,
  statusLabel,
  transactionTypeLabel,
} from '../../lib/format.ts';
import { TRADE_AMOUNT_RANGES } from '@portal/contract/transactions';
import { translator, type Translate } from '../../lib/i18n.ts';
import { localCountryName } from '../../lib/country-names.ts';
import { TRANSACTION_TABS } from '../../lib/transaction-links.ts';
import { transactionsMessages, type TransactionsKey } from './messages.ts';

/** A row of any table, as the server sends it (the row schemas of the contract). */
export type Row = TransactionRow;
/** A column over the rows of type R: a column that reads a field only the rows of some tables have says so in R. */
export type Column<R = Row> = {
  /** the header in the language in force (the columns are made when a table is drawn) */
  header: string;
  cell(row: R): string;
  /** the value an export writes */
  raw?(row: R): string;
  /**
   * How the screen shows the cell: an id (cut the same way in every table, with a copy action), a date, an amount
   * (right-aligned, tabular figures), a status (a coloured badge). Also where it goes first on a phone's card.
   */
  kind?: 'id' | 'date' | 'amount' | 'status';
  /** the whole value behind the cell, where the cell shows less: the id a copy action copies, the raw status */
  value?(row: R): string;
  /** a second, quieter line under the value: the other side of a conversion (its parts, joined by " · ", a line each) */
  sub?(row: R): string;
  /** how many lines `sub` usually gives (1 unless said): the placeholders of a loading page are as tall as its rows */
  subLines?: number;
  /** the column's width where its kind's does not fit (the table lays out fixed) */
  width?: string;
  /** on a phone's card, the whole width (a long value) */
  wide?: boolean;
};
export type FilterCategory = { key: FilterKey; name: string; options: string[]; selected: string };

/**
 * A country as the filters and the details name it: "Nigeria (NG)". In English the contract's list names it (the
 * names the server's files use); in another language the browser's names in that language do ("Sénégal (SN)").
 */
export const countryLabel = (code: string) => `${localCountryName(code)} (${code})`;

/** Ids as every table cuts them: a uuid to its first 8 characters and an ellipsis, a short id (TRD-…) whole. */
export const shortId = (value: string) => (/^[0-9a-f]{8}-[0-9a-f]{4}-/i.test(value) ? `${value.slice(0, 8)}…` : value);

type T = Translate<typeof transactionsMessages.en>;
/** The texts of the tables in the language in force, read when a table's columns or filters are made. */
const texts = (): T => translator(transactionsMessages);

const id = (t: T): Column<{ id: string }> => ({ header: t('column.id'), cell: (r) => shortId(r.id), raw: (r) => r.id, kind: 'id', value: (r) => r.id });
const date = (t: T): Column<{ createdAt: string }> => ({
  header: t('column.date'),
  cell: (r) => formatDate(r.createdAt),
  raw: (r) => r.createdAt,
  kind: 'date',
});
const country = (t: T): Column<{ country: string }> => ({ header: t('column.country'), cell: (r) => r.country });
const status = (t: T): Column<{ status: string }> => ({
  header: t('column.status'),
  cell: (r) => statusLabel(r.status),
  kind: 'status',
  value: (r) => r.status,
});
const method = (t: T): Column<{ paymentMethod: string }> => ({ header: t('column.paymentMethod'), cell: (r) => paymentMethodLabel(r.paymentMethod) });
const wallet = (t: T): Column<{ fiatWallet: string | null }> => ({ header: t('column.wallet'), cell: (r) => r.fiatWallet ?? 'USD' });

type Converted = { amount: string; currency: string; convertedAmount: string; rate: string; fiatWallet: string | null };
/**
 * The other side of a payment or collection (transaction-data §9): the converted amount in USD (2 decimals) and the
 * rate, each with its currency: "USD 2,178.57 · 1 USD = 2,650.00 TZS". Nothing for a row in USD.
 */
export function convertedSide(r: Pick<Converted, 'currency' | 'convertedAmount' | 'rate'>): string {
  if (r.currency === 'USD') return '';
  const rate = formatRate(r.rate, 'USD', r.currency);
  return [formatMoney(r.convertedAmount, 'USD'), rate].filter(Boolean).join(' · ');
}
/**
 * What the row moved in its wallet's currency, where the record says it: the local amount for a wallet in that
 * currency, the converted USD amount for the USD wallet (or none, which reads as USD); else unknown.
 */
export function walletAmount(r: Converted): string | undefined {
  const w = r.fiatWallet ?? 'USD';
  if (w === r.currency) return formatMoney(r.amount, w);
  if (w === 'USD') return formatMoney(r.convertedAmount, 'USD');
  return undefined;
}
const localAmount = (t: T): Column<Converted> => ({
  header: t('column.amount'),
  cell: (r) => formatAmount(r.amount, r.currency),
  raw: (r) => r.amount,
  kind: 'amount',
  sub: convertedSide,
  subLines: 2,
});

/**
 * A settlement shows the wallet currency with the fiat amount (default 0.00) when its wallet is present and not
 * USD; otherwise the crypto currency with the crypto amount (transaction-data §9).
 */
export function settlementAmount(r: Pick<SettlementRow, 'fiatWallet' | 'fiatAmount' | 'cryptoAmount' | 'cryptoCurrency'>): string {
  if (r.fiatWallet && r.fiatWallet !== 'USD') return formatMoney(r.fiatAmount ?? '0', r.fiatWallet);
  return formatAmount(r.cryptoAmount, r.cryptoCurrency);
}

/** Under a settlement's amount, its other side: the crypto amount under a wallet amount, else the USD value. */
export function settlementSub(r: Pick<SettlementRow, 'fiatWallet' | 'fiatAmountUsd' | 'cryptoAmount' | 'cryptoCurrency'>): string {
  if (r.fiatWallet && r.fiatWallet !== 'USD') return formatAmount(r.cryptoAmount, r.cryptoCurrency);
  return formatMoney(r.fiatAmountUsd, 'USD');
}

export type TabDef<T extends SearchTable = SearchTable> = {
  index: number;
  key: T;
  /** the tab's name (a key of the catalogue, translated where it is drawn) */
  label: TransactionsKey;
  /** the columns, their headers in the language in force */
  columns(walletMode: boolean): Column<TransactionRowOf<T>>[];
  /** the filter categories, their names in the language in force */
  filters(): FilterCategory[];
  /** the failed-fetch message (transaction-data §8), a key of the catalogue */
  fetchError: TransactionsKey;
};

/** A filter category whose preset options are one of the contract's lists. */
const cat = (key: FilterKey, name: string, options: readonly string[]): FilterCategory => ({ key, name, options: [...options], selected: '' });

/** The columns and filters of a payment, which a collection has too (and its request source). */
const movementColumns = (w: boolean, t: T) => [id(t), date(t), country(t), ...(w ? [wallet(t)] : []), localAmount(t), status(t), method(t)];
const movementFilters = (t: T) => [cat('status', t('filter.status'), TRANSACTION_STATUSES), cat('country', t('filter.country'), COUNTRIES)];

const payments: TabDef<'payments'> = {
  index: TRANSACTION_TABS.payments,
  key: 'payments',
  label: 'tab.payments',
  columns: (w, t = texts()) => movementColumns(w, t),
  filters: (t = texts()) => movementFilters(t),
  fetchError: 'fetchError.payments',
};
const collections: TabDef<'collections'> = {
  index: TRANSACTION_TABS.collections,
  key: 'collections',
  label: 'tab.collections',
  columns: (w, t = texts()) => [...movementColumns(w, t), { header: t('column.requestSource'), cell: (r) => requestSourceLabel(r.requestSource) }],
  filters: (t = texts()) => [...movementFilters(t), cat('requestSource', t('filter.requestSource'), REQUEST_SOURCES)],
  fetchError: 'fetchError.collections',
};
const settlements: TabDef<'settlements'> = {
  index: TRANSACTION_TABS.settlements,
  key: 'settlements',
  label: 'tab.settlements',
  columns: (w, t = texts()) => [
    id(t),
    date(t),
    ...(w ? [wallet(t)] : []),
    { header: t('column.settlementType'), cell: (r) => transactionTypeLabel(r.type) },
    { header: t('column.amount'), cell: settlementAmount, raw: (r) => r.cryptoAmount, kind: 'amount', sub: settlementSub },
    status(t),
  ],
  filters: (t = texts()) => [cat('status', t('filter.status'), SETTLEMENT_STATUSES)],
  fetchError: 'fetchError.settlements',
};
const fees: TabDef<'fees'> = {
  index: TRANSACTION_TABS.fees,
  key: 'fees',
  label: 'tab.fees',
  columns: (w, t = texts()) => [
    id(t),
    date(t),
    ...(w ? [wallet(t)] : []),
    // a fee given back (a payment not completed) is its own row, for minus the fee
    { header: t('column.amount'), cell: (r) => formatSignedMoney(r.amountUsd, 'USD'), raw: (r) => r.amountUsd, kind: 'amount' },
    { header: t('column.transactionType'), cell: (r) => feeTypeLabel(t, r) },
    method(t),
  ],
  // payment method starts from the preset list; transaction type starts empty and fills from loaded rows
  filters: (t = texts()) => [cat('paymentMethod', t('filter.paymentMethod'), PAYMENT_METHODS), cat('transactionType', t('filter.transactionType'), [])],
  fetchError: 'fetchError.fees',
};

/**
 * The combined tab (transaction-data §3): payments and collections together, each with its transaction type (Pay out,
 * Top up) and payment method; its filters are country, status, payment method, transaction type and request source, the transaction
 * type's options filling from the loaded rows as the Fees tab's do.
 */
const all: TabDef<'all'> = {
  index: TRANSACTION_TABS.all,
  key: 'all',
  label: 'tab.all',
  // eight columns would not fit a laptop's screen: the type carries the payment method on a second line, and the
  // request source (a filter here) is in the details and the export
  columns: (w, t = texts()) => [
    id(t),
    date(t),
    { header: t('column.type'), cell: (r) => transactionTypeLabel(r.transactionType), sub: (r) => paymentMethodLabel(r.paymentMethod) },
    country(t),
    ...(w ? [wallet(t)] : []),
    localAmount(t),
    status(t),
  ],
  filters: (t = texts()) => [
    cat('country', t('filter.country'), COUNTRIES),
    cat('status', t('filter.status'), TRANSACTION_STATUSES),
    cat('paymentMethod', t('filter.paymentMethod'), PAYMENT_METHODS),
    cat('transactionType', t('filter.transactionType'), []),
    cat('requestSource', t('filter.requestSource'), REQUEST_SOURCES),
  ],
  fetchError: 'fetchError.all',
};

/**
 * The tabs by display index: payments = 1 (the default), collections, settlements, fees, and the combined one (5),
 * drawn last so that the four keep the places and numbers links already carry.
 */
export const TABS: TabDef[] = [payments, collections, settlements, fees, all];

/** An unknown display index falls back to payments. */
export const tabByIndex = (index: number | string | null | undefined) => TABS.find((t) => t.index === Number(index)) ?? TABS[0]!;

/** What a trade sold and received: the crypto side when crypto was sold, else the local currency side. */
const tradeSold = (r: TradeRow) => (Number(r.cryptoSold) > 0 ? formatAmount(r.cryptoSold, r.cryptoCurrency) : formatMoney(r.fiatSold, r.fiatCurrency));
const tradeReceived = (r: TradeRow) => (Number(r.fiatBought) > 0 ? formatMoney(r.fiatBought, r.fiatCurrency) : formatAmount(r.cryptoBought, r.cryptoCurrency));
/** "1 USDC = 26.24 ZMW": the rate a trade was done at, fee included. */
export const tradeRate = (r: Pick<TradeRow, 'effectiveRate' | 'cryptoCurrency' | 'fiatCurrency'>) =>
  formatRate(r.effectiveRate, r.cryptoCurrency, r.fiatCurrency);
/** A trade's fee is charged in its stablecoin. */
export const tradeFee = (r: Pick<TradeRow, 'fee' | 'cryptoCurrency'>) => texts()('tradeFee', { amount: formatAmount(r.fee, r.cryptoCurrency) });

/**
 * The Amount filter of trades (transaction-data §3): ranges of the trade's stablecoin amount, which is its value in
 * USD (the coins are stablecoins at par): "Under USD 1,000", "USD 1,000 to 5,000", "USD 10,000 and over". A range
 * the portal does not offer (typed in the address) is written as it is.
 */
export function tradeAmountLabel(range: string): string {
  if (!(TRADE_AMOUNT_RANGES as readonly string[]).includes(range)) return range;
  const [from, to] = range.split('-').map((n) => (n ? Number(n) : undefined));
  const t = texts();
  if (!from) return t('amountRange.under', { amount: to! });
  if (to === undefined) return t('amountRange.over', { amount: from });
  return t('amountRange.between', { from, to });
}

const trades: Omit<TabDef<'trades'>, 'index'> = {
  key: 'trades',
  label: 'tab.trades',
  columns: (_, t = texts()) => [
    { header: t('column.trade.date'), cell: (r) => formatDate(r.createdAt), raw: (r) => r.createdAt, kind: 'date' },
    { header: t('column.trade.tradeId'), cell: (r) => shortId(r.tradeId), raw: (r) => r.tradeId, kind: 'id', value: (r) => r.tradeId, width: '10rem' },
    { header: t('column.trade.country'), cell: (r) => r.country },
    { header: t('column.trade.sold'), cell: tradeSold, kind: 'amount', width: '10.75rem' },
    { header: t('column.trade.received'), cell: tradeReceived, kind: 'amount', width: '10.75rem' },
    { header: t('column.trade.rate'), cell: tradeRate, kind: 'amount', sub: tradeFee, width: '12.5rem', wide: true },
  ],
  filters: (t = texts()) => [
    cat('country', t('filter.countryOfTrade'), COUNTRIES),
    cat('cryptoCurrency', t('filter.cryptocurrency'), COINS),
    cat('fiatCurrency', t('filter.localCurrency'), LOCAL_CURRENCIES),
    cat('amount', t('filter.amount'), TRADE_AMOUNT_RANGES),
  ],
  fetchError: 'fetchError.partner',
};
export const TRADES: Omit<TabDef, 'index'> = trades;

const initiatedPayments: Omit<TabDef<'initiate-payments'>, 'index'> = {
  key: 'initiate-payments',
  label: 'tab.initiatedPayments',
  columns: (_, t = texts()) => [
    id(t),
    date(t),
    country(t),
    { header: t('column.recipient'), cell: (r) => r.recipientName },
    {
      header: t('column.amount'),
      cell: (r) => formatMoney(r.amount, r.localCurrency),
      raw: (r) => r.amount,
      kind: 'amount',
      sub: (r) => (r.localCurrency === 'USD' ? '' : formatMoney(r.amountUsd, 'USD')),
    },
    status(t),
    method(t),
  ],
  filters: (t = texts()) => [cat('localCurrency', t('filter.localCurrency'), LOCAL_CURRENCIES), cat('status', t('filter.status'), TRANSACTION_STATUSES)],
  fetchError: 'fetchError.partner',
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

/** `invalidFilter`: the filters cannot be searched (a reversed range, text that is no id), so nothing was. */
export type EmptyState = 'noData' | 'noDataForId' | 'noDataForFilter' | 'noDataForDate' | 'invalidFilter' | null;

/** The screen that shows a table, searching an id: a tab of /transactions, trades, or initiated payments (its name in the language in force). */
export function tableLink(table: SearchTable, id: string): { label: string; to: string } {
  const t = texts();
  const q = new URLSearchParams({ id });
  if (table === 'trades') return { label: t(trades.label), to: `/trades?${q.toString()}` };
  if (table === 'initiate-payments') return { label: t(initiatedPayments.label), to: `/payments?${q.toString()}` };
  const tab = TABS.find((d) => d.key === table) ?? TABS[0]!;
  return { label: t(tab.label), to: `/transactions?${new URLSearchParams({ tab: String(tab.index), id }).toString()}` };
}

/** The four mutually exclusive empty states of transaction-data §2; none while rows exist. */
export function emptyState(o: { rows: number; idFilter: string; anyFilter: boolean; hasDate: boolean }): EmptyState {
  if (o.rows > 0) return null;
  if (o.hasDate) return 'noDataForDate';
  if (o.idFilter.trim()) return 'noDataForId';
  if (o.anyFilter) return 'noDataForFilter';
  return 'noData';
}

/** A fee's transaction type, and that the fee was given back when it was. */
export const feeTypeLabel = (t: T, r: { transactionType: string; amountUsd: string }) =>
  r.amountUsd.startsWith('-') ? t('fee.returned', { type: transactionTypeLabel(r.transactionType) }) : transactionTypeLabel(r.transactionType);
