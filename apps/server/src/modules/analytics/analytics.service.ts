import type { Kysely } from 'kysely';
import {
  ANALYTICS_KINDS,
  OUTCOME_STATUSES,
  bucketOf,
  daysBetween,
  type AnalyticsKind,
  type AnalyticsQuery,
  type AnalyticsReply,
  type Volume,
} from '@portal/contract/analytics';
import { addDecimal, normalise } from '@portal/contract/decimal';
import { DEFAULT_FIAT_WALLET } from '@portal/contract/fiat-wallets';
import { dayInZone, dayStartInZone } from '@portal/contract/time-zone';
import type { DB } from '../../db/schema.ts';
import type { Ledger } from '../ledger/index.ts';
import { breakdowns, completionTimes, stepTotals, type BreakdownRow, type Scope } from './analytics.repository.ts';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** The calendar day `n` days after `day` (before, for a negative n). */
export const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
/** The first day of the month after the one `day` is in. */
const nextMonth = (day: string) => {
  const d = new Date(`${day.slice(0, 7)}-01T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + 1);
  return d.toISOString().slice(0, 10);
};

/**
 * The period before [from, to]: the month before when the period is a whole calendar month, else as many days just
 * before it.
 */
export function previousPeriod(from: string, to: string): { from: string; to: string } {
  if (from.endsWith('-01') && addDays(to, 1) === nextMonth(from)) {
    const end = addDays(from, -1);
    return { from: `${end.slice(0, 7)}-01`, to: end };
  }
  const days = daysBetween(from, to);
  return { from: addDays(from, -days), to: addDays(from, -1) };
}

/**
 * The instants that cut [from, to] (days in `zone`) into the chart's steps, ascending, the last being the end of
 * `to`: hours for one day (23 or 25 on a change of clocks), days, or months (the first and last may be partial).
 */
export function stepBounds(from: string, to: string, zone: string): Date[] {
  const bucket = bucketOf(daysBetween(from, to));
  const end = dayStartInZone(addDays(to, 1), zone);
  const bounds: Date[] = [];
  if (bucket === 'hour') {
    for (let t = dayStartInZone(from, zone).getTime(); t < end.getTime(); t += HOUR_MS) bounds.push(new Date(t));
  } else if (bucket === 'day') {
    for (let d = from; d <= to; d = addDays(d, 1)) bounds.push(dayStartInZone(d, zone));
  } else {
    for (let d = from; d <= to; d = nextMonth(d)) bounds.push(dayStartInZone(d, zone));
  }
  bounds.push(end);
  return bounds;
}

export type AnalyticsDeps = {
  /** where the figures are read: the reader the transaction searches use, so that both show the same rows */
  read: () => Promise<Kysely<DB>>;
  ledger: Pick<Ledger, 'history'>;
};

const emptyVolume = (): Volume => ({ count: 0, amount: '0.00' });
const money = (v: string) => normalise(v, 2);

/** The Overview's figures (GET partner/analytics) of the caller's partner, from the rows its tables show. */
export function createAnalyticsService(deps: AnalyticsDeps) {
  return {
    async overview(partnerId: string, q: AnalyticsQuery): Promise<AnalyticsReply> {
      const zone = q.timeZone;
      const previous = previousPeriod(q.from, q.to);
      const bounds = stepBounds(q.from, q.to, zone);
      const previousFrom = dayStartInZone(previous.from, zone);
      const from = bounds[0]!;
      const to = bounds.at(-1)!;
      const currency = q.wallet === 'all' ? DEFAULT_FIAT_WALLET.currency : q.wallet;
      const scope: Scope = { partnerId, from, to, wallet: q.wallet, succeeded: OUTCOME_STATUSES.succeeded, failed: OUTCOME_STATUSES.failed };

      const db = await deps.read();
      const { steps, parts, completion } = await db
        .transaction()
        .setIsolationLevel('repeatable read')
        .execute(async (trx) => ({
          // step 1 is the previous period, then the chart's steps
          steps: await stepTotals(trx, { ...scope, from: previousFrom }, [previousFrom, ...bounds]),
          parts: await breakdowns(trx, scope),
          completion: await completionTimes(trx, scope),
        }));
      const balance = await deps.ledger.history(partnerId, currency, bounds.slice(1));

      const totals = Object.fromEntries(ANALYTICS_KINDS.map((k) => [k, { current: emptyVolume(), previous: emptyVolume() }])) as AnalyticsReply['totals'];
      const series: AnalyticsReply['series'] = bounds.slice(0, -1).map((start) => ({
        start: start.toISOString(),
        day: dayInZone(start, zone),
        volumes: Object.fromEntries(ANALYTICS_KINDS.map((k) => [k, emptyVolume()])) as Record<AnalyticsKind, Volume>,
        success: { succeeded: 0, finished: 0 },
      }));
      const add = (v: Volume, n: number, amount: string) => {
        v.count += n;
        v.amount = money(addDecimal(v.amount, amount));
      };
      for (const r of steps) {
        const kind = r.kind as AnalyticsKind;
        if (r.step === 1) {
          add(totals[kind].previous, r.succeeded, r.amount);
          continue;
        }
        const point = series[r.step - 2];
        if (!point) continue;
        add(point.volumes[kind], r.succeeded, r.amount);
        add(totals[kind].current, r.succeeded, r.amount);
        if (kind !== 'settlements') {
          point.success.succeeded += r.succeeded;
          point.success.finished += r.succeeded + r.failed;
        }
      }

      const success = { succeeded: 0, finished: 0 };
      for (const p of series) {
        success.succeeded += p.success.succeeded;
        success.finished += p.success.finished;
      }

      return {
        period: { from: q.from, to: q.to, previousFrom: previous.from, previousTo: previous.to, timeZone: zone },
        bucket: bucketOf(daysBetween(q.from, q.to)),
        currency,
        totals,
        series,
        success: {
          ...success,
          byCountry: breakdownOf(parts, 'country', (r) => r.country),
          byChannel: breakdownOf(parts, 'channel', (r) => r.payment_method),
          byOperator: breakdownOf(parts, 'operator', (r) => r.operator),
          failureReasons: reasonsOf(parts),
        },
        balance: {
          currency,
          points: balance.points.map((p) => ({ at: p.at.toISOString(), balance: money(p.balance) })),
          current: money(balance.current),
          pending: { withdrawals: money(balance.pending.withdrawals), disbursements: money(balance.pending.disbursements) },
        },
        completion: completion.map((c) => ({
          kind: c.kind,
          country: c.country,
          channel: c.payment_method,
          count: c.n,
          p50Seconds: Math.round(c.p50),
          p95Seconds: Math.round(c.p95),
        })),
      };
    },
  };
}

/** One breakdown's rows, the most frequent first: each key with its count, succeeded amount, succeeded and finished. */
function breakdownOf(rows: BreakdownRow[], by: BreakdownRow['by'], keyOf: (r: BreakdownRow) => string | null) {
  const out = new Map<string, { key: string; count: number; amount: string; succeeded: number; finished: number }>();
  for (const r of rows) {
    if (r.by !== by) continue;
    // rows older than the operator column have none: they are counted under ''
    const key = keyOf(r) ?? '';
    const e = out.get(key) ?? { key, count: 0, amount: '0.00', succeeded: 0, finished: 0 };
    e.count += r.n;
    if (r.o === 's') {
      e.succeeded += r.n;
      e.amount = money(addDecimal(e.amount, r.amount));
    }
    if (r.o !== 'o') e.finished += r.n;
    out.set(key, e);
  }
  return [...out.values()].sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
}

/** The failed ones' reasons, the most frequent first; a failure without a reason is told by its status. */
function reasonsOf(rows: BreakdownRow[]) {
  const out = new Map<string, { reason: string | null; status: string | null; count: number }>();
  for (const r of rows) {
    if (r.by !== 'reason') continue;
    const reason = r.failure_reason;
    const status = reason === null ? r.status : null;
    const key = JSON.stringify([reason, status]);
    const e = out.get(key) ?? { reason, status, count: 0 };
    e.count += r.n;
    out.set(key, e);
  }
  return [...out.values()].sort((a, b) => b.count - a.count || (a.reason ?? a.status ?? '').localeCompare(b.reason ?? b.status ?? ''));
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
