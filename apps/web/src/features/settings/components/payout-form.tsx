import { useState, type FormEvent } from 'react';
import { MANUAL_PAYOUT, PAYOUT_FREQUENCIES, PAYOUT_TYPES, endSummary, payoutConfigProblem, repeatSummary, type PayoutConfig } from '@portal/contract/payout';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { LoadingBlock } from '../../../components/ui/spinner.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { usePayoutConfig, useSavePayoutConfig } from '../api/settings.ts';
import { EndsForm, FREQUENCY_FORMS, type ScheduleProps } from './payout-schedule.tsx';
import { Section, chip, choiceInput } from './section.tsx';

/** Shown instead of saving while the stored schedule is unknown: a save would replace it with the default. */
export const PAYOUT_NOT_LOADED = 'Your payout settings could not be loaded, so they cannot be saved yet: saving now could replace your schedule. Try again.';

/**
 * The payout settings. A failed load shows manual (portal-core §4: silently), but saving stays blocked until the
 * stored configuration loads, so that an admin never overwrites the real schedule with a default.
 */
export function PayoutForm({ canEdit }: { canEdit: boolean }) {
  const loaded = usePayoutConfig();
  if (loaded.isPending) return <LoadingBlock label="Loading..." />;
  if (loaded.isError) return <PayoutFields key="not-loaded" canEdit={canEdit} initial={MANUAL_PAYOUT} nextPayoutDate={null} notLoaded={{ retry: () => void loaded.refetch(), retrying: loaded.isFetching }} />;
  return <PayoutFields key={JSON.stringify(loaded.data.config)} canEdit={canEdit} initial={loaded.data.config} nextPayoutDate={loaded.data.nextPayoutDate} />;
}

function Summary({ config, nextPayoutDate }: { config: PayoutConfig; nextPayoutDate: string | null }) {
  return (
    <dl className="grid gap-3 rounded-lg bg-canvas p-4 text-sm sm:grid-cols-3">
      <div>
        <dt className="text-xs text-muted">Repeats</dt>
        <dd className="font-medium" data-testid="repeat-summary">
          {[config.frequency, repeatSummary(config)].filter(Boolean).join(': ')}
        </dd>
      </div>
      <div>
        <dt className="text-xs text-muted">Ends</dt>
        <dd className="font-medium" data-testid="end-summary">
          {endSummary(config) || '—'}
        </dd>
      </div>
      <div>
        <dt className="text-xs text-muted">Next payout</dt>
        <dd className="font-medium">{nextPayoutDate ?? '—'}</dd>
      </div>
    </dl>
  );
}

function ScheduleFields({ config, set, nextPayoutDate }: ScheduleProps & { nextPayoutDate: string | null }) {
  const FrequencyForm = config.frequency ? FREQUENCY_FORMS[config.frequency] : undefined;
  return (
    <>
      <div>
        <p className="mb-2 text-sm font-medium">Frequency</p>
        <div className="flex flex-wrap gap-2" role="radiogroup" aria-label="Frequency">
          {PAYOUT_FREQUENCIES.map((f) => (
            <label key={f} className={chip(config.frequency === f)}>
              <input type="radio" name="frequency" className={choiceInput} checked={config.frequency === f} onChange={() => set({ frequency: f })} />
              {f}
            </label>
          ))}
        </div>
      </div>
      {FrequencyForm && <FrequencyForm config={config} set={set} />}
      <EndsForm config={config} set={set} />
      <Summary config={config} nextPayoutDate={nextPayoutDate} />
    </>
  );
}

type FieldsProps = {
  canEdit: boolean;
  initial: PayoutConfig;
  nextPayoutDate: string | null;
  /** set when the stored configuration failed to load: saving is blocked */
  notLoaded?: { retry(): void; retrying: boolean };
};

function PayoutFields({ canEdit, initial, nextPayoutDate, notLoaded }: FieldsProps) {
  const save = useSavePayoutConfig();
  const [config, setConfig] = useState<PayoutConfig>(initial);
  const [error, setError] = useState<string>();

  const set = (patch: Partial<PayoutConfig>) => setConfig({ ...config, ...patch });
  const problem = payoutConfigProblem(config);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    if (notLoaded) return setError(PAYOUT_NOT_LOADED);
    save.mutate(config, { onSuccess: () => toast.show('Payout settings saved'), onError: (err) => setError(err.message) });
  };

  return (
    <Section title="Payout settings" description="Choose whether payouts of your balance are made when you ask for them, or on a schedule.">
      <form onSubmit={submit} noValidate>
        <fieldset disabled={!canEdit} className="space-y-6">
          <div className="flex flex-wrap gap-3" role="radiogroup" aria-label="Payout type">
            {PAYOUT_TYPES.map((type) => (
              <label key={type} className={chip(config.type === type)}>
                <input type="radio" name="payout-type" className={choiceInput} checked={config.type === type} onChange={() => set({ type, frequency: type === 'AUTOMATED' ? (config.frequency ?? null) : null })} />
                {type === 'MANUAL' ? 'Manual' : 'Automated'}
              </label>
            ))}
          </div>
          {config.type === 'AUTOMATED' && <ScheduleFields config={config} set={set} nextPayoutDate={initial.type === 'AUTOMATED' ? nextPayoutDate : null} />}
        </fieldset>
        {error && (
          <Alert tone="danger" className="mt-4">
            {error}
          </Alert>
        )}
        {canEdit && notLoaded && (
          <Alert tone="warning" className="mt-4">
            <span data-testid="payout-not-loaded">{PAYOUT_NOT_LOADED}</span>
            <Button type="button" variant="secondary" size="sm" className="ml-3" onClick={notLoaded.retry} loading={notLoaded.retrying}>
              Try again
            </Button>
          </Alert>
        )}
        {canEdit && (
          <div className="mt-6 flex items-center gap-3">
            <Button type="submit" disabled={problem !== undefined || !!notLoaded} loading={save.isPending}>
              Save payout settings
            </Button>
            {problem && <p className="text-xs text-muted">{problem}</p>}
          </div>
        )}
      </form>
    </Section>
  );
}
