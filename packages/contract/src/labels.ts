import { CHANNEL_TYPE_LABELS, NETWORK_NAMES, PAYMENT_METHOD_LABELS, TRANSACTION_TYPE_LABELS, type Network } from './domain.ts';

/**
 * The words a person reads for the stored values of the transaction tables (transaction-data §2, §3, §9), shared by
 * the files the server writes and the portal's exports, so that a file says what the screen says.
 */

/** Title case: pending_approval → Pending Approval (statuses are displayed in title case, transaction-data §2). */
export const titleCase = (value: string | null | undefined) =>
  (value ?? '')
    .replace(/[_-]+/g, ' ')
    .trim()
    .replace(/\w\S*/g, (w) => w[0]!.toUpperCase() + w.slice(1).toLowerCase());

/** A transaction, settlement, trade or report status as the tables show it, abbreviations kept (pending_kyc → Pending KYC). */
export const statusLabel = (value: string | null | undefined) => titleCase(value).replace(/\bKyc\b/g, 'KYC');

/** Payment methods and channel types as labels: BANK_TRANSFER → Bank, momo → Mobile Money (transaction-data §9). */
export function paymentMethodLabel(value: string | null | undefined): string {
  if (!value) return '';
  const upper = value.toUpperCase() as keyof typeof PAYMENT_METHOD_LABELS;
  return PAYMENT_METHOD_LABELS[upper] ?? CHANNEL_TYPE_LABELS[value.toLowerCase()] ?? titleCase(value);
}

/** payout → Pay out, topup → Top up. */
export const transactionTypeLabel = (value: string | null | undefined) =>
  TRANSACTION_TYPE_LABELS[(value ?? '').toLowerCase() as keyof typeof TRANSACTION_TYPE_LABELS] ?? titleCase(value);

/** A missing request source shows as API; any value reading api shows as API (transaction-data §3). */
export const requestSourceLabel = (value: string | null | undefined) => (!value || value.toLowerCase() === 'api' ? 'API' : titleCase(value));

/** A network in words: SOL → Solana, TRC20 → Tron, ERC20 → Ethereum; a code the portal does not know stays as it is. */
export const networkName = (network: string) => NETWORK_NAMES[network.trim().toUpperCase() as Network] ?? network;

/** A coin on its network, the one way it is written: USDT (TRC20), no spaces inside the brackets. */
export const coinNetworkLabel = (coin: string, network: string) => `${coin.trim().toUpperCase()} (${network.trim().toUpperCase()})`;

/** A wallet address as a message names it: its first and last four characters ("TQn9…x7Yb"). */
export const shortAddress = (address: string) => (address.length > 12 ? `${address.slice(0, 4)}…${address.slice(-4)}` : address);
