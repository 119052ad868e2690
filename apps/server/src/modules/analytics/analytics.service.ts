import type { Kysely } from 'kysely';
import {
  ANALYTICS_KINDS,
  addDays,
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
import { dayDurations, dayParts, hourSteps, rowDurations, rowParts, rowSteps, type DurationRow, type PartRow, type Scope } from './analytics.repository.ts';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

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

const floorTo = (d: Date, unit: number) => new Date(Math.floor(d.getTime() / unit) * unit);
const ceilTo = (d: Date, unit: number) => new Date(Math.ceil(d.getTime() / unit) * unit);
const utcDay = (d: Date) => d.toISOString().slice(0, 10);

/**
 * How the steps of `bounds` are read: the whole UTC hours from the hourly rollup, but the hours a bound falls inside
 * (a zone whose offset is not whole hours: Kathmandu's days start at 18:15 UTC), which are read from the rows, with
 * the period's edges when they are not whole hours.
 */
export function hourSplit(bounds: readonly Date[]) {
  const first = bounds[0]!;
  const last = bounds.at(-1)!;
  const skipped = [...new Set(bounds.filter((b) => b.getTime() % HOUR_MS !== 0).map((b) => floorTo(b, HOUR_MS).getTime()))].map((t) => new Date(t));
  const rows = skipped.map((h) => [new Date(Math.max(h.getTime(), first.getTime())), new Date(Math.min(h.getTime() + HOUR_MS, last.getTime()))] as const);
  return { from: ceilTo(first, HOUR_MS), to: floorTo(last, HOUR_MS), skipped, rows };
}

/** How [from, to) is read for the breakdowns: its whole UTC days from the daily rollups, the rest from the rows. */
export function daySplit(from: Date, to: Date) {
  const first = ceilTo(from, DAY_MS);
  const last = floorTo(to, DAY_MS);
  if (first >= last) return { days: undefined, rows: [[from, to] as const] };
  const rows = [
    [from, first],
    [last, to],
  ].filter(([a, b]) => a! < b!) as [Date, Date][];
  return { days: { from: utcDay(first), to: utcDay(last) }, rows };
}

/** The p-th percentile of a histogram of buckets 2^(b/4) to 2^((b+1)/4) seconds wide: the middle of its bucket (within 9 %). */
export function percentileOf(buckets: Map<number, number>, p: number): number {
  const sorted = [...buckets.entries()].sort((a, b) => a[0] - b[0]);
  const total = sorted.reduce((n, [, c]) => n + c, 0);
  let seen = 0;
  for (const [bucket, count] of sorted) {
    seen += count;
    if (seen >= p * total) return Math.round(2 ** ((bucket + 0.5) / 4));
  }
  return 0;
}

export type AnalyticsDeps = {
  /** where the figures are read: the reader the transaction searches use, so that both show the same rows */
  read: () => Promise<Kysely<DB>>;
  ledger: Pick<Ledger, 'history'>;
};

const emptyVolume = (): Volume => ({ count: 0, amount: '0.00' });
const money = (v: string) => normalise(v, 2);

/**
 * The Overview's figures (GET partner/analytics) of the caller's partner: whole UTC hours and days from the rollups
 * the database keeps, the rest of the period from the rows, in one snapshot; the same rows the tables show.
 */
export function createAnalyticsService(deps: AnalyticsDeps) {
  return {
    async overview(partnerId: string, q: AnalyticsQuery): Promise<AnalyticsReply> {
      const zone = q.timeZone;
      const previous = previousPeriod(q.from, q.to);
      const bounds = stepBounds(q.from, q.to, zone);
      const from = bounds[0]!;
      const to = bounds.at(-1)!;
      // step 1 is the previous period, then the chart's steps
      const allBounds = [dayStartInZone(previous.from, zone), ...bounds];
      const currency = q.wallet === 'all' ? DEFAULT_FIAT_WALLET.currency : q.wallet;
      const scope: Scope = { partnerId, wallet: q.wallet, succeeded: OUTCOME_STATUSES.succeeded, failed: OUTCOME_STATUSES.failed };
      const hours = hourSplit(allBounds);
      const days = daySplit(from, to);

      const db = await deps.read();
      const read = await db
        .transaction()
        .setIsolationLevel('repeatable read')
        .execute(async (trx) => ({
          steps: [...(await hourSteps(trx, scope, hours.from, hours.to, hours.skipped, allBounds)), ...(await rowSteps(trx, scope, hours.rows, allBounds))],
          parts: [...(days.days ? await dayParts(trx, scope, days.days.from, days.days.to) : []), ...(await rowParts(trx, scope, days.rows))],
          durations: [...(days.days ? await dayDurations(trx, scope, days.days.from, days.days.to) : []), ...(await rowDurations(trx, scope, days.rows))],
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
      for (const r of read.steps) {
        const kind = r.kind as AnalyticsKind;
        const point = r.step === 1 ? undefined : series[r.step - 2];
        if (r.step !== 1 && !point) continue;
        if (r.o === 's') add(point ? totals[kind].current : totals[kind].previous, r.n, r.amount);
        if (!point) continue;
        if (r.o === 's') add(point.volumes[kind], r.n, r.amount);
        if (kind !== 'settlements' && r.o !== 'o') {
          point.success.finished += r.n;
          if (r.o === 's') point.success.succeeded += r.n;
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
          byCountry: breakdownOf(read.parts, 'country'),
          byChannel: breakdownOf(read.parts, 'channel'),
          byOperator: breakdownOf(read.parts, 'operator'),
          failureReasons: reasonsOf(read.parts),
        },
        balance: {
          currency,
          points: balance.points.map((p) => ({ at: p.at.toISOString(), balance: money(p.balance) })),
          current: money(balance.current),
          pending: { withdrawals: money(balance.pending.withdrawals), disbursements: money(balance.pending.disbursements) },
        },
        completion: completionOf(read.durations),
      };
    },
  };
}

/** Per kind and corridor, the most completed first: how many completed, and the p50 and p95 of their durations. */
function completionOf(rows: DurationRow[]): AnalyticsReply['completion'] {
  const corridors = new Map<string, { kind: DurationRow['kind']; country: string; channel: string; buckets: Map<number, number>; count: number }>();
  for (const r of rows) {
    const key = `${r.kind}|${r.country}|${r.channel}`;
    const c = corridors.get(key) ?? { kind: r.kind, country: r.country, channel: r.channel, buckets: new Map<number, number>(), count: 0 };
    c.buckets.set(r.bucket, (c.buckets.get(r.bucket) ?? 0) + r.n);
    c.count += r.n;
    corridors.set(key, c);
  }
  return [...corridors.values()]
    .filter((c) => c.count > 0)
    .sort((a, b) => b.count - a.count || `${a.kind}${a.country}${a.channel}`.localeCompare(`${b.kind}${b.country}${b.channel}`))
    .map((c) => ({
      kind: c.kind,
      country: c.country,
      channel: c.channel,
      count: c.count,
      p50Seconds: percentileOf(c.buckets, 0.5),
      p95Seconds: percentileOf(c.buckets, 0.95),
    }));
}

/** One breakdown's rows, the most frequent first: each key with its count, succeeded amount, succeeded and finished. */
function breakdownOf(rows: PartRow[], dim: PartRow['dim']) {
  const out = new Map<string, { key: string; count: number; amount: string; succeeded: number; finished: number }>();
  for (const r of rows) {
    if (r.dim !== dim) continue;
    // rows older than the operator column have none: they are counted under ''
    const e = out.get(r.key) ?? { key: r.key, count: 0, amount: '0.00', succeeded: 0, finished: 0 };
    e.count += r.n;
    if (r.o === 's') {
      e.succeeded += r.n;
      e.amount = money(addDecimal(e.amount, r.amount));
    }
    if (r.o !== 'o') e.finished += r.n;
    out.set(r.key, e);
  }
  return [...out.values()].filter((e) => e.count > 0).sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
}

/** The failed ones' reasons, the most frequent first; a failure without a reason is told by its status. */
function reasonsOf(rows: PartRow[]) {
  const STATUS = 'status:';
  const counts = new Map<string, number>();
  for (const r of rows) if (r.dim === 'reason') counts.set(r.key, (counts.get(r.key) ?? 0) + r.n);
  return [...counts.entries()]
    .filter(([, count]) => count > 0)
    .map(([key, count]) => (key.startsWith(STATUS) ? { reason: null, status: key.slice(STATUS.length), count } : { reason: key, status: null, count }))
    .sort((a, b) => b.count - a.count || (a.reason ?? a.status ?? '').localeCompare(b.reason ?? b.status ?? ''));
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
