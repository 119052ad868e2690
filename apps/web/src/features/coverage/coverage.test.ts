import { describe, expect, it } from 'vitest';
import { channel, network } from '../../testing/factories.ts';
import { NO_FILTERS, countrySummaries, filterCoverage, reachOf } from './coverage.ts';

const momoIn = channel({ channelType: 'momo', rampType: 'deposit' });
const momoOut = channel({ channelType: 'momo', rampType: 'withdraw' });
const bankOut = channel({ channelType: 'bank', rampType: 'withdraw' });
const ghMomo = channel({ country: 'GH', currency: 'GHS', channelType: 'momo' });
const CHANNELS = [momoIn, momoOut, bankOut, ghMomo];
const mpesa = network({ name: 'M-Pesa', code: 'MPESA', channelIds: [momoIn.id, momoOut.id] });
const equity = network({ name: 'Equity Bank', code: 'EQUITY', accountNumberType: 'bank', channelIds: [bankOut.id] });
const mtn = network({ name: 'MTN Mobile Money', code: 'MTN', country: 'GH', channelIds: [ghMomo.id] });
const NETWORKS = [mpesa, equity, mtn];

const names = (r: ReturnType<typeof filterCoverage>) => ({ channels: r.channels.map((c) => `${c.channelType}/${c.rampType}`), networks: r.networks.map((n) => n.code) });

describe('coverage', () => {
  it('sums each country: channels in and out, networks, channel types; by name', () => {
    expect(countrySummaries(CHANNELS, NETWORKS)).toEqual([
      { country: 'GH', name: 'Ghana', currency: 'GHS', deposit: 1, withdraw: 0, networks: 1, types: ['momo'] },
      { country: 'KE', name: 'Kenya', currency: 'KES', deposit: 1, withdraw: 2, networks: 2, types: ['momo', 'bank'] },
    ]);
  });

  it("shows one country's channels and networks, narrowed by direction and type", () => {
    expect(names(filterCoverage('KE', CHANNELS, NETWORKS, NO_FILTERS))).toEqual({ channels: ['momo/deposit', 'momo/withdraw', 'bank/withdraw'], networks: ['MPESA', 'EQUITY'] });
    expect(names(filterCoverage('KE', CHANNELS, NETWORKS, { ...NO_FILTERS, ramp: 'deposit' }))).toEqual({ channels: ['momo/deposit'], networks: ['MPESA'] });
    expect(names(filterCoverage('KE', CHANNELS, NETWORKS, { ...NO_FILTERS, type: 'bank' }))).toEqual({ channels: ['bank/withdraw'], networks: ['EQUITY'] });
    expect(names(filterCoverage('KE', CHANNELS, NETWORKS, { ramp: 'deposit', type: 'bank', query: '' }))).toEqual({ channels: [], networks: [] });
  });

  it('searches networks by name or code with the channels that reach them, and channels by type', () => {
    expect(names(filterCoverage('KE', CHANNELS, NETWORKS, { ...NO_FILTERS, query: 'm-pesa' }))).toEqual({ channels: ['momo/deposit', 'momo/withdraw'], networks: ['MPESA'] });
    expect(names(filterCoverage('KE', CHANNELS, NETWORKS, { ...NO_FILTERS, query: 'equity' }))).toEqual({ channels: ['bank/withdraw'], networks: ['EQUITY'] });
    expect(names(filterCoverage('KE', CHANNELS, NETWORKS, { ...NO_FILTERS, query: 'bank transfer' }))).toEqual({ channels: ['bank/withdraw'], networks: ['EQUITY'] });
    expect(names(filterCoverage('KE', CHANNELS, NETWORKS, { ...NO_FILTERS, query: 'MTN' }))).toEqual({ channels: [], networks: [] });
  });

  it("tells how a network is reached", () => {
    expect(reachOf(mpesa, CHANNELS)).toEqual([{ type: 'momo', ramps: ['deposit', 'withdraw'] }]);
    expect(reachOf(network({ channelIds: ['00000000-0000-4000-8000-000000000000'] }), CHANNELS)).toEqual([]);
  });
});
