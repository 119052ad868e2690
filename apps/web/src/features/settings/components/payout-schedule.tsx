import { useId } from 'react';
import { END_PAYOUTS, MONTHS, WEEK_DAYS, type PayoutConfig } from '@portal/contract/payout';
import { SearchableSelect } from '../../../components/ui/searchable-select.tsx';
import { useT } from '../../../lib/i18n.ts';
import { settingsMessages, type SettingsKey } from '../messages.ts';
import { monthName, repeatUnit } from './payout-words.ts';
import { ChipGroup, chip, choiceInput } from './section.tsx';

/** What each part of the schedule edits: the config, and a patch to apply to it. */
export type ScheduleProps = { config: PayoutConfig; set: (patch: Partial<PayoutConfig>) => void };
type Frequency = NonNullable<PayoutConfig['frequency']>;

export const REPEAT_MAX = 365;
const DAY_OPTIONS = Array.from({ length: 31 }, (_, i) => ({ value: String(i + 1), label: String(i + 1) }));

/** A labelled searchable select (the portal's one select, portal-core §2), its label visible above it. */
function LabelledSelect({ label, ...props }: { label: string } & Omit<Parameters<typeof SearchableSelect>[0], 'label'>) {
  return (
    <div>
      <p className="mb-1.5 text-sm font-medium" aria-hidden="true">
        {label}
      </p>
      <SearchableSelect label={label} {...props} />
    </div>
  );
}

/** "Repeat every [N] weeks" (portal-core §3: repeatFrequency), 1 until changed. */
export function RepeatEvery({ config, set }: ScheduleProps) {
  const t = useT(settingsMessages);
  const id = useId();
  if (!config.frequency) return null;
  const every = config.repeatFrequency ?? 1;
  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium">
        {t(`payout.repeatEvery.${config.frequency}`)}
      </label>
      <div className="flex items-center gap-2 text-sm">
        <input
          id={id}
          type="number"
          inputMode="numeric"
          min={1}
          max={REPEAT_MAX}
          className="h-10 w-20 rounded-lg border border-line bg-white px-3 text-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/20"
          value={config.repeatFrequency ?? ''}
          onChange={(e) => set({ repeatFrequency: e.target.value === '' ? null : Number(e.target.value) })}
        />
        <span>{repeatUnit(t, config.frequency, every)}</span>
      </div>
    </div>
  );
}

/** Daily needs nothing more. */
function DailyForm() {
  return null;
}

/** Weekly: one or more days, kept in week order. */
function WeeklyForm({ config, set }: ScheduleProps) {
  const t = useT(settingsMessages);
  return (
    <ChipGroup legend={t('payout.weekdays')}>
      {WEEK_DAYS.map((d) => (
        <label key={d} className={chip(config.weeklyDays.includes(d))}>
          <input
            type="checkbox"
            className={choiceInput}
            checked={config.weeklyDays.includes(d)}
            onChange={(e) =>
              set({
                weeklyDays: e.target.checked ? WEEK_DAYS.filter((x) => x === d || config.weeklyDays.includes(x)) : config.weeklyDays.filter((x) => x !== d),
              })
            }
          />
          {t(`payout.daysShort.${d}`)}
        </label>
      ))}
    </ChipGroup>
  );
}

/** Monthly: a day of the month; 29 to 31 fall back to a shorter month's last day. */
function MonthlyForm({ config, set }: ScheduleProps) {
  const t = useT(settingsMessages);
  return (
    <div className="max-w-xs">
      <LabelledSelect
        label={t('payout.dayOfMonth')}
        placeholder={t('payout.chooseDay')}
        options={DAY_OPTIONS}
        value={config.monthlyDate ? String(config.monthlyDate) : undefined}
        onChange={(v) => set({ monthlyDate: Number(v) })}
      />
      <p className="mt-1 text-xs text-muted">{t('payout.shortMonths')}</p>
    </div>
  );
}

/** Yearly: a month, then a day (the 1st until one is chosen). */
function YearlyForm({ config, set }: ScheduleProps) {
  const t = useT(settingsMessages);
  const yearly = config.yearlyDate;
  const months = MONTHS.map((_, i) => ({ value: String(i + 1), label: monthName(t, i + 1) }));
  return (
    <div className="grid max-w-md grid-cols-2 gap-3">
      <LabelledSelect
        label={t('payout.month')}
        placeholder={t('payout.choose')}
        options={months}
        value={yearly ? String(yearly.month) : undefined}
        onChange={(v) => set({ yearlyDate: { month: Number(v), day: yearly?.day ?? 1 } })}
      />
      <LabelledSelect
        label={t('payout.day')}
        placeholder={t('payout.choose')}
        options={DAY_OPTIONS}
        value={yearly ? String(yearly.day) : undefined}
        disabled={!yearly}
        onChange={(v) => yearly && set({ yearlyDate: { month: yearly.month, day: Number(v) } })}
      />
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

const END_LABELS = { Never: 'payout.endOptions.Never', On: 'payout.endOptions.On', 'After Payouts': 'payout.endOptions.After' } as const satisfies Record<
  (typeof END_PAYOUTS)[number],
  SettingsKey
>;

/** When the schedule ends: never, on a date, or after a number of payouts. */
export function EndsForm({ config, set }: ScheduleProps) {
  const t = useT(settingsMessages);
  return (
    <ChipGroup legend={t('payout.ends')} className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
      {END_PAYOUTS.map((end) => (
        <label key={end} className={chip(config.endPayout === end)}>
          <input type="radio" name="end" className={choiceInput} checked={config.endPayout === end} onChange={() => set({ endPayout: end })} />
          {t(END_LABELS[end])}
          {end === 'On' && (
            <input
              type="date"
              aria-label={t('payout.endDate')}
              className="rounded border border-line px-2 py-1 text-sm"
              value={config.endPayoutDate ?? ''}
              onChange={(e) => set({ endPayout: 'On', endPayoutDate: e.target.value || null })}
            />
          )}
          {end === 'After Payouts' && (
            <>
              <input
                type="number"
                min={1}
                aria-label={t('payout.endCount')}
                className="w-20 rounded border border-line px-2 py-1 text-sm"
                value={config.endPayoutAfter ?? ''}
                onChange={(e) => set({ endPayout: 'After Payouts', endPayoutAfter: e.target.value ? Number(e.target.value) : null })}
              />
              {t('payout.endCountUnit')}
            </>
          )}
        </label>
      ))}
    </ChipGroup>
  );
}
