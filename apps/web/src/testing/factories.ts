import type { AnalyticsReply } from '@portal/contract/analytics';
import type { BalanceOverview, LedgerMovement } from '@portal/contract/balance';
import { ALL_FEATURE_FLAGS, type Role } from '@portal/contract/domain';
import type { FiatWallet } from '@portal/contract/fiat-wallets';
import type { PartnerAccounts, PartnerProfile } from '@portal/contract/partner';
import { MANUAL_PAYOUT, type PayoutConfig, type PayoutConfigResponse } from '@portal/contract/payout';
import type { PaymentRow, SettlementRow, TransactionRow } from '@portal/contract/transaction-rows';
import type { SettlementWallet } from '@portal/contract/wallets';
import type { SearchResponse, SearchTable } from '@portal/contract/transactions';
import type { Channel, PaymentNetwork } from '@portal/contract/coverage';
import type { PartnerRate } from '@portal/contract/rates';
import { useSession } from '../lib/session/session-store.ts';

/** Test data with the demo partner's defaults; every factory takes overrides. */

export const PARTNER_ID = '0a5e0000-0000-4000-8000-00000000ac3e';

export function profile(overrides: Partial<PartnerProfile['partner']> = {}, flags: Partial<PartnerProfile['featureFlags']> = {}): PartnerProfile {
  return {
    partner: {
      id: PARTNER_ID,
      name: 'Acme Remit',
      abbreviation: 'ACME',
      walletAddress: null,
      withdrawalAddress: null,
      settlementThreshold: null,
      lowBalanceLimit: '1000.00000000',
      payoutType: 'MANUAL',
      payoutFrequency: null,
      productTypes: ['B2B'],
      fiatWalletsEnabled: false,
      whitelisted: false,
      isB2B: true,
      isCommercial: false,
      isWhitelistedCommercial: false,
      ...overrides,
    },
    featureFlags: { ...ALL_FEATURE_FLAGS, ...flags },
  };
}

export function accounts(list: PartnerAccounts['accounts'] = [{ currency: 'USD', available: '25000.00' }]): PartnerAccounts {
  return { partner: { id: PARTNER_ID, name: 'Acme Remit' }, accounts: list };
}

/** The balance overview (GET partner/balance): `available` USD, nothing pending and no movements unless given. */
export function balanceOverview(available: string, overrides: Partial<BalanceOverview> = {}): BalanceOverview {
  return { currency: 'USD', available, pending: { withdrawals: '0.00', disbursements: '0.00', total: '0.00' }, recent: [], ...overrides };
}

/** One of the overview's recent movements: a withdrawal of USD 1,234.56 to a settlement wallet unless overridden. */
export function ledgerMovement(overrides: Partial<LedgerMovement> = {}): LedgerMovement {
  return {
    id: '1',
    kind: 'settlement',
    description: 'Withdrawal to a settlement wallet',
    reference: '5e770000-0000-4000-8000-0000000000ff',
    amount: '-1234.56',
    currency: 'USD',
    createdAt: '2026-11-23T10:00:00.000Z',
    ...overrides,
  };
}

/** The demo partner's fiat wallets (GET partner/fiat-wallets): the default USD one, NGN, KES; overrides by currency. */
export function fiatWallets(overrides: Record<string, Partial<FiatWallet>> = {}): { fiatWallets: FiatWallet[] } {
  const list: FiatWallet[] = [
    { id: 1, currency: 'USD', country: 'US', paymentEnabled: true, collectionEnabled: true, balance: '25000.00000000' },
    { id: 2, currency: 'NGN', country: 'NG', paymentEnabled: true, collectionEnabled: true, balance: '12500000.00000000' },
    { id: 3, currency: 'KES', country: 'KE', paymentEnabled: true, collectionEnabled: false, balance: '850000.00000000' },
  ];
  return { fiatWallets: list.map((w) => ({ ...w, ...overrides[w.currency] })) };
}

export function payoutConfig(overrides: Partial<PayoutConfig> = {}, nextPayoutDate: string | null = null): PayoutConfigResponse {
  return { config: { ...MANUAL_PAYOUT, ...overrides }, nextPayoutDate };
}

/** Payment rows, newest first, with ids that differ in their first 8 characters. */
/** Payments as the server sends them (every field of the row schema), newest first. */
export function payments(count: number, from = 0, overrides: Partial<PaymentRow> = {}): PaymentRow[] {
  return Array.from({ length: count }, (_, i) => {
    const n = String(from + i).padStart(8, '0');
    return {
      id: `${n}-0000-4000-8000-000000000000`,
      createdAt: new Date(Date.UTC(2026, 10, 20, 12, 0) - (from + i) * 3600_000).toISOString(),
      status: 'complete',
      country: 'NG',
      currency: 'NGN',
      amount: `${1000 + from + i}.50`,
      convertedAmount: '0.65',
      rate: '1550',
      paymentMethod: 'bank_transfer',
      requestSource: 'api',
      fiatWallet: null,
      sequenceId: `SEQ-${n}`,
      sessionId: null,
      accountNumber: '0123456789',
      accountType: 'bank',
      counterpartyName: 'Adaeze Okafor',
      ...overrides,
    };
  });
}

/** A settlement as the server sends it. */
export function settlement(overrides: Partial<SettlementRow> = {}): SettlementRow {
  return {
    id: '00000000-0000-4000-8000-00000000000a',
    createdAt: new Date(Date.UTC(2026, 10, 20, 12, 0)).toISOString(),
    status: 'complete',
    type: 'payout',
    transactionHash: null,
    internalWalletAddress: 'TInternal',
    externalWalletAddress: '0xExternal',
    cryptoCurrency: 'USDT',
    cryptoAmount: '1.00000000',
    network: 'TRC20',
    cryptoRate: '0.9995',
    fiatAmountUsd: '1.00',
    walletBalanceUsd: '3.00',
    fiatAmount: null,
    fiatRate: null,
    fiatWallet: null,
    sequenceId: 'SET-00000001',
    ...overrides,
  };
}

/** A search reply of a table (payments unless said); the rows must be of that table. */
export function searchReply(data: TransactionRow[], total = data.length, totalRelation: 'eq' | 'gte' = 'eq', table: SearchTable = 'payments'): SearchResponse {
  return { table, data, total, totalRelation } as SearchResponse;
}

/** A verified user of the demo partner, as after a full sign-in. */
export function signIn(role: Role = 'admin') {
  useSession.getState().reset();
  useSession.getState().applyAuthResult({
    user: { id: '0a5e0001-0000-4000-8000-000000000001', name: 'Ada Admin', email: `${role}@acme.test`, role, partnerId: PARTNER_ID, status: 'active' },
    accessToken: `token-${role}`,
    expiresIn: 900,
    refreshToken: 'refresh',
  });
}

/** The signed-in test user's id (signIn above). */
export const USER_ID = '0a5e0001-0000-4000-8000-000000000001';
/** Another admin of the demo partner. */
export const OTHER_ADMIN = { id: '0a5e0001-0000-4000-8000-000000000002', name: 'Kwame Boateng' };

const hexId = (prefix: string, n: number) => `${prefix}${String(n).padStart(12 - prefix.length, '0')}`;

/** A partner rate (enabled country) of the demo partner; ids follow the country code. */
export function partnerRate(locale: string, code: string, overrides: Partial<PartnerRate> = {}): PartnerRate {
  const n = locale.charCodeAt(0) * 256 + locale.charCodeAt(1);
  return {
    id: `00000000-0000-4000-8000-${hexId('a', n)}`,
    rateId: `00000000-0000-4000-8000-${hexId('b', n)}`,
    locale,
    code,
    buy: '100.00000000',
    sell: '101.00000000',
    status: 'disabled',
    requestedBy: null,
    requestedAt: null,
    ...overrides,
  };
}

let channelSeq = 0;
/** A channel (Kenyan mobile money deposit unless said). */
export function channel(overrides: Partial<Channel> = {}): Channel {
  channelSeq += 1;
  return {
    id: `00000000-0000-4000-8000-${hexId('c', channelSeq)}`,
    vendorId: 'ke-momo-in',
    rampType: 'deposit',
    channelType: 'momo',
    country: 'KE',
    currency: 'KES',
    status: 'active',
    commercialStatus: 'active',
    feeUSD: '0.23000000',
    feeLocal: '30.00000000',
    min: '10.00000000',
    max: '250000.00000000',
    successThreshold: '0.8500',
    estimatedSettlementTime: 60,
    settlementType: 'instant',
    widgetStatus: 'active',
    apiStatus: 'active',
    widgetMin: '10.00000000',
    widgetMax: '150000.00000000',
    ...overrides,
  };
}

let networkSeq = 0;
/** A payment network (Kenya, reached through the given channels). */
export function network(overrides: Partial<PaymentNetwork> = {}): PaymentNetwork {
  networkSeq += 1;
  return {
    id: `00000000-0000-4000-8000-${hexId('d', networkSeq)}`,
    code: 'MPESA',
    name: 'M-Pesa',
    country: 'KE',
    status: 'active',
    channelIds: [],
    accountNumberType: 'phone',
    featureFlagEnabled: false,
    tempDisabledFor: [],
    ...overrides,
  };
}

/** A settlement wallet of the demo partner (enabled USDT on TRC20 unless overridden). */
export function settlementWallet(overrides: Partial<SettlementWallet> = {}): SettlementWallet {
  return {
    id: '5e770000-0000-4000-8000-000000000001',
    partnerId: PARTNER_ID,
    address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    network: 'TRC20',
    status: 'enabled',
    tag: null,
    currencies: ['USDT'],
    createdById: '0a5e0001-0000-4000-8000-000000000002',
    createdByName: 'Kwame Boateng',
    createdAt: '2026-11-20T10:00:00.000Z',
    travelRuleInfo: { name: 'Acme Remit Ltd', businessRegistrationNumber: 'RC-123456' },
    reason: null,
    reviewedByName: null,
    canReview: false,
    ...overrides,
  };
}

/**
 * The Overview's figures (GET partner/analytics) of three days of November 2026 in USD: volumes against the period
 * before, success by step, country, channel and operator, a failure without a reason, the balance and two corridors'
 * completion times. Overrides replace whole fields.
 */
export function analyticsReply(overrides: Partial<AnalyticsReply> = {}): AnalyticsReply {
  const volume = (count: number, amount: string) => ({ count, amount });
  return {
    period: { from: '2026-11-01', to: '2026-11-03', previousFrom: '2026-10-29', previousTo: '2026-10-31', timeZone: 'UTC' },
    bucket: 'day',
    currency: 'USD',
    totals: {
      collections: { current: volume(1234, '98765.43'), previous: volume(1000, '80000.00') },
      payments: { current: volume(56, '4500.00'), previous: volume(60, '5000.00') },
      settlements: { current: volume(3, '1500.00'), previous: volume(0, '0.00') },
    },
    series: ['2026-11-01', '2026-11-02', '2026-11-03'].map((day, i) => ({
      start: `${day}T00:00:00.000Z`,
      day,
      volumes: {
        collections: volume(400 + i, `${30000 + i}.10`),
        payments: volume(18 + i, `${1500 + i}.00`),
        settlements: volume(1, '500.00'),
      },
      success: i === 2 ? { succeeded: 0, finished: 0 } : { succeeded: 90, finished: 100 },
    })),
    success: {
      succeeded: 1290,
      finished: 1400,
      byCountry: [
        { key: 'NG', count: 900, amount: '70000.00', succeeded: 820, finished: 880 },
        { key: 'KE', count: 500, amount: '33265.43', succeeded: 470, finished: 520 },
      ],
      byChannel: [
        { key: 'mobile_money', count: 800, amount: '60000.00', succeeded: 760, finished: 790 },
        { key: 'bank_transfer', count: 600, amount: '43265.43', succeeded: 530, finished: 610 },
      ],
      byOperator: [
        { key: 'M-Pesa', count: 500, amount: '33265.43', succeeded: 470, finished: 520 },
        { key: '', count: 10, amount: '0.00', succeeded: 0, finished: 5 },
      ],
      failureReasons: [
        { reason: 'The recipient account was not found', status: null, count: 70 },
        { reason: null, status: 'expired', count: 40 },
      ],
    },
    balance: {
      currency: 'USD',
      points: [
        { at: '2026-11-02T00:00:00.000Z', balance: '24000.00' },
        { at: '2026-11-03T00:00:00.000Z', balance: '24500.00' },
        { at: '2026-11-04T00:00:00.000Z', balance: '25000.00' },
      ],
      current: '25000.00',
      pending: { withdrawals: '1200.50', disbursements: '300.00' },
    },
    completion: [
      { kind: 'collections', country: 'NG', channel: 'mobile_money', count: 300, p50Seconds: 240, p95Seconds: 7800 },
      { kind: 'payments', country: 'KE', channel: 'bank_transfer', count: 20, p50Seconds: 45, p95Seconds: 97_200 },
    ],
    ...overrides,
  };
}
