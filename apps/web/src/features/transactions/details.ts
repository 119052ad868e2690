import type { Network } from '@portal/contract/domain';
import { networkName } from '@portal/contract/labels';
import type { CollectionRow, CombinedRow, FeeRow, InitiatedPaymentRow, SettlementRow, TradeRow } from '@portal/contract/transaction-rows';
import type { Payment } from '@portal/contract/payments';
import type { SearchTable } from '@portal/contract/transactions';
import {
  formatCrypto,
  formatDate,
  formatMoney,
  formatRate,
  formatSignedMoney,
  paymentMethodLabel,
  requestSourceLabel,
  statusLabel,
  titleCase,
  transactionTypeLabel,
} from '../../lib/format.ts';
import { translator, type Translate } from '../../lib/i18n.ts';
import { moneyOutcome, paymentMovement } from '../../lib/money-outcome.ts';
import { transactionsMessages, type TransactionsKey } from './messages.ts';
import { countryLabel, feeTypeLabel, walletAmount, type Row } from './tables.ts';

/** One line of the details: a label and its value formatted as the tables format it. */
export type DetailField = {
  label: string;
  value: string;
  /** a whole id, address or hash: monospace, with a copy action */
  copy?: boolean;
  /** the raw status: shown as the tables' badge */
  status?: string;
  /** a link to the network's block explorer */
  href?: string;
};
type SectionKey = 'summary' | 'parties' | 'amounts' | 'chain' | 'order' | 'timeline';
/** A group of fields: its key (the same in every language) and its title in the language in force. */
export type DetailSection = { key: SectionKey; title: string; fields: DetailField[] };
type T = Translate<typeof transactionsMessages.en>;
const section = (t: T, key: SectionKey, fields: DetailField[]): DetailSection => ({ key, title: t(`section.${key}`), fields });
/** A stored word the catalogue knows under `prefix` (account, trade and crypto transaction types), else in title case. */
const valueWord = (t: T, prefix: 'accountType' | 'tradeType' | 'cryptoTransaction', value: string | null | undefined) => {
  const key = `${prefix}.${(value ?? '').trim().toLowerCase()}`;
  return key in transactionsMessages.en ? t(key as TransactionsKey) : titleCase(value);
};

/** Where each network's explorer shows a transaction (by hash). */
const EXPLORER_TX: Record<Network, string> = {
  TRC20: 'https://tronscan.org/#/transaction/',
  ERC20: 'https://etherscan.io/tx/',
  POLYGON: 'https://polygonscan.com/tx/',
  SOL: 'https://solscan.io/tx/',
  XLM: 'https://stellar.expert/explorer/public/tx/',
  CELO: 'https://celoscan.io/tx/',
  BASE: 'https://basescan.org/tx/',
  BTC: 'https://mempool.space/tx/',
};

/** The block explorer's page of a transaction hash, or none for a network without one (or no hash). */
export function explorerUrl(network: string, hash: string | null | undefined): string | undefined {
  const base = EXPLORER_TX[network.toUpperCase() as Network];
  return base && hash ? `${base}${encodeURIComponent(hash)}` : undefined;
}

const plainField = (label: string, value: string | null | undefined, extra: Omit<DetailField, 'label' | 'value'> = {}): DetailField[] =>
  value ? [{ label, value, ...extra }] : [];
/** The fields' labels are keys of the catalogue, written in the language in force. */
const fieldOf =
  (t: T) =>
  (label: TransactionsKey, value: string | null | undefined, extra: Omit<DetailField, 'label' | 'value'> = {}): DetailField[] =>
    plainField(t(label), value, extra);
const country = countryLabel;
/** How most summaries begin: the row's id (to copy), its status (as the tables' badge) and its date. */
const idStatusDate = (field: ReturnType<typeof fieldOf>, r: { id: string; status: string; createdAt: string }): DetailField[] => [
  ...field('field.id', r.id, { copy: true }),
  ...field('field.status', statusLabel(r.status), { status: r.status }),
  ...field('field.date', formatDate(r.createdAt)),
];
/** The fiat wallet a row moved, USD when it names none. */
const walletOf = (r: { fiatWallet: string | null }) => (r.fiatWallet ?? 'USD').toUpperCase();
/** What the state did and did not move (the shared state → wording table), as detail lines. */
const outcomeFields = (t: T, m: Parameters<typeof moneyOutcome>[0]): DetailField[] => {
  const o = moneyOutcome(m);
  return [{ label: t('field.whatHappened'), value: o.summary }, ...o.lines];
};

function moneyMovement(t: T, table: 'payments' | 'collections', r: CollectionRow): DetailSection[] {
  const field = fieldOf(t);
  const wallet = walletOf(r);
  const local = r.currency.toUpperCase();
  return [
    section(t, 'summary', [
      ...idStatusDate(field, r),
      ...field('field.paymentMethod', paymentMethodLabel(r.paymentMethod)),
      ...(table === 'collections' ? field('field.requestSource', requestSourceLabel(r.requestSource)) : []),
      ...field('field.sequenceId', r.sequenceId, { copy: true }),
      ...field('field.sessionId', r.sessionId, { copy: true }),
    ]),
    section(t, 'parties', [
      ...field(table === 'payments' ? 'field.recipient' : 'field.sender', r.counterpartyName),
      ...field('field.accountNumber', r.accountNumber, { copy: true }),
      ...field('field.accountType', valueWord(t, 'accountType', r.accountType)),
      ...field('field.country', country(r.country)),
    ]),
    section(t, 'amounts', [
      ...field('field.amount', formatMoney(r.amount, local)),
      ...(local === 'USD'
        ? []
        : [...field('field.convertedAmount', formatMoney(r.convertedAmount, 'USD')), ...field('field.rate', formatRate(r.rate, 'USD', local))]),
      ...field('field.wallet', wallet),
      ...field('field.walletAmount', walletAmount(r)),
      ...outcomeFields(t, {
        kind: table === 'payments' ? 'disbursement' : 'collection',
        status: r.status,
        amount: r.amount,
        currency: local,
        balanceUsd: local === 'USD' ? r.amount : r.convertedAmount,
      }),
    ]),
  ];
}

function settlement(t: T, r: SettlementRow): DetailSection[] {
  const field = fieldOf(t);
  const wallet = walletOf(r);
  return [
    section(t, 'summary', [
      ...idStatusDate(field, r),
      ...field('field.transactionType', transactionTypeLabel(r.type)),
      ...field('field.sequenceId', r.sequenceId, { copy: true }),
    ]),
    section(t, 'amounts', [
      ...field('field.cryptoAmount', formatCrypto(r.cryptoAmount, r.cryptoCurrency)),
      ...field('field.cryptoRate', formatRate(r.cryptoRate, r.cryptoCurrency, 'USD')),
      ...field('field.amountInUsd', formatMoney(r.fiatAmountUsd, 'USD')),
      ...field('field.wallet', wallet),
      ...(wallet !== 'USD' && r.fiatAmount !== null
        ? [...field('field.walletAmount', formatMoney(r.fiatAmount, wallet)), ...field('field.walletRate', formatRate(r.fiatRate, 'USD', wallet))]
        : []),
      ...field('field.walletBalanceUsd', formatMoney(r.walletBalanceUsd, 'USD')),
      ...outcomeFields(t, {
        kind: r.type.toLowerCase() === 'topup' ? 'deposit' : 'withdrawal',
        status: r.status,
        amount: r.fiatAmountUsd,
        currency: 'USD',
        balanceUsd: r.fiatAmountUsd,
      }),
    ]),
    section(t, 'chain', [
      ...field('field.network', `${networkName(r.network)} (${r.network})`),
      ...field('field.transactionHash', r.transactionHash, { copy: true, href: explorerUrl(r.network, r.transactionHash) }),
      ...field('field.internalWalletAddress', r.internalWalletAddress, { copy: true }),
      ...field('field.externalWalletAddress', r.externalWalletAddress, { copy: true }),
    ]),
  ];
}

function fee(t: T, r: FeeRow): DetailSection[] {
  const field = fieldOf(t);
  return [
    section(t, 'summary', [
      ...field('field.id', r.id, { copy: true }),
      ...field('field.date', formatDate(r.createdAt)),
      ...field('field.transactionType', feeTypeLabel(t, r)),
      ...field('field.paymentMethod', paymentMethodLabel(r.paymentMethod)),
      ...field('field.transactionId', r.transactionId, { copy: true }),
    ]),
    section(t, 'amounts', [...field('field.amount', formatSignedMoney(r.amountUsd, 'USD')), ...field('field.wallet', walletOf(r))]),
  ];
}

function trade(t: T, r: TradeRow): DetailSection[] {
  const field = fieldOf(t);
  const fiat = r.fiatCurrency;
  const coin = r.cryptoCurrency;
  return [
    section(t, 'summary', [
      ...field('field.tradeId', r.tradeId, { copy: true }),
      ...idStatusDate(field, r),
      ...field('field.rateLocked', formatDate(r.tradeLockedDate)),
      ...field('field.tradeType', valueWord(t, 'tradeType', r.tradeType)),
      ...field('field.country', country(r.country)),
    ]),
    section(t, 'amounts', [
      ...(Number(r.cryptoSold) > 0 ? field('field.youSold', formatCrypto(r.cryptoSold, coin)) : field('field.youSold', formatMoney(r.fiatSold, fiat))),
      ...(Number(r.fiatBought) > 0
        ? field('field.youReceived', formatMoney(r.fiatBought, fiat))
        : field('field.youReceived', formatCrypto(r.cryptoBought, coin))),
      ...field('field.rateIncludingFee', formatRate(r.effectiveRate, coin, fiat)),
      ...field('field.quotedRate', formatRate(r.quotedRate, coin, fiat)),
      ...field('field.fee', formatCrypto(r.fee, coin)),
      ...field('field.cryptoAmount', formatCrypto(r.cryptoAmount, coin)),
      ...field('field.localAmountBeforeFee', formatMoney(r.fiatAmount, fiat)),
    ]),
    section(t, 'chain', [
      ...field('field.network', `${networkName(r.network)} (${r.network})`),
      ...field('field.cryptoTransaction', valueWord(t, 'cryptoTransaction', r.cryptoTransactionType)),
    ]),
  ];
}

function initiated(t: T, r: InitiatedPaymentRow): DetailSection[] {
  const field = fieldOf(t);
  return [
    section(t, 'summary', [
      ...idStatusDate(field, r),
      ...field('field.paymentMethod', paymentMethodLabel(r.paymentMethod)),
      ...field('field.reference', r.reference, { copy: true }),
    ]),
    section(t, 'parties', [
      ...field('field.recipient', r.recipientName),
      ...field('field.accountNumber', r.accountNumber, { copy: true }),
      ...field('field.country', country(r.country)),
    ]),
    section(t, 'amounts', [
      ...field('field.amount', formatMoney(r.amount, r.localCurrency)),
      ...(r.localCurrency === 'USD' ? [] : field('field.amountInUsd', formatMoney(r.amountUsd, 'USD'))),
      ...field('field.wallet', walletOf(r)),
    ]),
  ];
}

/** The details of a row, grouped (summary, parties, amounts, chain), each value formatted as the tables do. */
export function detailSections(table: SearchTable, row: Row): DetailSection[] {
  const t = translator(transactionsMessages);
  switch (table) {
    case 'payments':
    case 'collections':
      return moneyMovement(t, table, row as CollectionRow);
    case 'settlements':
      return settlement(t, row as SettlementRow);
    case 'fees':
      return fee(t, row as FeeRow);
    case 'trades':
      return trade(t, row as TradeRow);
    case 'initiate-payments':
      return initiated(t, row as InitiatedPaymentRow);
    case 'all':
      // a row of the combined tab is a payment's or a collection's, as its transaction type says
      return moneyMovement(t, (row as CombinedRow).transactionType === 'payout' ? 'payments' : 'collections', row as CombinedRow);
  }
}

/**
 * The order behind an initiated payment (GET disbursements/{id} or collections/{id}): what the row does not carry, the
 * fee and what the balance gave or got, and the timeline of its states in order of occurrence (transaction-data §4).
 */
export function paymentOrderSections(p: Payment): DetailSection[] {
  const t = translator(transactionsMessages);
  const field = fieldOf(t);
  const payout = p.kind === 'disbursement';
  return [
    section(t, 'order', [
      ...field('field.kind', payout ? t('kind.payout') : t('kind.collect')),
      ...field('field.rate', formatRate(p.rate, 'USD', p.currency)),
      ...field('field.fee', formatMoney(p.feeUsd, 'USD')),
      ...outcomeFields(t, paymentMovement(p)),
      ...field('field.network', p.networkName),
      ...field('field.reason', p.failureReason),
    ]),
    // the timeline's lines are named by their statuses
    section(
      t,
      'timeline',
      p.timeline.flatMap((e) => plainField(statusLabel(e.status), formatDate(e.at))),
    ),
  ];
}
