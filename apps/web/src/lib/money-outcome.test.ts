import { describe, expect, it } from 'vitest';
import { TRANSACTION_STATUSES } from '@portal/contract/domain';
import { moneyOutcome, type Movement } from './money-outcome.ts';
import { inFrench } from '../testing/french.ts';

const collection = (status: string): Movement => ({
  kind: 'collection',
  status,
  amount: '2077.50',
  currency: 'KES',
  balanceUsd: '16.11',
  amountUsd: '16.34',
  feeUsd: '0.23',
});
const disbursement = (status: string): Movement => ({
  kind: 'disbursement',
  status,
  amount: '1547.00',
  currency: 'KES',
  balanceUsd: '12.00',
  amountUsd: '11.77',
  feeUsd: '0.23',
});
const CREDITED = new Set(['complete', 'settlement_complete', 'pending_refund', 'refund_processing', 'refund_failed']);
const text = (m: Movement) => {
  const o = moneyOutcome(m);
  return [o.summary, ...o.lines.flatMap((l) => [l.label, l.value])].join(' | ');
};

describe('what a state moved, for every status', () => {
  it.each(TRANSACTION_STATUSES)('a collection %s says credited only once the payer paid, and shows the instructions only while awaiting payment', (status) => {
    const o = moneyOutcome(collection(status));
    const said = text(collection(status));
    expect(o.lines.length).toBeGreaterThan(0);
    expect(said.includes('Credited to your balance | USD 16.11')).toBe(CREDITED.has(status));
    expect(o.payerInstructions).toBe(status === 'created' || status === 'pending');
    // every amount carries its currency
    for (const l of o.lines) if (/\d/.test(l.value)) expect(l.value).toMatch(/^(USD|KES) [\d,]+\.\d\d$/);
  });
  it.each(TRANSACTION_STATUSES)('a disbursement %s never shows the payer instructions and always says where the reserved money is', (status) => {
    const o = moneyOutcome(disbursement(status));
    expect(o.payerInstructions).toBe(false);
    expect(text(disbursement(status))).toMatch(/USD 12\.00|USD 11\.77/);
    for (const l of o.lines) if (/\d/.test(l.value)) expect(l.value).toMatch(/^(USD|KES) [\d,]+\.\d\d$/);
  });
  it.each(TRANSACTION_STATUSES)('a withdrawal and a deposit %s have words', (status) => {
    for (const kind of ['withdrawal', 'deposit'] as const) {
      expect(moneyOutcome({ kind, status, amount: '25.00', currency: 'USD', balanceUsd: '25.00' }).summary).not.toBe('');
    }
  });
});

describe('the wording of each outcome', () => {
  it('a failed, expired or denied collection credited nothing', () => {
    for (const s of ['failed', 'expired', 'denied']) {
      expect(moneyOutcome(collection(s)).lines).toEqual([{ label: 'Your balance', value: 'Nothing was credited' }]);
    }
  });
  it('a collection awaiting payment credited nothing yet and says what it will credit', () => {
    expect(moneyOutcome(collection('pending')).lines).toEqual([
      { label: 'Your balance', value: 'Nothing credited yet' },
      { label: 'Credited once the payer pays', value: 'USD 16.11' },
    ]);
  });
  it('a refunded collection: refunded to the payer in the local currency, the amount taken back, the fee kept', () => {
    const o = moneyOutcome(collection('refunded'));
    expect(o.summary).toBe('Refunded to the payer: KES 2,077.50.');
    expect(o.lines).toEqual([
      { label: 'Refunded to the payer', value: 'KES 2,077.50' },
      { label: 'Taken back from your balance', value: 'USD 16.34' },
      { label: 'Fee kept', value: 'USD 0.23' },
    ]);
  });
  it('a disbursement: reserved while under way, returned whole when it failed, the amount returned when refunded', () => {
    expect(moneyOutcome(disbursement('processing')).summary).toBe('USD 12.00 reserved from your balance. Nothing has reached the recipient yet.');
    expect(moneyOutcome(disbursement('failed')).lines).toEqual([
      { label: 'Paid to the recipient', value: 'Nothing was sent' },
      { label: 'Returned to your balance', value: 'USD 12.00' },
    ]);
    expect(moneyOutcome(disbursement('complete')).lines).toEqual([
      { label: 'Taken from your balance', value: 'USD 12.00' },
      { label: 'Paid to the recipient', value: 'KES 1,547.00' },
    ]);
    expect(moneyOutcome(disbursement('refunded')).lines).toContainEqual({ label: 'Returned to your balance', value: 'USD 11.77' });
  });
  it('a withdrawal: reserved while pending, returned when it failed', () => {
    const w = (status: string) => moneyOutcome({ kind: 'withdrawal', status, amount: '25.00', currency: 'USD', balanceUsd: '25.00' });
    expect(w('pending').lines).toEqual([{ label: 'Reserved from your balance', value: 'USD 25.00' }]);
    expect(w('failed').lines).toEqual([{ label: 'Returned to your balance', value: 'USD 25.00' }]);
    expect(w('complete').lines).toEqual([{ label: 'Taken from your balance', value: 'USD 25.00' }]);
  });
});

describe('what a state moved, in French', () => {
  inFrench();

  it('says it in French, each amount written as French writes it', async () => {
    const refunded = moneyOutcome(collection('refunded'));
    expect(refunded.summary).toBe('Remboursé au payeur\u00a0: 2\u202f077,50\u00a0KES.');
    expect(refunded.lines).toEqual([
      { label: 'Remboursé au payeur', value: '2\u202f077,50\u00a0KES' },
      { label: 'Repris sur votre solde', value: '16,34\u00a0USD' },
      { label: 'Frais conservés', value: '0,23\u00a0USD' },
    ]);
    expect(moneyOutcome(disbursement('processing')).summary).toBe(
      'Montant réservé sur votre solde\u00a0: 12,00\u00a0USD. Rien n’est encore parvenu au bénéficiaire.',
    );
  });
});
