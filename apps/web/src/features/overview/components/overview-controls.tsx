import { cn } from '../../../components/ui/cn.ts';
import { inputClass } from '../../../components/ui/field.tsx';
import { SearchableSelect } from '../../../components/ui/searchable-select.tsx';
import { Segmented } from '../../../components/ui/segmented.tsx';
import { formatMonth } from '../../../lib/format.ts';
import { useT } from '../../../lib/i18n.ts';
import type { OverviewControls as Controls } from '../hooks/use-overview-controls.ts';
import { overviewMessages } from '../messages.ts';
import { recentMonths, type Period } from '../period.ts';
import { ControlsFrame, periodOptions } from './controls-frame.tsx';

/** One day of a custom period. */
function DayInput({ label, value, max, errorId, onChange }: { label: string; value: string; max: string; errorId?: string; onChange: (day: string) => void }) {
  return (
    <label className="flex flex-col gap-1 text-xs font-medium text-muted">
      {label}
      <input
        type="date"
        className={cn(inputClass, 'w-full sm:w-40')}
        value={value}
        max={max}
        aria-invalid={errorId ? true : undefined}
        aria-describedby={errorId}
        onChange={(e) => onChange(e.target.value)}
      />
    </label>
  );
}

/**
 * The Overview's controls: the period (today, the last 7 or 30 days, a calendar month, or custom days), and the wallet
 * as the transaction tables offer it (all wallets, then the partner's fiat wallets). A custom period that cannot be
 * shown says why (the contract's words) and is not asked for.
 */
export function OverviewControls({ c, walletMode, wallets }: { c: Controls; walletMode: boolean; wallets: string[] }) {
  const t = useT(overviewMessages);
  const { controls } = c;
  const errorId = c.invalid ? 'overview-period-error' : undefined;
  const extra =
    controls.period === 'month' ? (
      <div className="sm:w-52">
        <p className="mb-1 text-xs font-medium text-muted">{t('month.label')}</p>
        <SearchableSelect
          label={t('month.label')}
          options={recentMonths(c.day).map((m) => ({ value: m, label: formatMonth(m, { long: true }) }))}
          value={controls.month}
          onChange={c.setMonth}
        />
      </div>
    ) : controls.period === 'custom' ? (
      <div className="grid grid-cols-2 gap-2 sm:flex">
        <DayInput label={t('custom.from', { zone: c.zone })} value={controls.from} max={c.day} errorId={errorId} onChange={(from) => c.setDays({ from })} />
        <DayInput label={t('custom.to', { zone: c.zone })} value={controls.to} max={c.day} errorId={errorId} onChange={(to) => c.setDays({ to })} />
      </div>
    ) : undefined;
  const message = c.invalid === undefined ? undefined : (c.invalid ?? t('custom.needBoth'));
  return (
    <ControlsFrame
      period={<Segmented label={t('period.label')} value={controls.period} options={periodOptions(t)} onChange={(p: Period) => c.setPeriod(p)} />}
      extra={extra}
      walletLabel={t('wallet.label')}
      wallet={
        walletMode ? (
          <SearchableSelect
            label={t('wallet.label')}
            options={['all', ...wallets].map((w) => ({ value: w, label: w === 'all' ? t('wallet.all') : w }))}
            value={controls.wallet}
            onChange={c.setWallet}
          />
        ) : (
          // without fiat wallets every amount is in USD
          <p className="flex h-10 items-center rounded-lg border border-line bg-canvas px-3 text-sm text-ink">USD</p>
        )
      }
      error={
        message && (
          <p id="overview-period-error" role="alert" className="mt-3 text-sm text-danger">
            {message}
          </p>
        )
      }
    />
  );
}
