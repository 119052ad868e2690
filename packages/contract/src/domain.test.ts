import { describe, expect, it } from 'vitest';
import { CURRENCY_NETWORK_IDS, DecimalString, splitCurrencyNetwork, COINS, NETWORKS } from './domain.ts';
import { partnerKind } from './partner.ts';

describe('currency networks', () => {
  it('splits every id into a known coin and network', () => {
    for (const id of CURRENCY_NETWORK_IDS) {
      const { coin, network } = splitCurrencyNetwork(id);
      expect(COINS).toContain(coin);
      expect(NETWORKS).toContain(network);
    }
    expect(splitCurrencyNetwork('usdt-trc20')).toEqual({ coin: 'USDT', network: 'TRC20' });
    expect(splitCurrencyNetwork('usdc-xlm')).toEqual({ coin: 'USDC', network: 'XLM' });
  });
});

describe('partner kind flags', () => {
  it('follow product type and whitelist', () => {
    expect(partnerKind(['B2B'], false)).toEqual({ isB2B: true, isCommercial: false, isWhitelistedCommercial: false });
    expect(partnerKind(['COMMERCIAL'], true)).toEqual({ isB2B: false, isCommercial: true, isWhitelistedCommercial: true });
    expect(partnerKind(['COMMERCIAL'], false).isWhitelistedCommercial).toBe(false);
    expect(partnerKind(['B2B'], true).isWhitelistedCommercial).toBe(false);
  });
});

describe('decimal strings', () => {
  it('accept decimals and refuse floats in other forms', () => {
    expect(DecimalString.safeParse('25000.00').success).toBe(true);
    expect(DecimalString.safeParse('-0.5').success).toBe(true);
    for (const bad of ['1e3', '1,000', '', '.5', 'NaN', '1.']) expect(DecimalString.safeParse(bad).success).toBe(false);
  });
});
