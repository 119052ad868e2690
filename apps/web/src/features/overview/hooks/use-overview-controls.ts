import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { displayTimeZone } from '../../../lib/format.ts';
import { DEFAULT_PERIOD, OVERVIEW_KEYS, periodDays, readControls, todayIn, type Period } from '../period.ts';
import { analyticsQuery } from '../query.ts';

/**
 * The Overview's controls, kept in the address (period.ts says which keys): what they choose, the days of the
 * period, the query they make (none while it cannot be sent, with why), and the changes. Days are the user's zone in
 * force.
 */
export function useOverviewControls() {
  const [params, setParams] = useSearchParams();
  const zone = displayTimeZone();
  const day = todayIn(zone);
  const controls = readControls(params, day);
  const days = periodDays(controls, day);
  const asked = analyticsQuery(controls, day, zone);

  // the parameters as last set: two changes before the next render (From, then To, typed at once) both count
  const latest = useRef(params);
  useEffect(() => {
    latest.current = params;
  }, [params]);
  /** Changes some parameters; an empty value removes one. */
  const update = (changes: Record<string, string>, { replace = false } = {}) => {
    const next = new URLSearchParams(latest.current);
    for (const [k, v] of Object.entries(changes)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    latest.current = next;
    setParams(next, { replace });
  };

  return {
    zone,
    day,
    controls,
    /** the period's days as chosen (a custom one may be incomplete) */
    days,
    query: asked.query,
    /** why no query is sent: the contract's message, or null while a custom period lacks a day */
    invalid: asked.invalid,
    setPeriod: (period: Period) =>
      update({
        [OVERVIEW_KEYS.period]: period === DEFAULT_PERIOD ? '' : period,
        [OVERVIEW_KEYS.month]: period === 'month' ? controls.month : '',
        // a custom period starts from the days on screen
        [OVERVIEW_KEYS.from]: period === 'custom' ? controls.from || days.from : '',
        [OVERVIEW_KEYS.to]: period === 'custom' ? controls.to || days.to : '',
      }),
    setMonth: (month: string) => update({ [OVERVIEW_KEYS.month]: month }),
    /** Sets the days given (each field sends its own, so that one typed right after the other is kept). */
    setDays: (d: { from?: string; to?: string }) =>
      update({ ...(d.from !== undefined && { [OVERVIEW_KEYS.from]: d.from }), ...(d.to !== undefined && { [OVERVIEW_KEYS.to]: d.to }) }, { replace: true }),
    setWallet: (wallet: string) => update({ [OVERVIEW_KEYS.wallet]: wallet === 'all' ? '' : wallet }),
  };
}

export type OverviewControls = ReturnType<typeof useOverviewControls>;
