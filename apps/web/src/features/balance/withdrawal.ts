import type { Coin } from '@portal/contract/domain';
import { compareDecimal, normalise } from '@portal/contract/decimal';
import { WITHDRAWAL_COINS, WITHDRAWAL_MESSAGES, WITHDRAWAL_MIN_USD } from '@portal/contract/settlements';
import type { SettlementWallet } from '@portal/contract/wallets';

/** A destination a withdrawal can go to: an enabled wallet and one of its coins that can be paid out. */
export type Destination = { key: string; wallet: SettlementWallet; coin: Coin };

export function destinations(wallets: readonly SettlementWallet[] | undefined): Destination[] {
  return (wallets ?? [])
    .filter((w) => w.status === 'enabled')
    .flatMap((wallet) => wallet.currencies.filter((c) => WITHDRAWAL_COINS.includes(c)).map((coin) => ({ key: `${wallet.id}:${coin}`, wallet, coin })));
}

/** The amount's problem (portal-core §5), or null. `max` is the most that can be withdrawn now. */
export function amountProblem(amount: string, max: string): string | null {
  const text = amount.trim();
  if (!/^\d{1,15}(\.\d{1,2})?$/.test(text)) return 'Enter an amount in USD, such as 250.00';
  if (compareDecimal(text, max) > 0) return WITHDRAWAL_MESSAGES.atMost(normalise(max, 2));
  if (compareDecimal(text, WITHDRAWAL_MIN_USD) < 0) return WITHDRAWAL_MESSAGES.amountAtLeast;
  return null;
}
