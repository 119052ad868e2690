import { afterEach, describe, expect, it } from 'vitest';
import { ANALYTICS_RANGE_MESSAGE, OUTCOME_STATUSES } from '@portal/contract/analytics';
import { REVERSED_RANGE_MESSAGE } from '@portal/contract/transactions';
import { setLanguage } from '../../lib/i18n.ts';
import { analyticsReply } from '../../testing/factories.ts';
import { changeOf, changeText, formatDuration } from './format.ts';
import { corridorLink, stepDays, volumeLink } from './links.ts';
import { periodDays, readControls, recentMonths } from './period.ts';
import { analyticsQuery } from './query.ts';

const TODAY = '2026-11-30';
const controls = (query: string) => readControls(new URLSearchParams(query), TODAY);
/** The search parameters of a link, as an object. */
const paramsOf = (link: string) => Object.fromEntries(new URL(link, 'https://portal.test').searchParams);

describe("the Overview's period", () => {
  it('is the last 30 days unless the address says otherwise; what it holds wrong is the default', () => {
    expect(controls('')).toEqual({ period: '30d', month: '2026-11', from: '', to: '', wallet: 'all' });
    expect(controls('period=yearly&month=2027-01&from=2026-1-1&wallet=NGN')).toEqual({
      period: '30d',
      month: '2026-11',
      from: '',
      to: '',
      wallet: 'NGN',
    });
  });

  it.each([
    ['', { from: '2026-11-01', to: TODAY }],
    ['period=today', { from: TODAY, to: TODAY }],
    ['period=7d', { from: '2026-11-24', to: TODAY }],
    ['period=month&month=2026-02', { from: '2026-02-01', to: '2026-02-28' }],
    ['period=month&month=2024-02', { from: '2024-02-01', to: '2024-02-29' }],
    // this month runs to today
    ['period=month', { from: '2026-11-01', to: TODAY }],
    ['period=custom&from=2026-03-05&to=2026-04-01', { from: '2026-03-05', to: '2026-04-01' }],
  ])('%s: the days of the period, today in the zone included', (query, days) => {
    expect(periodDays(controls(query), TODAY)).toEqual(days);
  });

  it('offers this month and the 23 before it, newest first', () => {
    const months = recentMonths(TODAY);
    expect(months).toHaveLength(24);
    expect(months.slice(0, 3)).toEqual(['2026-11', '2026-10', '2026-09']);
    expect(months.at(-1)).toBe('2024-12');
  });
});

describe("the Overview's query", () => {
  afterEach(() => setLanguage('en'));

  it('asks for the days of the period in the zone in force, with the wallet', () => {
    expect(analyticsQuery(controls('period=7d&wallet=NGN'), TODAY, 'Africa/Lagos')).toEqual({
      query: { from: '2026-11-24', to: TODAY, wallet: 'NGN', timeZone: 'Africa/Lagos' },
    });
  });

  it("asks nothing for a custom period that is reversed or longer than a year, and says why in the contract's words", async () => {
    expect(analyticsQuery(controls('period=custom&from=2026-03-02&to=2026-03-01'), TODAY, 'UTC')).toEqual({ invalid: REVERSED_RANGE_MESSAGE });
    expect(analyticsQuery(controls('period=custom&from=2025-01-01&to=2026-01-02'), TODAY, 'UTC')).toEqual({ invalid: ANALYTICS_RANGE_MESSAGE });
    // 366 days (a leap year) is the most
    expect(analyticsQuery(controls('period=custom&from=2024-01-01&to=2024-12-31'), TODAY, 'UTC').query).toBeDefined();
    // a day missing: nothing to say yet
    expect(analyticsQuery(controls('period=custom&from=2026-03-02'), TODAY, 'UTC')).toEqual({ invalid: null });
    await setLanguage('fr');
    expect(analyticsQuery(controls('period=custom&from=2025-01-01&to=2026-01-02'), TODAY, 'UTC').invalid).toBe('Choisissez une période d’au plus 366 jours.');
  });
});

describe("the Overview's links", () => {
  const scope = { from: '2026-11-01', to: '2026-11-30', wallet: 'NGN' };

  it("open a type's table on its succeeded rows of the days and wallet", () => {
    const link = volumeLink('settlements', scope);
    expect(link.startsWith('/transactions?')).toBe(true);
    expect(paramsOf(link)).toEqual({ tab: '3', status: OUTCOME_STATUSES.succeeded.join(','), from: '2026-11-01', to: '2026-11-30', wallet: 'NGN' });
    expect(paramsOf(volumeLink('collections', { ...scope, wallet: 'all' }))).toEqual({
      tab: '2',
      status: 'complete,settlement_complete',
      from: '2026-11-01',
      to: '2026-11-30',
    });
  });

  it('open the combined tab for collections and payments, narrowed by outcome, country, payment method and type', () => {
    expect(paramsOf(corridorLink(scope, 'failed', { country: 'KE' }))).toEqual({
      tab: '5',
      status: OUTCOME_STATUSES.failed.join(','),
      country: 'KE',
      from: '2026-11-01',
      to: '2026-11-30',
      wallet: 'NGN',
    });
    expect(paramsOf(corridorLink(scope, undefined, { paymentMethod: 'mobile_money', transactionType: 'topup' }))).toEqual({
      tab: '5',
      paymentMethod: 'mobile_money',
      transactionType: 'topup',
      from: '2026-11-01',
      to: '2026-11-30',
      wallet: 'NGN',
    });
  });

  it("give each step its days: its own for days and hours, a month's up to the next step (the period's end for the last)", () => {
    expect(stepDays(analyticsReply())).toEqual([
      { from: '2026-11-01', to: '2026-11-01' },
      { from: '2026-11-02', to: '2026-11-02' },
      { from: '2026-11-03', to: '2026-11-03' },
    ]);
    const months = analyticsReply({
      bucket: 'month',
      period: { from: '2026-01-15', to: '2026-03-10', previousFrom: '2025-11-20', previousTo: '2026-01-14', timeZone: 'UTC' },
      series: ['2026-01-15', '2026-02-01', '2026-03-01'].map((day) => ({ ...analyticsReply().series[0]!, start: `${day}T00:00:00.000Z`, day })),
    });
    expect(stepDays(months)).toEqual([
      { from: '2026-01-15', to: '2026-01-31' },
      { from: '2026-02-01', to: '2026-02-28' },
      { from: '2026-03-01', to: '2026-03-10' },
    ]);
  });
});

describe("the Overview's words for figures", () => {
  afterEach(() => setLanguage('en'));

  it.each([
    [0, '0 s'],
    [45, '45 s'],
    [240, '4 min'],
    [3599, '1 h'],
    [7800, '2 h 10 min'],
    [86_400, '1 d'],
    [97_200, '1 d 3 h'],
  ])('writes %i seconds as %s', (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });

  it('writes durations in French', async () => {
    await setLanguage('fr');
    expect(formatDuration(97_200)).toBe('1 j 3 h');
    expect(formatDuration(7800)).toBe('2 h 10 min');
  });

  it('says how a figure moved against the period before', async () => {
    expect(changeText(changeOf(123.45, 100))).toBe('Up 23.5%');
    expect(changeText(changeOf(90, 100))).toBe('Down 10.0%');
    expect(changeText(changeOf(100, 100))).toBe('No change');
    expect(changeText(changeOf(5, 0))).toBe('New this period');
    expect(changeText(changeOf(0, 0))).toBe('None in either period');
    await setLanguage('fr');
    expect(changeText(changeOf(123.45, 100))).toBe('En hausse de 23,5\u202f%');
  });
});
