import { describe, expect, it } from 'vitest';
import { travelRuleFieldsFor, type TravelRuleConfig } from './settlements.ts';
import { NETWORK_CURRENCIES, WALLET_NETWORKS, denyReason, networkTakesTag } from './wallets.ts';

describe('settlement wallets', () => {
  it('offers each network the coins of its currency networks', () => {
    expect(NETWORK_CURRENCIES.TRC20).toEqual(['USDT']);
    expect(NETWORK_CURRENCIES.ERC20).toEqual(['USDT', 'USDC', 'PYUSD']);
    expect(NETWORK_CURRENCIES.XLM).toEqual(['USDC']);
    expect(NETWORK_CURRENCIES.BTC).toEqual(['BTC']);
    expect(WALLET_NETWORKS).toHaveLength(8);
    expect(networkTakesTag('XLM')).toBe(true);
    expect(networkTakesTag('TRC20')).toBe(false);
  });

  it('denies with the free text when there is one, else the chosen reason', () => {
    expect(denyReason('This wallet address was added by accident', '  Wrong chain  ')).toBe('Wrong chain');
    expect(denyReason('This wallet address was added by accident', '   ')).toBe('This wallet address was added by accident');
    expect(denyReason(null, '')).toBe('');
  });

  it('asks for travel-rule fields from the minimum of an active config on', () => {
    const configs: TravelRuleConfig[] = [
      { id: 'a', countryCode: 'ALL', customerType: 'BUSINESS', minAmount: '1000.00', dataFields: ['name', 'businessRegistrationNumber'], status: 'ACTIVE' },
      { id: 'b', countryCode: 'ALL', customerType: 'BUSINESS', minAmount: '10.00', dataFields: ['name'], status: 'INACTIVE' },
    ];
    expect(travelRuleFieldsFor(configs, '999.99')).toEqual([]);
    expect(travelRuleFieldsFor(configs, '1000')).toEqual(['name', 'businessRegistrationNumber']);
    expect(travelRuleFieldsFor(configs, 'abc')).toEqual([]);
  });
});
