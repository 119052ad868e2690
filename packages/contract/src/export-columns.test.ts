import { describe, expect, it } from 'vitest';
import { plainDecimal } from './decimal.ts';
import { exportColumns, exportCsv, settlementShownAmount, tradeSides } from './export-columns.ts';
import type { CollectionRow, FeeRow, InitiatedPaymentRow, SettlementRow, TradeRow } from './transaction-rows.ts';
import { SEARCH_TABLES } from './transactions.ts';

const collection = (row: Partial<CollectionRow> = {}): CollectionRow => ({
  id: 'ee71abf0-841c-4cb4-9a00-5dc15672c842',
  createdAt: '2026-11-16T01:44:12.345Z',
  status: 'pending_approval',
  country: 'KE',
  currency: 'KES',
  amount: '1027453.00000000',
  convertedAmount: '7957.00000000',
  rate: '129.125000000000',
  paymentMethod: 'mobile_money',
  requestSource: '',
  fiatWallet: null,
  sequenceId: 'SEQ-00000042',
  sessionId: null,
  accountNumber: '0712345678',
  accountType: 'phone',
  counterpartyName: 'Wanjiku Njoroge',
  ...row,
});
const settlement = (row: Partial<SettlementRow> = {}): SettlementRow => ({
  id: '0b6f2d8c-1a73-4c2b-9a5e-3f2a9c1e7d41',
  createdAt: '2026-11-16T01:44:12.000Z',
  status: 'complete',
  type: 'payout',
  transactionHash: '0xabc',
  internalWalletAddress: 'TXYZ',
  externalWalletAddress: '0xdef',
  cryptoCurrency: 'USDT',
  cryptoAmount: '8054.62731366',
  network: 'TRC20',
  cryptoRate: '0.999500000000',
  fiatAmountUsd: '8050.60000000',
  walletBalanceUsd: '24151.80000000',
  fiatAmount: '13927538.00000000',
  fiatRate: '1730.000000000000',
  fiatWallet: 'KES',
  sequenceId: 'SET-00000001',
  ...row,
});
const trade = (row: Partial<TradeRow> = {}): TradeRow => ({
  id: '5d9c0c39-4c52-4b8f-8f9e-1e0c2a1b3c4d',
  createdAt: '2026-11-16T01:44:12.000Z',
  tradeId: 'TRD-5F41110478',
  tradeLockedDate: '2026-11-16T01:41:12.000Z',
  status: 'complete',
  country: 'ZM',
  fiatCurrency: 'ZMW',
  cryptoCurrency: 'USDC',
  network: 'POLYGON',
  tradeType: 'sell',
  cryptoTransactionType: 'transfer',
  effectiveRate: '26.235000000000',
  quotedRate: '26.500000000000',
  fee: '79.57000000',
  cryptoAmount: '7957.00000000',
  fiatAmount: '210860.50000000',
  cryptoBought: '0',
  cryptoSold: '7957.00000000',
  fiatSold: '0',
  fiatBought: '208751.90000000',
  fiatWallet: null,
  ...row,
});
const fee = (row: Partial<FeeRow> = {}): FeeRow => ({
  id: '1a2b3c4d-0000-4000-8000-000000000001',
  createdAt: '2026-11-16T01:44:12.000Z',
  transactionId: 'ee71abf0-841c-4cb4-9a00-5dc15672c842',
  transactionType: 'payout',
  paymentMethod: 'bank_transfer',
  amountUsd: '63.91000000',
  fiatWallet: 'NGN',
  ...row,
});
const initiated = (row: Partial<InitiatedPaymentRow> = {}): InitiatedPaymentRow => ({
  id: '1a2b3c4d-0000-4000-8000-000000000002',
  createdAt: '2026-11-16T01:44:12.000Z',
  status: 'refund_processing',
  country: 'NG',
  localCurrency: 'NGN',
  amount: '-12.50000000',
  amountUsd: '-0.01000000',
  paymentMethod: 'bank_transfer',
  recipientName: '=HYPERLINK("http://evil.example","Refund")',
  accountNumber: '0123456789',
  reference: 'INV-000001',
  fiatWallet: null,
  ...row,
});

/** The file as records of header → value (the writer's quoting undone for these simple values). */
function records(csv: string) {
  expect(csv.startsWith('\uFEFF')).toBe(true);
  const [head, ...lines] = csv.slice(1).split('\r\n').filter(Boolean);
  const headers = head!.split(',');
  return lines.map((line) => Object.fromEntries(line.split(',').map((v, i): [string, string] => [headers[i]!, v])));
}

describe('plain decimals', () => {
  it('round half away from zero, drop trailing zeros down to the minimum, and never group thousands', () => {
    expect(plainDecimal('7957.00000000', 2, 2)).toBe('7957.00');
    expect(plainDecimal('8054.627313660000', 2, 8)).toBe('8054.62731366');
    expect(plainDecimal('12', 2, 8)).toBe('12.00');
    expect(plainDecimal('0.005', 2, 2)).toBe('0.01');
    expect(plainDecimal('-1.005', 2, 2)).toBe('-1.01');
    expect(plainDecimal('-0.004', 2, 2)).toBe('0.00');
    expect(plainDecimal('26.235000000000', 2, 2)).toBe('26.24');
    expect(plainDecimal('1.000', 0, 8)).toBe('1');
    expect(plainDecimal('123456789012345678901234.5', 2, 2)).toBe('123456789012345678901234.50');
    // without rounding to do
    expect(plainDecimal('-0.00000000', 2, 2)).toBe('0.00');
    expect(plainDecimal('007.50', 2, 2)).toBe('7.50');
    expect(plainDecimal('-12.50000000', 2, 2)).toBe('-12.50');
    expect(plainDecimal('12.345000000000', 2, 8)).toBe('12.345');
    expect(plainDecimal('5', 0, 8)).toBe('5');
    expect(plainDecimal('0.10000000', 2, 8)).toBe('0.10');
    expect(() => plainDecimal('abc', 2, 2)).toThrow();
  });
});

describe('the file column set', () => {
  it('gives every amount a currency column beside it, in every table, with and without the Wallet column', () => {
    for (const table of SEARCH_TABLES) {
      for (const walletMode of [false, true]) {
        const headers = exportColumns(table, { walletMode }).map((c) => c.header);
        expect(new Set(headers).size, table).toBe(headers.length);
        headers.forEach((h, i) => {
          if (/amount$|^Amount$|^You (sold|received)$|^Fee$|^Wallet balance$/i.test(h)) expect(headers[i + 1], `${table}: ${h}`).toMatch(/currency$/i);
          if (/rate/i.test(h) && !/unit$/.test(h)) expect(headers[i + 1], `${table}: ${h}`).toBe(`${h} unit`);
        });
        expect(
          headers.some((h) => h.endsWith('(UTC)')),
          table,
        ).toBe(true);
        expect(headers.includes('Wallet'), table).toBe(walletMode && table !== 'trades' && table !== 'initiate-payments');
      }
    }
  });

  it('writes payments and collections as the screen shows them: labels, UTC time, plain numbers beside currencies', () => {
    const [row] = records(exportCsv('collections', [collection()], { walletMode: true }));
    expect(row).toEqual({
      ID: 'ee71abf0-841c-4cb4-9a00-5dc15672c842',
      'Created (UTC)': '2026-11-16 01:44:12',
      Country: 'KE',
      Wallet: 'USD',
      Amount: '1027453.00',
      Currency: 'KES',
      Status: 'Pending Approval',
      'Payment Method': 'Momo',
      'Request Source': 'API',
      'Converted amount': '7957.00',
      'Converted currency': 'USD',
      Rate: '129.125',
      'Rate unit': 'KES per USD',
      'Sequence ID': 'SEQ-00000042',
      Counterparty: 'Wanjiku Njoroge',
      'Account number': '0712345678',
      'Account type': 'phone',
      'Session ID': '',
    });
    const [payment] = records(exportCsv('payments', [collection({ paymentMethod: 'bank_transfer', status: 'complete' })], { walletMode: false }));
    expect(payment).not.toHaveProperty('Request Source');
    expect(payment).not.toHaveProperty('Wallet');
    expect(payment).toMatchObject({ 'Payment Method': 'Bank', Status: 'Complete' });
    expect(records(exportCsv('payments', [collection({ status: 'pending_kyc' })], { walletMode: false }))[0]!.Status).toBe('Pending KYC');
  });

  it('writes a settlement with the amount the screen shows (fiat in a local wallet) and the crypto side in its own columns', () => {
    const [local, usdWallet] = records(exportCsv('settlements', [settlement(), settlement({ fiatWallet: 'USD' })], { walletMode: true }));
    expect(local).toMatchObject({
      Wallet: 'KES',
      'Transaction type': 'Pay out',
      Amount: '13927538.00',
      Currency: 'KES',
      'Crypto amount': '8054.62731366',
      'Crypto currency': 'USDT',
      'Fiat amount': '13927538.00',
      'Fiat currency': 'KES',
      'USD amount': '8050.60',
      'USD currency': 'USD',
      'Crypto rate': '0.9995',
      'Crypto rate unit': 'USD per USDT',
      'Fiat rate': '1730.00',
      'Fiat rate unit': 'KES per USD',
    });
    // without a local wallet the screen shows the crypto amount; the fiat amount has no known currency, so it is left out
    expect(usdWallet).toMatchObject({
      Wallet: 'USD',
      Amount: '8054.62731366',
      Currency: 'USDT',
      'Fiat amount': '',
      'Fiat currency': '',
      'Fiat rate': '',
      'Fiat rate unit': '',
    });
    expect(settlementShownAmount(settlement({ fiatAmount: null }))).toEqual({ amount: '0', currency: 'KES', crypto: false });
  });

  it('writes a trade as sold and received amounts with their currencies, the rate with its unit, and the fee with its coin', () => {
    const [sale, purchase] = records(
      exportCsv('trades', [trade(), trade({ tradeType: 'buy', cryptoSold: '0', fiatSold: '210860.50', cryptoBought: '7957.00', fiatBought: '0' })], {
        walletMode: true,
      }),
    );
    expect(sale).toMatchObject({
      'Created (UTC)': '2026-11-16 01:44:12',
      'Trade ID': 'TRD-5F41110478',
      'You sold': '7957.00',
      'You sold currency': 'USDC',
      'You received': '208751.90',
      'You received currency': 'ZMW',
      'Rate including fee': '26.235',
      'Rate including fee unit': 'ZMW per USDC',
      Fee: '79.57',
      'Fee currency': 'USDC',
      'Locked (UTC)': '2026-11-16 01:41:12',
    });
    expect(sale).not.toHaveProperty('Wallet');
    expect(purchase).toMatchObject({ 'You sold': '210860.50', 'You sold currency': 'ZMW', 'You received': '7957.00', 'You received currency': 'USDC' });
    expect(tradeSides(trade()).sold.currency).toBe('USDC');
  });

  it('writes fees in USD and initiated payments in their local currency, neutralising formulas and keeping negative amounts numbers', () => {
    const [f] = records(exportCsv('fees', [fee()], { walletMode: true }));
    expect(f).toMatchObject({ Wallet: 'NGN', Amount: '63.91', Currency: 'USD', 'Transaction Type': 'Pay out', 'Payment Method': 'Bank' });
    const csv = exportCsv('initiate-payments', [initiated()], { walletMode: false });
    expect(csv).toContain(`,"'=HYPERLINK(""http://evil.example"",""Refund"")",-12.50,NGN,Refund Processing,Bank,-0.01,USD,`);
  });

  it('refuses an unknown table', () => {
    expect(() => exportColumns('loans' as never, { walletMode: false })).toThrow('Unsupported transaction type loans');
  });

  it("writes times in the request's zone under headers that name it (UTC by default)", () => {
    const [utc] = records(exportCsv('trades', [trade()], { walletMode: false }));
    expect(utc).toMatchObject({ 'Created (UTC)': '2026-11-16 01:44:12', 'Locked (UTC)': '2026-11-16 01:41:12' });
    const [nairobi] = records(exportCsv('trades', [trade()], { walletMode: false, timeZone: 'Africa/Nairobi' }));
    expect(nairobi).toMatchObject({ 'Created (Africa/Nairobi)': '2026-11-16 04:44:12', 'Locked (Africa/Nairobi)': '2026-11-16 04:41:12' });
    expect(Object.keys(nairobi!).some((h) => h.includes('(UTC)'))).toBe(false);
    // New York in summer (EDT, UTC-4) and in winter (EST, UTC-5)
    const [summer] = records(exportCsv('fees', [fee({ createdAt: '2026-07-01T12:00:00.000Z' })], { walletMode: false, timeZone: 'America/New_York' }));
    expect(summer!['Created (America/New_York)']).toBe('2026-07-01 08:00:00');
    const [winter] = records(exportCsv('fees', [fee({ createdAt: '2026-12-01T12:00:00.000Z' })], { walletMode: false, timeZone: 'America/New_York' }));
    expect(winter!['Created (America/New_York)']).toBe('2026-12-01 07:00:00');
  });
});
