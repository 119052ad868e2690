import type { SearchTable } from '@portal/contract/transactions';
import type { CollectionRow, CombinedRow, FeeRow, InitiatedPaymentRow, SettlementRow, TradeRow, TransactionRowOf } from '@portal/contract/transaction-rows';
import type { TableRowOf } from './transactions.repository.ts';

/**
 * Database rows to the rows of the contract, one field at a time: a column renamed on either side fails the
 * typecheck here, and partner_id (like any column not listed) never reaches a reply.
 */

const iso = (d: Date) => d.toISOString();

function collectionRow(r: TableRowOf<'collections'>): CollectionRow {
  return {
    id: r.id,
    createdAt: iso(r.created_at),
    status: r.status,
    country: r.country,
    currency: r.currency,
    amount: r.amount,
    convertedAmount: r.converted_amount,
    rate: r.rate,
    paymentMethod: r.payment_method,
    requestSource: r.request_source,
    fiatWallet: r.fiat_wallet,
    sequenceId: r.sequence_id,
    sessionId: r.session_id,
    accountNumber: r.account_number,
    accountType: r.account_type,
    counterpartyName: r.counterparty_name,
  };
}

function settlementRow(r: TableRowOf<'settlements'>): SettlementRow {
  return {
    id: r.id,
    createdAt: iso(r.created_at),
    status: r.status,
    type: r.type,
    transactionHash: r.transaction_hash,
    internalWalletAddress: r.internal_wallet_address,
    externalWalletAddress: r.external_wallet_address,
    cryptoCurrency: r.crypto_currency,
    cryptoAmount: r.crypto_amount,
    network: r.network,
    cryptoRate: r.crypto_rate,
    fiatAmountUsd: r.fiat_amount_usd,
    walletBalanceUsd: r.wallet_balance_usd,
    fiatAmount: r.fiat_amount,
    fiatRate: r.fiat_rate,
    fiatWallet: r.fiat_wallet,
    sequenceId: r.sequence_id,
  };
}

function feeRow(r: TableRowOf<'fees'>): FeeRow {
  return {
    id: r.id,
    createdAt: iso(r.created_at),
    transactionId: r.transaction_id,
    transactionType: r.transaction_type,
    paymentMethod: r.payment_method,
    amountUsd: r.amount_usd,
    fiatWallet: r.fiat_wallet,
  };
}

function tradeRow(r: TableRowOf<'trades'>): TradeRow {
  return {
    id: r.id,
    createdAt: iso(r.created_at),
    tradeId: r.trade_id,
    tradeLockedDate: iso(r.trade_locked_date),
    status: r.status,
    country: r.country,
    fiatCurrency: r.fiat_currency,
    cryptoCurrency: r.crypto_currency,
    network: r.network,
    tradeType: r.trade_type,
    cryptoTransactionType: r.crypto_transaction_type,
    effectiveRate: r.effective_rate,
    quotedRate: r.quoted_rate,
    fee: r.fee,
    cryptoAmount: r.crypto_amount,
    fiatAmount: r.fiat_amount,
    cryptoBought: r.crypto_bought,
    cryptoSold: r.crypto_sold,
    fiatSold: r.fiat_sold,
    fiatBought: r.fiat_bought,
    fiatWallet: r.fiat_wallet,
  };
}

function initiatedPaymentRow(r: TableRowOf<'initiate-payments'>): InitiatedPaymentRow {
  return {
    id: r.id,
    createdAt: iso(r.created_at),
    status: r.status,
    country: r.country,
    localCurrency: r.local_currency,
    amount: r.amount,
    amountUsd: r.amount_usd,
    paymentMethod: r.payment_method,
    recipientName: r.recipient_name,
    accountNumber: r.account_number,
    reference: r.reference,
    fiatWallet: r.fiat_wallet,
  };
}

function combinedRow(r: TableRowOf<'all'>): CombinedRow {
  return { ...collectionRow(r), transactionType: r.transaction_type };
}

const TO_ROW: { [T in SearchTable]: (row: TableRowOf<T>) => TransactionRowOf<T> } = {
  payments: collectionRow,
  collections: collectionRow,
  settlements: settlementRow,
  fees: feeRow,
  trades: tradeRow,
  'initiate-payments': initiatedPaymentRow,
  all: combinedRow,
};

/** The rows of a table as a client receives them. */
export function toRows<T extends SearchTable>(table: T, rows: readonly TableRowOf<T>[]): TransactionRowOf<T>[] {
  const toRow: (row: TableRowOf<T>) => TransactionRowOf<T> = TO_ROW[table];
  return rows.map((r) => toRow(r));
}
