import { CSV_BOM, csvLine } from './csv.ts';
import { plainDecimal } from './decimal.ts';
import { DEFAULT_FIAT_WALLET } from './fiat-wallets.ts';
import { paymentMethodLabel, requestSourceLabel, statusLabel, titleCase, transactionTypeLabel } from './labels.ts';
import type { CollectionRow, CombinedRow, FeeRow, InitiatedPaymentRow, SettlementRow, TradeRow, TransactionRowOf } from './transaction-rows.ts';
import { wallTimeInZone } from './time-zone.ts';
import type { SearchTable } from './transactions.ts';

/**
 * The one column set of the files of the transaction tables: the portal's exports and the server's report files
 * write the same columns, in the same words, with the same values.
 *
 * - The columns the screen shows come first, in its order, with the values it shows: labels, not stored values
 *   (`Pending Approval`, `Bank`, `Pay out`, `API`); then the record's other fields.
 * - Every amount is a plain number (`7957.00`: no thousands separator, no currency inside) followed by a column
 *   that names its currency, so that a spreadsheet can sum a column and a reader can see what is being summed.
 *   Fiat and USD amounts have 2 decimals; crypto amounts their full value (2 to 8 decimals).
 * - A rate is a plain number followed by its unit (`KES per USD`).
 * - Times are in the zone of the request (UTC unless the user chose another), `YYYY-MM-DD HH:MM:SS` (which
 *   spreadsheets read as a date and time), and the header names the zone: `Created (UTC)`, `Created (Africa/Nairobi)`.
 */

export type ExportColumn<R> = { header: string; value(row: R): string };
export type ExportOptions = {
  /** the partner has fiat wallets: the Wallet column is written, as the tables show it in wallet mode */
  walletMode: boolean;
  /** the zone the times are written in (default UTC) */
  timeZone?: string | undefined;
};

/** A time of a row (ISO 8601) as the files write it, in a zone (default UTC): 2026-11-16 01:44:12. */
const fileTime = (iso: string | null | undefined, zone = 'UTC') => {
  const d = new Date(iso ?? '');
  return !iso || Number.isNaN(d.getTime()) ? '' : wallTimeInZone(d, zone);
};
export const fiatNumber = (value: string | null | undefined) => (value ? plainDecimal(value, 2, 2) : '');
export const cryptoNumber = (value: string | null | undefined) => (value ? plainDecimal(value, 2, 8) : '');
export const rateNumber = (value: string | null | undefined) => (value ? plainDecimal(value, 2, 8) : '');

/** The wallet a row belongs to: a row without one belongs to the default USD wallet (the tables show USD). */
export const walletOf = (row: { fiatWallet: string | null }) => row.fiatWallet ?? DEFAULT_FIAT_WALLET.currency;

export type Money = { amount: string; currency: string; crypto: boolean };

/**
 * The amount a settlement row shows (transaction-data §9): with a wallet that is not USD, the fiat amount (0.00 when
 * missing) in the wallet's currency; otherwise the crypto amount in its coin.
 */
export function settlementShownAmount(r: Pick<SettlementRow, 'fiatWallet' | 'fiatAmount' | 'cryptoAmount' | 'cryptoCurrency'>): Money {
  if (r.fiatWallet && r.fiatWallet !== DEFAULT_FIAT_WALLET.currency) return { amount: r.fiatAmount ?? '0', currency: r.fiatWallet, crypto: false };
  return { amount: r.cryptoAmount, currency: r.cryptoCurrency, crypto: true };
}

/** What the partner gave and got in a trade: a sale of crypto gives coins and gets local currency, a purchase the other way. */
export function tradeSides(r: Pick<TradeRow, 'cryptoSold' | 'fiatSold' | 'cryptoBought' | 'fiatBought' | 'cryptoCurrency' | 'fiatCurrency'>): {
  sold: Money;
  received: Money;
} {
  const soldCrypto = Number(r.cryptoSold) > 0;
  const receivedFiat = Number(r.fiatBought) > 0;
  return {
    sold: soldCrypto ? { amount: r.cryptoSold, currency: r.cryptoCurrency, crypto: true } : { amount: r.fiatSold, currency: r.fiatCurrency, crypto: false },
    received: receivedFiat
      ? { amount: r.fiatBought, currency: r.fiatCurrency, crypto: false }
      : { amount: r.cryptoBought, currency: r.cryptoCurrency, crypto: true },
  };
}

const moneyNumber = (m: Money) => (m.crypto ? cryptoNumber(m.amount) : fiatNumber(m.amount));

const col = <R>(header: string, value: (row: R) => string | null | undefined): ExportColumn<R> => ({ header, value: (row) => value(row) ?? '' });
/** An amount and the column of its currency, beside it. */
function amount<R>(header: string, currencyHeader: string, money: (row: R) => Money | null): ExportColumn<R>[] {
  return [
    col(header, (r) => {
      const m = money(r);
      return m ? moneyNumber(m) : '';
    }),
    col(currencyHeader, (r) => money(r)?.currency),
  ];
}
/** A rate and its unit (`KES per USD`), beside it. */
function rate<R>(header: string, value: (row: R) => { rate: string | null; quote: string; base: string } | null): ExportColumn<R>[] {
  return [
    col(header, (r) => rateNumber(value(r)?.rate)),
    col(`${header} unit`, (r) => {
      const v = value(r);
      return v?.rate ? `${v.quote} per ${v.base}` : '';
    }),
  ];
}
const usd = (value: string | null): Money | null => (value === null ? null : { amount: value, currency: DEFAULT_FIAT_WALLET.currency, crypto: false });

const id = col<{ id: string }>('ID', (r) => r.id);
/** A time column: its header names the zone its times are in. */
const time = <R>(header: string, o: ExportOptions, value: (row: R) => string | null | undefined): ExportColumn<R> =>
  col(`${header} (${o.timeZone ?? 'UTC'})`, (r) => fileTime(value(r), o.timeZone));
const created = (o: ExportOptions) => time<{ createdAt: string }>('Created', o, (r) => r.createdAt);
const country = col<{ country: string }>('Country', (r) => r.country);
const wallet = col<{ fiatWallet: string | null }>('Wallet', walletOf);
const status = col<{ status: string }>('Status', (r) => statusLabel(r.status));
const method = col<{ paymentMethod: string }>('Payment Method', (r) => paymentMethodLabel(r.paymentMethod));
const walletIf = <R extends { fiatWallet: string | null }>(o: ExportOptions): ExportColumn<R>[] => (o.walletMode ? [wallet] : []);

/** Payments and collections: the local amount, then the converted USD amount and the rate between them. */
function transfer(o: ExportOptions, collections: boolean): ExportColumn<CollectionRow>[] {
  return [
    id,
    created(o),
    country,
    ...walletIf<CollectionRow>(o),
    ...amount<CollectionRow>('Amount', 'Currency', (r) => ({ amount: r.amount, currency: r.currency, crypto: false })),
    status,
    method,
    ...(collections ? [col<CollectionRow>('Request Source', (r) => requestSourceLabel(r.requestSource))] : []),
    ...amount<CollectionRow>('Converted amount', 'Converted currency', (r) => usd(r.convertedAmount)),
    ...rate<CollectionRow>('Rate', (r) => ({ rate: r.rate, quote: r.currency, base: DEFAULT_FIAT_WALLET.currency })),
    col('Sequence ID', (r) => r.sequenceId),
    col('Counterparty', (r) => r.counterpartyName),
    col('Account number', (r) => r.accountNumber),
    col('Account type', (r) => r.accountType),
    col('Session ID', (r) => r.sessionId),
  ];
}

/** The combined table: a collection's columns, its transaction type (Pay out, Top up) after its time. */
function combined(o: ExportOptions): ExportColumn<CombinedRow>[] {
  const [first, when, ...rest] = transfer(o, true);
  return [first!, when!, col<CombinedRow>('Transaction Type', (r) => transactionTypeLabel(r.transactionType)), ...rest];
}

function settlements(o: ExportOptions): ExportColumn<SettlementRow>[] {
  // the fiat amount's currency is known only from a local-currency wallet (the row keeps no country)
  const fiat = (r: SettlementRow): Money | null =>
    r.fiatAmount !== null && r.fiatWallet && r.fiatWallet !== DEFAULT_FIAT_WALLET.currency
      ? { amount: r.fiatAmount, currency: r.fiatWallet, crypto: false }
      : null;
  return [
    id,
    created(o),
    ...walletIf<SettlementRow>(o),
    col('Transaction type', (r) => transactionTypeLabel(r.type)),
    ...amount('Amount', 'Currency', settlementShownAmount),
    status,
    ...amount<SettlementRow>('Crypto amount', 'Crypto currency', (r) => ({ amount: r.cryptoAmount, currency: r.cryptoCurrency, crypto: true })),
    col('Network', (r) => r.network),
    ...amount('Fiat amount', 'Fiat currency', fiat),
    ...amount<SettlementRow>('USD amount', 'USD currency', (r) => usd(r.fiatAmountUsd)),
    ...rate<SettlementRow>('Crypto rate', (r) => ({ rate: r.cryptoRate, quote: DEFAULT_FIAT_WALLET.currency, base: r.cryptoCurrency })),
    ...rate<SettlementRow>('Fiat rate', (r) => (fiat(r) ? { rate: r.fiatRate, quote: fiat(r)!.currency, base: DEFAULT_FIAT_WALLET.currency } : null)),
    ...amount<SettlementRow>('Wallet balance', 'Wallet balance currency', (r) => usd(r.walletBalanceUsd)),
    col('Transaction hash', (r) => r.transactionHash),
    col('Internal wallet address', (r) => r.internalWalletAddress),
    col('External wallet address', (r) => r.externalWalletAddress),
    col('Sequence ID', (r) => r.sequenceId),
  ];
}

function fees(o: ExportOptions): ExportColumn<FeeRow>[] {
  return [
    id,
    created(o),
    ...walletIf<FeeRow>(o),
    // fee amounts are always in USD (transaction-data §9)
    ...amount<FeeRow>('Amount', 'Currency', (r) => usd(r.amountUsd)),
    // a fee given back (minus the fee) says so, as the table does
    col('Transaction Type', (r) => `${transactionTypeLabel(r.transactionType)}${r.amountUsd.startsWith('-') ? ': fee returned' : ''}`),
    method,
    col('Transaction ID', (r) => r.transactionId),
  ];
}

function trades(o: ExportOptions): ExportColumn<TradeRow>[] {
  return [
    created(o),
    col('Trade ID', (r) => r.tradeId),
    country,
    ...amount<TradeRow>('You sold', 'You sold currency', (r) => tradeSides(r).sold),
    ...amount<TradeRow>('You received', 'You received currency', (r) => tradeSides(r).received),
    ...rate<TradeRow>('Rate including fee', (r) => ({ rate: r.effectiveRate, quote: r.fiatCurrency, base: r.cryptoCurrency })),
    // the fee is taken from the coins traded
    ...amount<TradeRow>('Fee', 'Fee currency', (r) => ({ amount: r.fee, currency: r.cryptoCurrency, crypto: true })),
    status,
    col('Trade type', (r) => titleCase(r.tradeType)),
    col('Network', (r) => r.network),
    ...rate<TradeRow>('Quoted rate', (r) => ({ rate: r.quotedRate, quote: r.fiatCurrency, base: r.cryptoCurrency })),
    time<TradeRow>('Locked', o, (r) => r.tradeLockedDate),
    id,
  ];
}

function initiatedPayments(o: ExportOptions): ExportColumn<InitiatedPaymentRow>[] {
  return [
    id,
    created(o),
    country,
    col('Recipient', (r) => r.recipientName),
    ...amount<InitiatedPaymentRow>('Amount', 'Currency', (r) => ({ amount: r.amount, currency: r.localCurrency, crypto: false })),
    status,
    method,
    ...amount<InitiatedPaymentRow>('USD amount', 'USD currency', (r) => usd(r.amountUsd)),
    col('Account number', (r) => r.accountNumber),
    col('Reference', (r) => r.reference),
  ];
}

const COLUMNS: { [T in SearchTable]: (o: ExportOptions) => ExportColumn<TransactionRowOf<T>>[] } = {
  payments: (o) => transfer(o, false),
  collections: (o) => transfer(o, true),
  settlements,
  fees,
  trades,
  'initiate-payments': initiatedPayments,
  all: combined,
};

/** The file columns of a table; an unknown table is refused (transaction-data §8). */
export function exportColumns<T extends SearchTable>(table: T, o: ExportOptions): ExportColumn<TransactionRowOf<T>>[] {
  const columns = (COLUMNS as Partial<typeof COLUMNS>)[table];
  if (!columns) throw new Error(`Unsupported transaction type ${String(table)}`);
  return columns(o);
}

/** The header line of a table's file, after the byte-order mark that makes spreadsheets read it as UTF-8. */
export const exportHeaderLine = <T extends SearchTable>(columns: ExportColumn<TransactionRowOf<T>>[]) => CSV_BOM + csvLine(columns.map((c) => c.header));
/** The lines of rows, through the shared CSV writer (which neutralises formulas and keeps numbers numbers). */
export const exportLines = <T extends SearchTable>(columns: ExportColumn<TransactionRowOf<T>>[], rows: readonly TransactionRowOf<T>[]) =>
  rows.map((row) => csvLine(columns.map((c) => c.value(row)))).join('');

/** A whole file of rows of one table. */
export function exportCsv<T extends SearchTable>(table: T, rows: readonly TransactionRowOf<T>[], o: ExportOptions): string {
  const columns = exportColumns(table, o);
  return exportHeaderLine(columns) + exportLines(columns, rows);
}
