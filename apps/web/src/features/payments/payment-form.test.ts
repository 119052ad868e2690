import { describe, expect, it } from 'vitest';
import type { Channel, PaymentNetwork } from '@portal/contract/coverage';
import { EMPTY_DRAFT, channelsFor, countriesFor, draftProblems, networksFor } from './payment-form.ts';

const channel = (over: Partial<Channel>): Channel =>
  ({
    id: crypto.randomUUID(),
    rampType: 'withdraw',
    channelType: 'momo',
    country: 'KE',
    currency: 'KES',
    apiStatus: 'active',
    min: '10',
    max: '250000',
    ...over,
  }) as Channel;

describe('the initiate form', () => {
  const out = channel({});
  const inn = channel({ rampType: 'deposit' });
  const ng = channel({ country: 'NG', currency: 'NGN', channelType: 'bank' });
  const paused = channel({ country: 'GH', apiStatus: 'inactive' });
  const all = [out, inn, ng, paused];

  const served = [
    { country: 'KE', currency: 'KES' },
    { country: 'NG', currency: 'NGN' },
    { country: 'GH', currency: 'GHS' },
  ];

  it('offers the countries and channels of the direction of the payment', () => {
    expect(countriesFor('disbursement', all, served).map((c) => c.code)).toEqual(['KE', 'NG']);
    expect(countriesFor('collection', all, served).map((c) => c.code)).toEqual(['KE']);
    expect(channelsFor('collection', 'KE', all, served)).toEqual([inn]);
  });

  it("offers only the partner's enabled countries (markets), so a refused one is never offered", () => {
    const tz = channel({ country: 'TZ', currency: 'TZS' });
    expect(countriesFor('disbursement', [...all, tz], served).map((c) => c.code)).toEqual(['KE', 'NG']);
    expect(countriesFor('disbursement', [...all, tz], [{ country: 'NG', currency: 'NGN' }]).map((c) => c.code)).toEqual(['NG']);
    expect(channelsFor('disbursement', 'TZ', [...all, tz], served)).toEqual([]);
    expect(countriesFor('disbursement', all, [])).toEqual([]);
  });

  it('offers the networks reached through the channel and not paused for payouts', () => {
    const n = (over: Partial<PaymentNetwork>) =>
      ({ id: crypto.randomUUID(), country: 'KE', channelIds: [out.id], tempDisabledFor: [], ...over }) as PaymentNetwork;
    const mpesa = n({});
    const other = n({ channelIds: [inn.id] });
    const pausedOut = n({ tempDisabledFor: ['withdraw'] });
    expect(networksFor('KE', out.id, [mpesa, other, pausedOut])).toEqual([mpesa]);
  });

  it('says what is missing before a quote', () => {
    expect(Object.keys(draftProblems(EMPTY_DRAFT, undefined, undefined)).sort()).toEqual([
      'accountNumber',
      'amount',
      'channelId',
      'country',
      'name',
      'networkId',
    ]);
    // a bank collection needs no payer account; an amount with 3 decimals is refused
    const bankIn = channel({ rampType: 'deposit', channelType: 'bank' });
    expect(
      Object.keys(
        draftProblems({ ...EMPTY_DRAFT, kind: 'collection', country: 'KE', channelId: bankIn.id, name: 'Kofi', amount: '10.123' }, bankIn, undefined),
      ),
    ).toEqual(['amount']);
  });

  it('refuses zero or less as below the minimum, and says the limits with thousands separators', () => {
    const big = channel({ min: '10.00000000', max: '5000000.00000000' });
    const n = { id: 'n', accountNumberType: 'phone' } as PaymentNetwork;
    const draft = { ...EMPTY_DRAFT, country: 'KE', channelId: big.id, networkId: 'n', name: 'Amina', accountNumber: '+254712345678' };
    const amount = (value: string, c: Channel | null = big) => draftProblems({ ...draft, amount: value }, c ?? undefined, n).amount;
    expect(amount('-5')).toBe('Enter an amount of at least KES 10.00');
    expect(amount('0')).toBe('Enter an amount of at least KES 10.00');
    expect(amount('-5', null)).toBe('Enter an amount above zero');
    expect(amount('9.99')).toBe('Enter an amount of at least KES 10.00');
    expect(amount('5000000.01')).toBe('Enter an amount of at most KES 5,000,000.00');
    expect(amount('12.345')).toBe('Enter an amount in the local currency with at most 2 decimals');
    expect(amount('5000000')).toBeUndefined();
  });

  it("checks the account number with the server's rule of the network's account type", () => {
    const n = (accountNumberType: PaymentNetwork['accountNumberType']) => ({ id: 'n', accountNumberType }) as PaymentNetwork;
    const draft = { ...EMPTY_DRAFT, country: 'KE', channelId: out.id, networkId: 'n', name: 'Amina', amount: '100' };
    const account = (value: string, type: PaymentNetwork['accountNumberType']) => draftProblems({ ...draft, accountNumber: value }, out, n(type)).accountNumber;
    expect(account('12ab', 'phone')).toBe('Enter a phone number with its country code, digits only (7 to 15)');
    expect(account('+254 712-345-678', 'phone')).toBeUndefined();
    expect(account('12345', 'bank')).toBe('Enter a bank account number of 6 to 20 digits');
    expect(account('amina@wallet', 'app')).toBeUndefined();
    // a bank collection's payer account, when given, is a bank account number
    const bankIn = channel({ rampType: 'deposit', channelType: 'bank' });
    expect(draftProblems({ ...draft, kind: 'collection', channelId: bankIn.id, accountNumber: '12' }, bankIn, undefined).accountNumber).toBe(
      'Enter a bank account number of 6 to 20 digits',
    );
  });
});
