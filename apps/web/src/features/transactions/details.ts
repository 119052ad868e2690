import { countryName } from '@portal/contract/countries';
import type { Network } from '@portal/contract/domain';
import { networkName } from '@portal/contract/labels';
import type { CollectionRow, FeeRow, InitiatedPaymentRow, SettlementRow, TradeRow } from '@portal/contract/transaction-rows';
import type { Payment } from '@portal/contract/payments';
import type { SearchTable } from '@portal/contract/transactions';
import {
  formatCrypto,
  formatDate,
  formatMoney,
  formatRate,
  paymentMethodLabel,
  requestSourceLabel,
  statusLabel,
  titleCase,
  transactionTypeLabel,
} from '../../lib/format.ts';
import { moneyOutcome, paymentMovement } from '../../lib/money-outcome.ts';
import { walletAmount, type Row } from './tables.ts';

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
export type DetailSection = { title: 'Summary' | 'Parties' | 'Amounts' | 'Chain' | 'Order' | 'Timeline'; fields: DetailField[] };

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

const field = (label: string, value: string | null | undefined, extra: Omit<DetailField, 'label' | 'value'> = {}): DetailField[] =>
  value ? [{ label, value, ...extra }] : [];
const country = (code: string) => `${countryName(code)} (${code})`;
/** What the state did and did not move (the shared state → wording table), as detail lines. */
const outcomeFields = (m: Parameters<typeof moneyOutcome>[0]): DetailField[] => {
  const o = moneyOutcome(m);
  return [{ label: 'What happened', value: o.summary }, ...o.lines];
};

function moneyMovement(table: 'payments' | 'collections', r: CollectionRow): DetailSection[] {
  const wallet = (r.fiatWallet ?? 'USD').toUpperCase();
  const local = r.currency.toUpperCase();
  return [
    {
      title: 'Summary',
      fields: [
        ...field('ID', r.id, { copy: true }),
        ...field('Status', statusLabel(r.status), { status: r.status }),
        ...field('Date', formatDate(r.createdAt)),
        ...field('Payment method', paymentMethodLabel(r.paymentMethod)),
        ...(table === 'collections' ? field('Request source', requestSourceLabel(r.requestSource)) : []),
        ...field('Sequence ID', r.sequenceId, { copy: true }),
        ...field('Session ID', r.sessionId, { copy: true }),
      ],
    },
    {
      title: 'Parties',
      fields: [
        ...field(table === 'payments' ? 'Recipient' : 'Sender', r.counterpartyName),
        ...field('Account number', r.accountNumber, { copy: true }),
        ...field('Account type', titleCase(r.accountType)),
        ...field('Country', country(r.country)),
      ],
    },
    {
      title: 'Amounts',
      fields: [
        ...field('Amount', formatMoney(r.amount, local)),
        ...(local === 'USD' ? [] : [...field('Converted amount', formatMoney(r.convertedAmount, 'USD')), ...field('Rate', formatRate(r.rate, 'USD', local))]),
        ...field('Wallet', wallet),
        ...field('Wallet amount', walletAmount(r)),
        ...outcomeFields({
          kind: table === 'payments' ? 'disbursement' : 'collection',
          status: r.status,
          amount: r.amount,
          currency: local,
          balanceUsd: local === 'USD' ? r.amount : r.convertedAmount,
        }),
      ],
    },
  ];
}

function settlement(r: SettlementRow): DetailSection[] {
  const wallet = (r.fiatWallet ?? 'USD').toUpperCase();
  return [
    {
      title: 'Summary',
      fields: [
        ...field('ID', r.id, { copy: true }),
        ...field('Status', statusLabel(r.status), { status: r.status }),
        ...field('Date', formatDate(r.createdAt)),
        ...field('Transaction type', transactionTypeLabel(r.type)),
        ...field('Sequence ID', r.sequenceId, { copy: true }),
      ],
    },
    {
      title: 'Amounts',
      fields: [
        ...field('Crypto amount', formatCrypto(r.cryptoAmount, r.cryptoCurrency)),
        ...field('Crypto rate', formatRate(r.cryptoRate, r.cryptoCurrency, 'USD')),
        ...field('Amount in USD', formatMoney(r.fiatAmountUsd, 'USD')),
        ...field('Wallet', wallet),
        ...(wallet !== 'USD' && r.fiatAmount !== null
          ? [...field('Wallet amount', formatMoney(r.fiatAmount, wallet)), ...field('Wallet rate', formatRate(r.fiatRate, 'USD', wallet))]
          : []),
        ...field('Wallet balance (USD)', formatMoney(r.walletBalanceUsd, 'USD')),
        ...outcomeFields({
          kind: r.type.toLowerCase() === 'topup' ? 'deposit' : 'withdrawal',
          status: r.status,
          amount: r.fiatAmountUsd,
          currency: 'USD',
          balanceUsd: r.fiatAmountUsd,
        }),
      ],
    },
    {
      title: 'Chain',
      fields: [
        ...field('Network', `${networkName(r.network)} (${r.network})`),
        ...field('Transaction hash', r.transactionHash, { copy: true, href: explorerUrl(r.network, r.transactionHash) }),
        ...field('Internal wallet address', r.internalWalletAddress, { copy: true }),
        ...field('External wallet address', r.externalWalletAddress, { copy: true }),
      ],
    },
  ];
}

function fee(r: FeeRow): DetailSection[] {
  return [
    {
      title: 'Summary',
      fields: [
        ...field('ID', r.id, { copy: true }),
        ...field('Date', formatDate(r.createdAt)),
        ...field('Transaction type', transactionTypeLabel(r.transactionType)),
        ...field('Payment method', paymentMethodLabel(r.paymentMethod)),
        ...field('Transaction ID', r.transactionId, { copy: true }),
      ],
    },
    { title: 'Amounts', fields: [...field('Amount', formatMoney(r.amountUsd, 'USD')), ...field('Wallet', (r.fiatWallet ?? 'USD').toUpperCase())] },
  ];
}

function trade(r: TradeRow): DetailSection[] {
  const fiat = r.fiatCurrency;
  const coin = r.cryptoCurrency;
  return [
    {
      title: 'Summary',
      fields: [
        ...field('Trade ID', r.tradeId, { copy: true }),
        ...field('ID', r.id, { copy: true }),
        ...field('Status', statusLabel(r.status), { status: r.status }),
        ...field('Date', formatDate(r.createdAt)),
        ...field('Rate locked', formatDate(r.tradeLockedDate)),
        ...field('Trade type', titleCase(r.tradeType)),
        ...field('Country', country(r.country)),
      ],
    },
    {
      title: 'Amounts',
      fields: [
        ...(Number(r.cryptoSold) > 0 ? field('You sold', formatCrypto(r.cryptoSold, coin)) : field('You sold', formatMoney(r.fiatSold, fiat))),
        ...(Number(r.fiatBought) > 0 ? field('You received', formatMoney(r.fiatBought, fiat)) : field('You received', formatCrypto(r.cryptoBought, coin))),
        ...field('Rate including fee', formatRate(r.effectiveRate, coin, fiat)),
        ...field('Quoted rate', formatRate(r.quotedRate, coin, fiat)),
        ...field('Fee', formatCrypto(r.fee, coin)),
        ...field('Crypto amount', formatCrypto(r.cryptoAmount, coin)),
        ...field('Local amount at the quoted rate, before the fee', formatMoney(r.fiatAmount, fiat)),
      ],
    },
    {
      title: 'Chain',
      fields: [...field('Network', `${networkName(r.network)} (${r.network})`), ...field('Crypto transaction', titleCase(r.cryptoTransactionType))],
    },
  ];
}

function initiated(r: InitiatedPaymentRow): DetailSection[] {
  return [
    {
      title: 'Summary',
      fields: [
        ...field('ID', r.id, { copy: true }),
        ...field('Status', statusLabel(r.status), { status: r.status }),
        ...field('Date', formatDate(r.createdAt)),
        ...field('Payment method', paymentMethodLabel(r.paymentMethod)),
        ...field('Reference', r.reference, { copy: true }),
      ],
    },
    {
      title: 'Parties',
      fields: [...field('Recipient', r.recipientName), ...field('Account number', r.accountNumber, { copy: true }), ...field('Country', country(r.country))],
    },
    {
      title: 'Amounts',
      fields: [
        ...field('Amount', formatMoney(r.amount, r.localCurrency)),
        ...(r.localCurrency === 'USD' ? [] : field('Amount in USD', formatMoney(r.amountUsd, 'USD'))),
        ...field('Wallet', (r.fiatWallet ?? 'USD').toUpperCase()),
      ],
    },
  ];
}

/** The details of a row, grouped (summary, parties, amounts, chain), each value formatted as the tables do. */
export function detailSections(table: SearchTable, row: Row): DetailSection[] {
  switch (table) {
    case 'payments':
    case 'collections':
      return moneyMovement(table, row as CollectionRow);
    case 'settlements':
      return settlement(row as SettlementRow);
    case 'fees':
      return fee(row as FeeRow);
    case 'trades':
      return trade(row as TradeRow);
    case 'initiate-payments':
      return initiated(row as InitiatedPaymentRow);
  }
}

/**
 * The order behind an initiated payment (GET disbursements/{id} or collections/{id}): what the row does not carry, the
 * fee and what the balance gave or got, and the timeline of its states in order of occurrence (transaction-data §4).
 */
export function paymentOrderSections(p: Payment): DetailSection[] {
  const payout = p.kind === 'disbursement';
  return [
    {
      title: 'Order',
      fields: [
        ...field('Kind', payout ? 'Pay out' : 'Collect'),
        ...field('Rate', formatRate(p.rate, 'USD', p.currency)),
        ...field('Fee', formatMoney(p.feeUsd, 'USD')),
        ...outcomeFields(paymentMovement(p)),
        ...field('Network', p.networkName),
        ...field('Reason', p.failureReason),
      ],
    },
    { title: 'Timeline', fields: p.timeline.flatMap((e) => field(statusLabel(e.status), formatDate(e.at))) },
  ];
}
