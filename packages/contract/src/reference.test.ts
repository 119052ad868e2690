import { describe, expect, it } from 'vitest';
import { COUNTRIES, COUNTRY_CURRENCIES, COUNTRY_LIST, CURRENCY_NAMES, LOCAL_CURRENCIES, countryByLocale, countryName, countryOptions } from './countries.ts';
import { channelTypeLabel, channelTypeName, formatSettlementTime } from './coverage.ts';
import { CURRENCY_NETWORKS, CURRENCY_NETWORK_IDS } from './domain.ts';
import { RateChangeRequest, isCountryRate, rateChange, requestFor } from './rates.ts';

describe('the country list', () => {
  it('holds about 200 countries, each once, with a two-letter code and a dialling code', () => {
    expect(COUNTRY_LIST.length).toBeGreaterThanOrEqual(195);
    expect(new Set(COUNTRY_LIST.map((c) => c.locale)).size).toBe(COUNTRY_LIST.length);
    expect(new Set(COUNTRY_LIST.map((c) => c.name)).size).toBe(COUNTRY_LIST.length);
    for (const c of COUNTRY_LIST) {
      expect(c.locale, c.name).toMatch(/^[A-Z]{2}$/);
      expect(c.code, c.name).toMatch(/^\+\d{1,3}(-\d{3})?$/);
    }
  });

  it('knows the served markets and the compound Caribbean codes', () => {
    expect(countryByLocale('ke')).toEqual({ name: 'Kenya', locale: 'KE', code: '+254' });
    expect(countryByLocale('NG')?.code).toBe('+234');
    expect(countryByLocale('JM')?.code).toBe('+1-876');
    expect(countryByLocale('US')?.code).toBe('+1');
    expect(countryName('CI')).toBe("Côte d'Ivoire");
    expect(countryName('XX')).toBe('XX');
    // every served market is in the list and has a named currency
    for (const c of COUNTRIES) expect(countryByLocale(c), c).toBeDefined();
    for (const cur of LOCAL_CURRENCIES) expect(CURRENCY_NAMES[cur], cur).toBeTruthy();
    expect(COUNTRIES.length).toBeGreaterThanOrEqual(15);
    expect(COUNTRY_CURRENCIES.KE).toBe('KES');
  });

  it('makes select options sorted by name', () => {
    expect(countryOptions(['NG', 'KE', 'BJ'])).toEqual([
      { value: 'BJ', label: 'Benin' },
      { value: 'KE', label: 'Kenya' },
      { value: 'NG', label: 'Nigeria' },
    ]);
    expect(countryOptions()).toHaveLength(COUNTRY_LIST.length);
  });
});

describe('the currency network list', () => {
  it('names and labels every currency network id', () => {
    expect(Object.keys(CURRENCY_NETWORKS)).toEqual([...CURRENCY_NETWORK_IDS]);
    expect(CURRENCY_NETWORKS['usdt-trc20']).toEqual({
      id: 'usdt-trc20',
      coin: 'USDT',
      network: 'TRC20',
      name: 'Tether USD on Tron',
      icon: 'usdt',
      label: 'USDT (TRC20)',
    });
    expect(CURRENCY_NETWORKS['usdc-xlm'].label).toBe('USDC (XLM)');
  });
});

describe('channel types and settlement times', () => {
  it.each([
    ['momo', 'Mobile Money', 'Mobile money'],
    ['eft', 'Bank Transfer', 'EFT'],
    ['p2p', 'Bank Transfer', 'P2P transfer'],
    ['airtimePin', 'PIN voucher', 'PIN voucher'],
    ['highvolumeotc', 'High-volume OTC', 'High-volume OTC'],
  ])('labels channel type %s as the product does (%s), and names it precisely (%s)', (type, label, name) => {
    expect(channelTypeLabel(type)).toBe(label);
    expect(channelTypeName(type)).toBe(name);
  });

  it.each([
    [60, 'Instant'],
    [900, '≈ 15 min'],
    [7200, '≈ 2 h'],
    [86_400, '≈ 1 day'],
    [172_800, '≈ 2 days'],
  ])('reads a settlement time in seconds: %i', (seconds, shown) => {
    expect(formatSettlementTime(seconds)).toBe(shown);
  });
});

describe('partner rates', () => {
  it('drops crypto, USD and US rows', () => {
    expect(isCountryRate({ locale: 'KE', code: 'KES' })).toBe(true);
    expect(isCountryRate({ locale: 'crypto', code: 'USDT' })).toBe(false);
    expect(isCountryRate({ locale: 'EC', code: 'USD' })).toBe(false);
    expect(isCountryRate({ locale: 'US', code: 'USN' })).toBe(false);
  });

  it('derives previous status, action and new status of a pending change', () => {
    expect(rateChange('pending_enable')).toEqual({ previousStatus: 'disabled', action: 'Enable', newStatus: 'enabled' });
    expect(rateChange('pending_disable')).toEqual({ previousStatus: 'enabled', action: 'Disable', newStatus: 'disabled' });
    expect(rateChange('enabled')).toBeUndefined();
    expect(requestFor('enabled')).toBe('pending_disable');
    expect(requestFor('disabled')).toBe('pending_enable');
  });

  it('refuses a request naming a rate twice, or asking for a settled status', () => {
    const item = { partnerRateId: '00000000-0000-4000-8000-000000000001', platformRateId: '00000000-0000-4000-8000-000000000002', status: 'pending_enable' };
    expect(RateChangeRequest.safeParse({ rates: [item] }).success).toBe(true);
    expect(RateChangeRequest.safeParse({ rates: [item, item] }).success).toBe(false);
    expect(RateChangeRequest.safeParse({ rates: [{ ...item, status: 'enabled' }] }).success).toBe(false);
  });
});
