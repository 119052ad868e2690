import { describe, expect, it } from 'vitest';
import type { Channel, PaymentNetwork } from '@portal/contract/coverage';
import { EMPTY_DRAFT, channelsFor, countriesFor, draftProblems, networksFor } from './payment-form.ts';

const channel = (over: Partial<Channel>): Channel =>
  ({ id: crypto.randomUUID(), rampType: 'withdraw', channelType: 'momo', country: 'KE', currency: 'KES', apiStatus: 'active', min: '10', max: '250000', ...over }) as Channel;

describe('the initiate form', () => {
  const out = channel({});
  const inn = channel({ rampType: 'deposit' });
  const ng = channel({ country: 'NG', currency: 'NGN', channelType: 'bank' });
  const paused = channel({ country: 'GH', apiStatus: 'inactive' });
  const all = [out, inn, ng, paused];

  it('offers the countries and channels of the direction of the payment', () => {
    expect(countriesFor('disbursement', all).map((c) => c.code)).toEqual(['KE', 'NG']);
    expect(countriesFor('collection', all).map((c) => c.code)).toEqual(['KE']);
    expect(channelsFor('collection', 'KE', all)).toEqual([inn]);
  });

  it('offers the networks reached through the channel and not paused for payouts', () => {
    const n = (over: Partial<PaymentNetwork>) => ({ id: crypto.randomUUID(), country: 'KE', channelIds: [out.id], tempDisabledFor: [], ...over }) as PaymentNetwork;
    const mpesa = n({});
    const other = n({ channelIds: [inn.id] });
    const pausedOut = n({ tempDisabledFor: ['withdraw'] });
    expect(networksFor('KE', out.id, [mpesa, other, pausedOut])).toEqual([mpesa]);
  });

  it('says what is missing before a quote', () => {
    expect(Object.keys(draftProblems(EMPTY_DRAFT, undefined, undefined)).sort()).toEqual(['accountNumber', 'amount', 'channelId', 'country', 'name', 'networkId']);
    // a bank collection needs no payer account; an amount with 3 decimals is refused
    const bankIn = channel({ rampType: 'deposit', channelType: 'bank' });
    expect(Object.keys(draftProblems({ ...EMPTY_DRAFT, kind: 'collection', country: 'KE', channelId: bankIn.id, name: 'Kofi', amount: '10.123' }, bankIn, undefined))).toEqual(['amount']);
  });
});
