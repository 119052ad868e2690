import { describe, expect, it } from 'vitest';
import { chooseCoin, coins, currencyNetworkOf, networksFor, storeSelection, storedSelection } from './top-up.ts';

const memory = (initial: Record<string, string> = {}) => {
  const data = new Map(Object.entries(initial));
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), data };
};

describe('top-up selectors', () => {
  it('default to USDT on TRC20', () => {
    expect(storedSelection(memory())).toEqual({ coin: 'USDT', network: 'TRC20' });
    expect(storedSelection(memory({ currencyNetwork: 'nonsense' }))).toEqual({ coin: 'USDT', network: 'TRC20' });
  });
  it('list each coin once and the networks of a coin', () => {
    expect(coins()).toEqual(['USDT', 'USDC', 'BTC', 'PYUSD']);
    expect(networksFor('USDT')).toEqual(['ERC20', 'TRC20', 'CELO', 'POLYGON', 'SOL']);
    expect(networksFor('USDC')).toEqual(['ERC20', 'POLYGON', 'XLM', 'SOL', 'BASE']);
  });
  it('keep the network when the new coin has it, else take its first network', () => {
    expect(chooseCoin({ coin: 'USDT', network: 'POLYGON' }, 'USDC')).toEqual({ coin: 'USDC', network: 'POLYGON' });
    expect(chooseCoin({ coin: 'USDT', network: 'TRC20' }, 'USDC')).toEqual({ coin: 'USDC', network: 'ERC20' });
    expect(chooseCoin({ coin: 'USDC', network: 'XLM' }, 'BTC')).toEqual({ coin: 'BTC', network: 'BTC' });
  });
  it('keep the chosen currency network in storage', () => {
    const s = memory();
    storeSelection({ coin: 'USDC', network: 'XLM' }, s);
    expect(s.data.get('currencyNetwork')).toBe('usdc-xlm');
    expect(storedSelection(s)).toEqual({ coin: 'USDC', network: 'XLM' });
    expect(currencyNetworkOf({ coin: 'BTC', network: 'TRC20' })).toBeUndefined();
  });
});
