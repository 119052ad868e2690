import { END_PAYOUTS, MONTHS, WEEK_DAYS, type PayoutConfig } from '@portal/contract/payout';
import { cn } from '../../../components/ui/cn.ts';
import { inputClass } from '../../../components/ui/field.tsx';
import { chip, choiceInput } from './section.tsx';

/** What each part of the schedule edits: the config, and a patch to apply to it. */
export type ScheduleProps = { config: PayoutConfig; set(patch: Partial<PayoutConfig>): void };
type Frequency = NonNullable<PayoutConfig['frequency']>;

const DAYS = Array.from({ length: 31 }, (_, i) => i + 1);

function DayOptions() {
  return DAYS.map((d) => (
    <option key={d} value={d}>
      {d}
    </option>
  ));
}

/** Daily needs nothing more. */
function DailyForm() {
  return null;
}

/** Weekly: one or more days, kept in week order. */
function WeeklyForm({ config, set }: ScheduleProps) {
  return (
    <div>
      <p className="mb-2 text-sm font-medium">On</p>
      <div className="flex flex-wrap gap-2">
        {WEEK_DAYS.map((d) => (
          <label key={d} className={chip(config.weeklyDays.includes(d))}>
            <input
              type="checkbox"
              className={choiceInput}
              checked={config.weeklyDays.includes(d)}
              onChange={(e) => set({ weeklyDays: e.target.checked ? WEEK_DAYS.filter((x) => x === d || config.weeklyDays.includes(x)) : config.weeklyDays.filter((x) => x !== d) })}
            />
            {d.slice(0, 3)}
          </label>
        ))}
      </div>
    </div>
  );
}

/** Monthly: a day of the month; 29 to 31 fall back to a shorter month's last day. */
function MonthlyForm({ config, set }: ScheduleProps) {
  return (
    <label className="block max-w-xs text-sm font-medium">
      Day of the month
      <select className={cn(inputClass, 'mt-1.5')} value={config.monthlyDate ?? ''} onChange={(e) => set({ monthlyDate: e.target.value ? Number(e.target.value) : null })}>
        <option value="">Choose a day</option>
        <DayOptions />
      </select>
      <span className="mt-1 block text-xs font-normal text-muted">In shorter months, days 29 to 31 move to the month&apos;s last day.</span>
    </label>
  );
}

/** Yearly: a month, then a day (the 1st until one is chosen). */
function YearlyForm({ config, set }: ScheduleProps) {
  const yearly = config.yearlyDate;
  return (
    <div className="grid max-w-md grid-cols-2 gap-3">
      <label className="text-sm font-medium">
        Month
        <select className={cn(inputClass, 'mt-1.5')} value={yearly?.month ?? ''} onChange={(e) => set({ yearlyDate: e.target.value ? { month: Number(e.target.value), day: yearly?.day ?? 1 } : null })}>
          <option value="">Choose</option>
          {MONTHS.map((m, i) => (
            <option key={m} value={i + 1}>
              {m}
            </option>
          ))}
        </select>
      </label>
      <label className="text-sm font-medium">
        Day
        <select className={cn(inputClass, 'mt-1.5')} value={yearly?.day ?? ''} disabled={!yearly} onChange={(e) => yearly && set({ yearlyDate: { month: yearly.month, day: Number(e.target.value) } })}>
          <DayOptions />
        </select>
      </label>
    </div>
  );
}

/** One small form per frequency. */
export const FREQUENCY_FORMS: Record<Frequency, (props: ScheduleProps) => React.JSX.Element | null> = {
  Daily: DailyForm,
  Weekly: WeeklyForm,
  Monthly: MonthlyForm,
  Yearly: YearlyForm,
};

const END_LABELS: Record<(typeof END_PAYOUTS)[number], string> = { Never: 'Never', On: 'On', 'After Payouts': 'After' };

/** When the schedule ends: never, on a date, or after a number of payouts. */
export function EndsForm({ config, set }: ScheduleProps) {
  return (
    <div>
      <p className="mb-2 text-sm font-medium">Ends</p>
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        {END_PAYOUTS.map((end) => (
          <label key={end} className={chip(config.endPayout === end)}>
            <input type="radio" name="end" className={choiceInput} checked={config.endPayout === end} onChange={() => set({ endPayout: end })} />
            {END_LABELS[end]}
            {end === 'On' && (
              <input type="date" aria-label="End date" className="rounded border border-line px-2 py-1 text-sm" value={config.endPayoutDate ?? ''} onChange={(e) => set({ endPayout: 'On', endPayoutDate: e.target.value || null })} />
            )}
            {end === 'After Payouts' && (
              <>
                <input
                  type="number"
                  min={1}
                  aria-label="Number of payouts"
                  className="w-20 rounded border border-line px-2 py-1 text-sm"
                  value={config.endPayoutAfter ?? ''}
                  onChange={(e) => set({ endPayout: 'After Payouts', endPayoutAfter: e.target.value ? Number(e.target.value) : null })}
                />
                payouts
              </>
            )}
          </label>
        ))}
      </div>
    </div>
  );
}
