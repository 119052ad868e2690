import type { Coin } from '@portal/contract/domain';
import { compareDecimal, minDecimal, normalise } from '@portal/contract/decimal';
import { WITHDRAWAL_COINS, WITHDRAWAL_MESSAGES, WITHDRAWAL_MIN_USD } from '@portal/contract/settlements';
import type { SettlementWallet } from '@portal/contract/wallets';
import { formatMoney } from '../../lib/format.ts';
import { localizeMessage, translator } from '../../lib/i18n.ts';
import { portalConfig } from '../../lib/portal-config.ts';
import { balanceMessages } from './messages.ts';

/** A destination a withdrawal can go to: an enabled wallet and one of its coins that can be paid out. */
export type Destination = { key: string; wallet: SettlementWallet; coin: Coin };

export function destinations(wallets: readonly SettlementWallet[] | undefined): Destination[] {
  return (wallets ?? [])
    .filter((w) => w.status === 'enabled')
    .flatMap((wallet) => wallet.currencies.filter((c) => WITHDRAWAL_COINS.includes(c)).map((coin) => ({ key: `${wallet.id}:${coin}`, wallet, coin })));
}

/**
 * The most that can be withdrawn now, in the reader's language: in English the words of the contract's
 * WITHDRAWAL_MESSAGES.atMost (the server's too), the amount written as the language writes amounts.
 */
export const atMostText = (max: string) => translator(balanceMessages)('withdrawDialog.atMost', { amount: formatMoney(normalise(max, 2), 'USD') });

/**
 * The most that can be withdrawn now: what is available, and no more than one withdrawal may take (the server's
 * limit, which it writes into the page); 0.00 when nothing is available.
 */
export function withdrawableNow(available: string): string {
  return compareDecimal(available, '0') > 0 ? normalise(minDecimal(available, portalConfig().withdrawalMaxUsd), 2) : '0.00';
}

/** While the amount is typed: the maximum, when a well-formed amount is above it; else nothing yet. */
export function amountAboveMax(amount: string, max: string): string | null {
  const text = amount.trim();
  return /^\d{1,15}(\.\d{1,2})?$/.test(text) && compareDecimal(text, max) > 0 ? atMostText(max) : null;
}

/** The amount's problem (portal-core §5), or null, in the reader's language. `max` is the most that can be withdrawn now. */
export function amountProblem(amount: string, max: string): string | null {
  const text = amount.trim();
  if (!/^\d{1,15}(\.\d{1,2})?$/.test(text)) return translator(balanceMessages)('withdrawDialog.amountFormat');
  if (compareDecimal(text, max) > 0) return atMostText(max);
  if (compareDecimal(text, WITHDRAWAL_MIN_USD) < 0) return localizeMessage(WITHDRAWAL_MESSAGES.amountAtLeast);
  return null;
}
