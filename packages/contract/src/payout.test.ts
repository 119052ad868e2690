import { describe, expect, it } from 'vitest';
import {
  LowBalanceLimitForm,
  MANUAL_PAYOUT,
  lowBalanceLimitProblem,
  endSummary,
  nextPayoutDate,
  repeatLine,
  normalisePayoutConfig,
  payoutConfigProblem,
  repeatSummary,
  type PayoutConfig,
} from './payout.ts';

const auto = (over: Partial<PayoutConfig>): PayoutConfig => ({ ...MANUAL_PAYOUT, type: 'AUTOMATED', frequency: 'Daily', endPayout: 'Never', ...over });

describe('payout rules', () => {
  it('allow manual and a complete daily schedule', () => {
    expect(payoutConfigProblem(MANUAL_PAYOUT)).toBeUndefined();
    expect(payoutConfigProblem(auto({}))).toBeUndefined();
  });
  it('name the broken rule', () => {
    expect(payoutConfigProblem(auto({ frequency: null }))).toBe('Choose how often payouts happen.');
    expect(payoutConfigProblem(auto({ frequency: 'Weekly' }))).toBe('A weekly schedule needs at least one day.');
    expect(payoutConfigProblem(auto({ frequency: 'Monthly' }))).toBe('A monthly schedule needs a date of the month.');
    expect(payoutConfigProblem(auto({ frequency: 'Yearly' }))).toBe('A yearly schedule needs a month and a day.');
    expect(payoutConfigProblem(auto({ frequency: 'Yearly', yearlyDate: { month: 4, day: 31 } }))).toBe('April has no day 31.');
    expect(payoutConfigProblem(auto({ endPayout: null }))).toBe('Choose when payouts end.');
    expect(payoutConfigProblem(auto({ endPayout: 'After Payouts' }))).toBe('Say after how many payouts the schedule ends.');
    expect(payoutConfigProblem(auto({ endPayout: 'On' }))).toBe('Choose the date on which payouts end.');
    expect(payoutConfigProblem(auto({ frequency: 'Weekly', weeklyDays: ['Monday'], endPayout: 'After Payouts', endPayoutAfter: 3 }))).toBeUndefined();
  });
  it('clear every schedule field for a manual type, and fields that do not apply', () => {
    expect(normalisePayoutConfig({ ...auto({ frequency: 'Weekly', weeklyDays: ['Friday'] }), type: 'MANUAL' })).toEqual(MANUAL_PAYOUT);
    const n = normalisePayoutConfig(auto({ frequency: 'Monthly', monthlyDate: 5, weeklyDays: ['Friday'], endPayout: 'Never', endPayoutAfter: 4 }));
    expect(n.weeklyDays).toEqual([]);
    expect(n.endPayoutAfter).toBeNull();
    expect(normalisePayoutConfig(auto({ frequency: 'Weekly', weeklyDays: ['Friday', 'Monday'] })).weeklyDays).toEqual(['Monday', 'Friday']);
  });
});

describe('payout summaries', () => {
  it('repeat: daily nothing, weekly days, monthly date, yearly month then day', () => {
    expect(repeatSummary(auto({}))).toBe('');
    expect(repeatSummary(auto({ frequency: 'Weekly', weeklyDays: ['Monday', 'Thursday'] }))).toBe('Monday, Thursday');
    expect(repeatSummary(auto({ frequency: 'Monthly', monthlyDate: 15 }))).toBe('15');
    expect(repeatSummary(auto({ frequency: 'Yearly', yearlyDate: { month: 3, day: 9 } }))).toBe('March 9');
  });
  it("end: 'After N Payouts', 'Never' (with the capital of the other summaries), 'On {date}'", () => {
    expect(endSummary(auto({ endPayout: 'After Payouts', endPayoutAfter: 6 }))).toBe('After 6 Payouts');
    expect(endSummary(auto({ endPayout: 'Never' }))).toBe('Never');
    expect(endSummary(auto({ endPayout: 'On', endPayoutDate: '2027-01-31' }))).toBe('On 2027-01-31');
  });
});

describe('the repeat line', () => {
  it('names the frequency, and the repeat frequency when above 1', () => {
    expect(repeatLine(auto({}))).toBe('Daily');
    expect(repeatLine(auto({ repeatFrequency: 1, frequency: 'Weekly', weeklyDays: ['Monday', 'Thursday'] }))).toBe('Weekly: Monday, Thursday');
    expect(repeatLine(auto({ repeatFrequency: 2, frequency: 'Weekly', weeklyDays: ['Monday', 'Thursday'] }))).toBe('Every 2 weeks: Monday, Thursday');
    expect(repeatLine(auto({ repeatFrequency: 3 }))).toBe('Every 3 days');
    expect(repeatLine(auto({ repeatFrequency: 6, frequency: 'Monthly', monthlyDate: 15 }))).toBe('Every 6 months: 15');
    expect(repeatLine(MANUAL_PAYOUT)).toBe('');
  });
});

describe('next payout date', () => {
  const from = new Date('2026-01-30T15:00:00Z'); // a Friday
  it('daily: tomorrow; weekly: the next chosen weekday', () => {
    expect(nextPayoutDate(auto({}), from)).toBe('2026-01-31');
    expect(nextPayoutDate(auto({ frequency: 'Weekly', weeklyDays: ['Monday'] }), from)).toBe('2026-02-02');
    expect(nextPayoutDate(auto({ frequency: 'Weekly', weeklyDays: ['Friday'] }), from)).toBe('2026-02-06');
  });
  it('monthly 29-31 fall back to the last day of a shorter month', () => {
    expect(nextPayoutDate(auto({ frequency: 'Monthly', monthlyDate: 31 }), from)).toBe('2026-01-31');
    expect(nextPayoutDate(auto({ frequency: 'Monthly', monthlyDate: 30 }), from)).toBe('2026-02-28');
    expect(nextPayoutDate(auto({ frequency: 'Monthly', monthlyDate: 29 }), new Date('2028-02-01T00:00:00Z'))).toBe('2028-02-29');
    expect(nextPayoutDate(auto({ frequency: 'Monthly', monthlyDate: 31 }), new Date('2026-04-02T00:00:00Z'))).toBe('2026-04-30');
  });
  it('yearly, 29 February waiting for a leap year, and none past an end date or for manual', () => {
    expect(nextPayoutDate(auto({ frequency: 'Yearly', yearlyDate: { month: 1, day: 15 } }), from)).toBe('2027-01-15');
    expect(nextPayoutDate(auto({ frequency: 'Yearly', yearlyDate: { month: 2, day: 29 } }), from)).toBe('2028-02-29');
    expect(nextPayoutDate(auto({ endPayout: 'On', endPayoutDate: '2026-01-30' }), from)).toBeNull();
    expect(nextPayoutDate(MANUAL_PAYOUT, from)).toBeNull();
  });
  it('with a repeat frequency, counts every N days, weeks, months or years from the first payout after the save', () => {
    const saved = new Date('2026-01-05T09:00:00Z'); // a Monday
    // every 2 days from Tuesday 6 January: ..., 28, 30 January, 1 February
    expect(nextPayoutDate(auto({ repeatFrequency: 2 }), from, saved)).toBe('2026-02-01');
    expect(nextPayoutDate(auto({ repeatFrequency: 2 }), new Date('2026-01-29T10:00:00Z'), saved)).toBe('2026-01-30');
    expect(nextPayoutDate(auto({ repeatFrequency: 2 }), new Date('2026-02-01T10:00:00Z'), saved)).toBe('2026-02-03');
    // every 2 weeks on Monday and Thursday from the week of 5 January (first payout Thursday 8): weeks of 19 Jan, 2 Feb
    const fortnightly = auto({ repeatFrequency: 2, frequency: 'Weekly', weeklyDays: ['Monday', 'Thursday'] });
    expect(nextPayoutDate(fortnightly, saved, saved)).toBe('2026-01-08');
    expect(nextPayoutDate(fortnightly, new Date('2026-01-08T12:00:00Z'), saved)).toBe('2026-01-19');
    expect(nextPayoutDate(fortnightly, from, saved)).toBe('2026-02-02');
    expect(nextPayoutDate(fortnightly, new Date('2026-02-02T12:00:00Z'), saved)).toBe('2026-02-05');
    expect(nextPayoutDate(fortnightly, new Date('2026-02-05T12:00:00Z'), saved)).toBe('2026-02-16');
    // every 3 months on the 31st, from January: January, April (30), July
    const quarterly = auto({ repeatFrequency: 3, frequency: 'Monthly', monthlyDate: 31 });
    expect(nextPayoutDate(quarterly, from, saved)).toBe('2026-01-31');
    expect(nextPayoutDate(quarterly, new Date('2026-02-01T00:00:00Z'), saved)).toBe('2026-04-30');
    expect(nextPayoutDate(quarterly, new Date('2026-05-01T00:00:00Z'), saved)).toBe('2026-07-31');
    // every 2 years on 15 January, from 2026: 2028
    expect(nextPayoutDate(auto({ repeatFrequency: 2, frequency: 'Yearly', yearlyDate: { month: 1, day: 15 } }), from, saved)).toBe('2028-01-15');
    // without a save date: as if saved now, the first payout is the next one
    expect(nextPayoutDate(fortnightly, from)).toBe('2026-02-02');
  });
  it('with a repeat of 1, the same dates whatever the save date', () => {
    const saved = new Date('2025-03-17T00:00:00Z');
    for (const c of [
      auto({ repeatFrequency: 1 }),
      auto({ repeatFrequency: 1, frequency: 'Weekly', weeklyDays: ['Monday'] }),
      auto({ repeatFrequency: 1, frequency: 'Monthly', monthlyDate: 30 }),
    ]) {
      expect(nextPayoutDate(c, from, saved)).toBe(nextPayoutDate(c, from));
    }
  });
});

describe('the low-balance limit', () => {
  it.each([
    ['-5', 'Invalid low balance limit value: the limit must be above zero.'],
    ['0.001', 'Invalid low balance limit value: use at most 2 decimals (cents).'],
    ['abc', 'Invalid low balance limit value: enter a number, like 1000 or 2500.50.'],
    ['', 'Invalid low balance limit value: enter an amount in USD.'],
    ['0', 'Invalid low balance limit value: the limit must be above zero.'],
    ['1e5', 'Invalid low balance limit value: enter a number, like 1000 or 2500.50.'],
    ['.', 'Invalid low balance limit value: enter a number, like 1000 or 2500.50.'],
    ['1234567890123456', 'Invalid low balance limit value: the limit is too large.'],
  ])('refuses what the settings form once let through, each with its reason: %j', (limit, reason) => {
    expect(lowBalanceLimitProblem(limit)).toBe(reason);
  });

  it.each([
    ['1,000.50', '1000.50'],
    [' 0750 ', '750'],
    ['0.5', '0.5'],
  ])('accepts an amount in USD, with separators, and sends it plainly: %j', (typed, sent) => {
    expect(LowBalanceLimitForm.parse({ lowBalanceLimit: typed })).toEqual({ lowBalanceLimit: sent });
  });

  it('refuses a negative amount in the form', () => {
    expect(LowBalanceLimitForm.safeParse({ lowBalanceLimit: '-5' }).success).toBe(false);
  });
});
