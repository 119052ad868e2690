import { useState, type FormEvent } from 'react';
import { LOW_BALANCE_MESSAGE, MONTHS, WEEK_DAYS, endSummary, payoutConfigProblem, repeatSummary, type PayoutConfig } from '@portal/contract/payout';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { TextField, inputClass } from '../../../components/ui/field.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { LoadingBlock } from '../../../components/ui/spinner.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { cn } from '../../../components/ui/cn.ts';
import { useProfile } from '../../partner/api/profile.ts';
import { useSession } from '../../session/session-store.ts';
import { usePayoutConfig, useSaveLowBalanceLimit, useSavePayoutConfig } from '../api/settings.ts';

const READ_ONLY = 'You do not have edit access because you are not an admin';

function Section({ title, description, children }: { title: string; description: string; children: React.ReactNode }) {
  return (
    <Card className="p-6">
      <h2 className="text-base font-semibold">{title}</h2>
      <p className="mt-1 text-sm text-muted">{description}</p>
      <div className="mt-5">{children}</div>
    </Card>
  );
}

function LowBalanceForm({ canEdit }: { canEdit: boolean }) {
  const stored = useProfile().data?.partner.lowBalanceLimit;
  const initial = stored ? String(Number(stored)) : '';
  return <LowBalanceFields key={initial} canEdit={canEdit} initial={initial} />;
}

function LowBalanceFields({ canEdit, initial }: { canEdit: boolean; initial: string }) {
  const save = useSaveLowBalanceLimit();
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<string>();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    if (!value.trim() || !(Number(value) > 0)) return setError(LOW_BALANCE_MESSAGE);
    save.mutate(value.trim(), {
      onSuccess: () => toast.show('Low balance limit saved'),
      onError: (err) => setError(err.message),
    });
  };
  return (
    <Section title="Low balance limit" description="We show a banner when your available USD balance falls below this amount (1,000 USD when none is set).">
      <form onSubmit={submit} className="flex flex-col gap-3 sm:flex-row sm:items-start" noValidate>
        <TextField
          className="sm:w-64"
          label="Limit (USD)"
          inputMode="decimal"
          value={value}
          disabled={!canEdit}
          onChange={(e) => setValue(e.target.value.replace(/[^\d.]/g, ''))}
          placeholder="1000"
          error={error}
        />
        {canEdit && (
          <Button type="submit" className="sm:mt-7" loading={save.isPending}>
            Save limit
          </Button>
        )}
      </form>
    </Section>
  );
}

const radio = 'size-4 accent-brand-700';
const chip = (on: boolean) => cn('inline-flex cursor-pointer items-center gap-2 rounded-lg border px-3 py-2 text-sm', on ? 'border-brand-700 bg-brand-50' : 'border-line bg-white');

function PayoutForm({ canEdit }: { canEdit: boolean }) {
  const loaded = usePayoutConfig();
  if (!loaded.data) return <LoadingBlock label="Loading..." />;
  return <PayoutFields key={JSON.stringify(loaded.data.config)} canEdit={canEdit} initial={loaded.data.config} nextPayoutDate={loaded.data.nextPayoutDate} />;
}

function PayoutFields({ canEdit, initial, nextPayoutDate }: { canEdit: boolean; initial: PayoutConfig; nextPayoutDate: string | null }) {
  const save = useSavePayoutConfig();
  const [config, setConfig] = useState<PayoutConfig>(initial);
  const [error, setError] = useState<string>();

  const set = (patch: Partial<PayoutConfig>) => setConfig({ ...config, ...patch });
  const problem = payoutConfigProblem(config);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    save.mutate(config, { onSuccess: () => toast.show('Payout settings saved'), onError: (err) => setError(err.message) });
  };
  const automated = config.type === 'AUTOMATED';
  const days = Array.from({ length: 31 }, (_, i) => i + 1);

  return (
    <Section title="Payout settings" description="Choose whether payouts of your balance are made when you ask for them, or on a schedule.">
      <form onSubmit={submit} noValidate>
        <fieldset disabled={!canEdit} className="space-y-6">
          <div className="flex flex-wrap gap-3" role="radiogroup" aria-label="Payout type">
            {(['MANUAL', 'AUTOMATED'] as const).map((type) => (
              <label key={type} className={chip(config.type === type)}>
                <input type="radio" name="payout-type" className={radio} checked={config.type === type} onChange={() => set({ type, frequency: type === 'AUTOMATED' ? (config.frequency ?? null) : null })} />
                {type === 'MANUAL' ? 'Manual' : 'Automated'}
              </label>
            ))}
          </div>

          {automated && (
            <>
              <div>
                <p className="mb-2 text-sm font-medium">Frequency</p>
                <div className="flex flex-wrap gap-2" role="radiogroup" aria-label="Frequency">
                  {(['Daily', 'Weekly', 'Monthly', 'Yearly'] as const).map((f) => (
                    <label key={f} className={chip(config.frequency === f)}>
                      <input type="radio" name="frequency" className={radio} checked={config.frequency === f} onChange={() => set({ frequency: f })} />
                      {f}
                    </label>
                  ))}
                </div>
              </div>

              {config.frequency === 'Weekly' && (
                <div>
                  <p className="mb-2 text-sm font-medium">On</p>
                  <div className="flex flex-wrap gap-2">
                    {WEEK_DAYS.map((d) => (
                      <label key={d} className={chip(config.weeklyDays.includes(d))}>
                        <input
                          type="checkbox"
                          className={radio}
                          checked={config.weeklyDays.includes(d)}
                          onChange={(e) => set({ weeklyDays: e.target.checked ? WEEK_DAYS.filter((x) => x === d || config.weeklyDays.includes(x)) : config.weeklyDays.filter((x) => x !== d) })}
                        />
                        {d.slice(0, 3)}
                      </label>
                    ))}
                  </div>
                </div>
              )}
              {config.frequency === 'Monthly' && (
                <label className="block max-w-xs text-sm font-medium">
                  Day of the month
                  <select className={cn(inputClass, 'mt-1.5')} value={config.monthlyDate ?? ''} onChange={(e) => set({ monthlyDate: e.target.value ? Number(e.target.value) : null })}>
                    <option value="">Choose a day</option>
                    {days.map((d) => (
                      <option key={d} value={d}>
                        {d}
                      </option>
                    ))}
                  </select>
                  <span className="mt-1 block text-xs font-normal text-muted">In shorter months, days 29 to 31 move to the month&apos;s last day.</span>
                </label>
              )}
              {config.frequency === 'Yearly' && (
                <div className="grid max-w-md grid-cols-2 gap-3">
                  <label className="text-sm font-medium">
                    Month
                    <select className={cn(inputClass, 'mt-1.5')} value={config.yearlyDate?.month ?? ''} onChange={(e) => set({ yearlyDate: e.target.value ? { month: Number(e.target.value), day: config.yearlyDate?.day ?? 1 } : null })}>
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
                    <select className={cn(inputClass, 'mt-1.5')} value={config.yearlyDate?.day ?? ''} disabled={!config.yearlyDate} onChange={(e) => set({ yearlyDate: { month: config.yearlyDate!.month, day: Number(e.target.value) } })}>
                      {days.map((d) => (
                        <option key={d} value={d}>
                          {d}
                        </option>
                      ))}
                    </select>
                  </label>
                </div>
              )}

              <div>
                <p className="mb-2 text-sm font-medium">Ends</p>
                <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
                  <label className={chip(config.endPayout === 'Never')}>
                    <input type="radio" name="end" className={radio} checked={config.endPayout === 'Never'} onChange={() => set({ endPayout: 'Never' })} />
                    Never
                  </label>
                  <label className={chip(config.endPayout === 'On')}>
                    <input type="radio" name="end" className={radio} checked={config.endPayout === 'On'} onChange={() => set({ endPayout: 'On' })} />
                    On
                    <input type="date" aria-label="End date" className="rounded border border-line px-2 py-1 text-sm" value={config.endPayoutDate ?? ''} onChange={(e) => set({ endPayout: 'On', endPayoutDate: e.target.value || null })} />
                  </label>
                  <label className={chip(config.endPayout === 'After Payouts')}>
                    <input type="radio" name="end" className={radio} checked={config.endPayout === 'After Payouts'} onChange={() => set({ endPayout: 'After Payouts' })} />
                    After
                    <input type="number" min={1} aria-label="Number of payouts" className="w-20 rounded border border-line px-2 py-1 text-sm" value={config.endPayoutAfter ?? ''} onChange={(e) => set({ endPayout: 'After Payouts', endPayoutAfter: e.target.value ? Number(e.target.value) : null })} />
                    payouts
                  </label>
                </div>
              </div>

              <dl className="grid gap-3 rounded-lg bg-canvas p-4 text-sm sm:grid-cols-3">
                <div>
                  <dt className="text-xs text-muted">Repeats</dt>
                  <dd className="font-medium" data-testid="repeat-summary">{[config.frequency, repeatSummary(config)].filter(Boolean).join(': ')}</dd>
                </div>
                <div>
                  <dt className="text-xs text-muted">Ends</dt>
                  <dd className="font-medium" data-testid="end-summary">{endSummary(config) || '—'}</dd>
                </div>
                <div>
                  <dt className="text-xs text-muted">Next payout</dt>
                  <dd className="font-medium">{initial.type === 'AUTOMATED' ? (nextPayoutDate ?? '—') : '—'}</dd>
                </div>
              </dl>
            </>
          )}
        </fieldset>
        {error && <Alert tone="danger" className="mt-4">{error}</Alert>}
        {canEdit && (
          <div className="mt-6 flex items-center gap-3">
            <Button type="submit" disabled={problem !== undefined} loading={save.isPending}>
              Save payout settings
            </Button>
            {problem && <p className="text-xs text-muted">{problem}</p>}
          </div>
        )}
      </form>
    </Section>
  );
}

export function SettingsScreen() {
  const role = useSession((s) => s.user?.role);
  const canEdit = role === 'admin';
  return (
    <div>
      <PageHeader title="Settings" description="Balance alerts and payouts for your business." />
      {!canEdit && (
        <Alert tone="info" className="mb-6">
          {READ_ONLY}
        </Alert>
      )}
      <div className="space-y-6">
        <LowBalanceForm canEdit={canEdit} />
        <PayoutForm canEdit={canEdit} />
      </div>
    </div>
  );
}
