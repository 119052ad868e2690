import { CURRENCY_NETWORK_IDS, DEFAULT_CURRENCY_NETWORK, splitCurrencyNetwork, type Coin, type CurrencyNetworkId, type Network } from '@portal/contract/domain';

export const STORAGE_KEY = 'currencyNetwork';
export type TopUpSelection = { coin: Coin; network: Network };

const PAIRS = CURRENCY_NETWORK_IDS.map((id) => ({ id, ...splitCurrencyNetwork(id) }));

export const coins = (): Coin[] => [...new Set(PAIRS.map((p) => p.coin))];
export const networksFor = (coin: Coin): Network[] => PAIRS.filter((p) => p.coin === coin).map((p) => p.network);

export function currencyNetworkOf({ coin, network }: TopUpSelection): CurrencyNetworkId | undefined {
  return PAIRS.find((p) => p.coin === coin && p.network === network)?.id;
}

/** Choosing a coin narrows the networks to that coin's and keeps the network only if it is one of them. */
export function chooseCoin(current: TopUpSelection, coin: Coin): TopUpSelection {
  const networks = networksFor(coin);
  return { coin, network: networks.includes(current.network) ? current.network : networks[0]! };
}

/** The stored selection (default usdt-trc20: USDT on TRC20); an unknown stored value falls back to the default. */
export function storedSelection(storage: Pick<Storage, 'getItem'> = localStorage): TopUpSelection {
  let stored: string | null = null;
  try {
    stored = storage.getItem(STORAGE_KEY);
  } catch {
    // storage unavailable
  }
  const id = (CURRENCY_NETWORK_IDS as readonly string[]).includes(stored ?? '') ? (stored as CurrencyNetworkId) : DEFAULT_CURRENCY_NETWORK;
  return splitCurrencyNetwork(id);
}

export function storeSelection(selection: TopUpSelection, storage: Pick<Storage, 'setItem'> = localStorage) {
  const id = currencyNetworkOf(selection);
  if (!id) return;
  try {
    storage.setItem(STORAGE_KEY, id);
  } catch {
    // storage unavailable: the choice lasts for this dialog only
  }
}
