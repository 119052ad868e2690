import { describe, expect, it } from 'vitest';
import { CURRENCY_NETWORKS } from './domain.ts';
import { coinNetworkLabel, networkName } from './labels.ts';

describe('network labels', () => {
  it('names every network in words', () => {
    expect(['SOL', 'TRC20', 'ERC20', 'POLYGON', 'XLM', 'CELO', 'BASE', 'sol'].map(networkName)).toEqual([
      'Solana',
      'Tron',
      'Ethereum',
      'Polygon',
      'Stellar',
      'Celo',
      'Base',
      'Solana',
    ]);
    expect(networkName('M-Pesa')).toBe('M-Pesa');
  });
  it('writes a coin on its network without inner spaces, as the catalogue labels it', () => {
    expect(coinNetworkLabel('usdt', 'trc20')).toBe('USDT (TRC20)');
    for (const n of Object.values(CURRENCY_NETWORKS)) expect(coinNetworkLabel(n.coin, n.network)).toBe(n.label);
  });
});
