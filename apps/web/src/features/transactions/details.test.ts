import { describe, expect, it } from 'vitest';
import { payments, settlement } from '../../testing/factories.ts';
import type { TradeRow } from '@portal/contract/transaction-rows';
import { detailSections, explorerUrl } from './details.ts';
import { shortId, tabByIndex, tradeFee, tradeRate, TRADES, type Row } from './tables.ts';

const trade: TradeRow = {
  id: '5f411104-78aa-4bbb-8ccc-000000000001',
  createdAt: '2026-11-16T01:44:00.000Z',
  tradeId: 'TRD-5F41110478',
  tradeLockedDate: '2026-11-16T01:41:00.000Z',
  status: 'complete',
  country: 'ZM',
  fiatCurrency: 'ZMW',
  cryptoCurrency: 'USDC',
  network: 'POLYGON',
  tradeType: 'sell',
  cryptoTransactionType: 'withdrawal',
  effectiveRate: '26.235000000000',
  quotedRate: '26.500000000000',
  fee: '79.57000000',
  cryptoAmount: '7957.00000000',
  fiatAmount: '210860.50',
  cryptoBought: '0',
  cryptoSold: '7957.00000000',
  fiatSold: '0',
  fiatBought: '208748.89',
  fiatWallet: null,
};

describe('block explorer links', () => {
  it("link a hash to its network's explorer", () => {
    expect(explorerUrl('TRC20', 'abc')).toBe('https://tronscan.org/#/transaction/abc');
    expect(explorerUrl('ERC20', '0x1')).toBe('https://etherscan.io/tx/0x1');
    expect(explorerUrl('POLYGON', '0x1')).toBe('https://polygonscan.com/tx/0x1');
    expect(explorerUrl('SOL', 's')).toBe('https://solscan.io/tx/s');
    expect(explorerUrl('XLM', 'x')).toBe('https://stellar.expert/explorer/public/tx/x');
    expect(explorerUrl('CELO', '0x1')).toBe('https://celoscan.io/tx/0x1');
    expect(explorerUrl('base', '0x1')).toBe('https://basescan.org/tx/0x1');
    expect(explorerUrl('UNKNOWN', '0x1')).toBeUndefined();
    expect(explorerUrl('TRC20', null)).toBeUndefined();
  });
});

describe('details', () => {
  it("of a settlement: grouped, formatted, the chain's hash linked and copyable", () => {
    const sections = detailSections(
      'settlements',
      settlement({
        transactionHash: 'ab'.repeat(32),
        network: 'ERC20',
        fiatWallet: 'NGN',
        fiatAmount: '1550.00',
        fiatRate: '1550.000000000000',
        cryptoAmount: '1.00050025',
      }),
    );
    expect(sections.map((s) => s.title)).toEqual(['Summary', 'Amounts', 'Chain']);
    const all = Object.fromEntries(sections.flatMap((s) => s.fields).map((f) => [f.label, f]));
    expect(all['Crypto amount']!.value).toBe('USDT 1.00050025');
    expect(all['Crypto rate']!.value).toBe('1 USDT = 0.9995 USD');
    expect(all['Wallet amount']!.value).toBe('NGN 1,550.00');
    expect(all['Wallet rate']!.value).toBe('1 USD = 1,550.00 NGN');
    expect(all['Status']).toMatchObject({ value: 'Complete', status: 'complete' });
    expect(all['Date']!.value).toBe('Nov 20, 2026, 12:00 UTC');
    expect(all['Network']!.value).toBe('Ethereum (ERC20)');
    expect(all['Transaction hash']).toMatchObject({ copy: true, href: `https://etherscan.io/tx/${'ab'.repeat(32)}` });
    expect(all['External wallet address']!.copy).toBe(true);
  });
  it("of a row of the All tab: a payment's (its recipient) or a collection's (its sender and request source), as its type says", () => {
    const [row] = payments(1);
    const fields = (transactionType: 'payout' | 'topup') =>
      Object.fromEntries(
        detailSections('all', { ...row!, requestSource: 'portal', transactionType })
          .flatMap((s) => s.fields)
          .map((f) => [f.label, f.value]),
      );
    const payout = fields('payout');
    expect(payout['Recipient']).toBe('Adaeze Okafor');
    expect(payout['Sender']).toBeUndefined();
    expect(payout['Request source']).toBeUndefined();
    const topup = fields('topup');
    expect(topup['Sender']).toBe('Adaeze Okafor');
    expect(topup['Recipient']).toBeUndefined();
    expect(topup['Request source']).toBe('Portal');
  });
  it('of a trade: the rate as "1 USDC = 26.24 ZMW" and the fee with its currency', () => {
    const all = Object.fromEntries(
      detailSections('trades', trade)
        .flatMap((s) => s.fields)
        .map((f) => [f.label, f.value]),
    );
    expect(all['Rate including fee']).toBe('1 USDC = 26.24 ZMW');
    expect(all['Fee']).toBe('USDC 79.57');
    expect(all['You sold']).toBe('USDC 7,957.00');
    expect(all['You received']).toBe('ZMW 208,748.89');
    expect(tradeRate(trade)).toBe('1 USDC = 26.24 ZMW');
    expect(tradeFee(trade)).toBe('Fee USDC 79.57');
  });
});

describe('a fee', () => {
  const charged = {
    id: '00000000-0000-4000-8000-0000000000f1',
    createdAt: '2026-11-21T17:40:00.000Z',
    transactionId: '00000000-0000-4000-8000-0000000000a1',
    transactionType: 'payout',
    paymentMethod: 'mobile_money',
    amountUsd: '103.69000000',
    fiatWallet: 'USD',
  };
  const fields = (amountUsd: string) =>
    Object.fromEntries(
      detailSections('fees', { ...charged, amountUsd })
        .flatMap((s) => s.fields)
        .map((f) => [f.label, f.value]),
    );
  it('taken shows its amount and the transaction type; given back, minus the amount and that it was returned, in the table too', () => {
    expect(fields('103.69000000')).toMatchObject({ Amount: 'USD 103.69', 'Transaction type': 'Pay out' });
    expect(fields('-103.69000000')).toMatchObject({ Amount: '−USD 103.69', 'Transaction type': 'Pay out: fee returned' });
    const columns = tabByIndex(4).columns(true);
    const returned = { ...charged, amountUsd: '-103.69000000' } as Row;
    expect(columns.map((c) => c.cell(returned))).toContain('−USD 103.69');
    expect(columns.map((c) => c.cell(returned))).toContain('Pay out: fee returned');
  });
});

describe('ids', () => {
  it('are cut the same way in every table: a uuid to 8 characters, a short trade id whole', () => {
    expect(shortId('5f411104-78aa-4bbb-8ccc-000000000001')).toBe('5f411104…');
    expect(shortId('TRD-5F41110478')).toBe('TRD-5F41110478');
    const idColumn = TRADES.columns(false).find((c) => c.kind === 'id')!;
    expect(idColumn.cell(trade)).toBe('TRD-5F41110478');
    expect(idColumn.value!(trade)).toBe('TRD-5F41110478');
    expect(TRADES.filters().map((c) => c.name)).toEqual(['Country of Trade', 'Cryptocurrency', 'Local Currency', 'Amount']);
  });
});
