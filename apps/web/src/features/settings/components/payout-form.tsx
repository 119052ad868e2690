import { useState, type FormEvent } from 'react';
import {
  MANUAL_PAYOUT,
  PAYOUT_FREQUENCIES,
  PAYOUT_TYPES,
  PayoutConfig,
  endSummary,
  nextPayoutDate,
  normalisePayoutConfig,
  payoutConfigProblem,
  repeatLine,
} from '@portal/contract/payout';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { LoadingBlock } from '../../../components/ui/spinner.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { formatDay } from '../../../lib/format.ts';
import { usePayoutConfig, useSavePayoutConfig } from '../api/settings.ts';
import { EndsForm, FREQUENCY_FORMS, REPEAT_MAX, RepeatEvery, type ScheduleProps } from './payout-schedule.tsx';
import { SETTINGS_SECTIONS, Section, chip, choiceInput } from './section.tsx';

/** Shown instead of saving while the stored schedule is unknown: a save would replace it with the default. */
export const PAYOUT_NOT_LOADED = 'Your payout settings could not be loaded, so they cannot be saved yet: saving now could replace your schedule. Try again.';

/**
 * The payout settings. A failed load shows manual (portal-core §4: silently), but saving stays blocked until the
 * stored configuration loads, so that an admin never overwrites the real schedule with a default.
 */
export function PayoutForm({ canEdit }: { canEdit: boolean }) {
  const loaded = usePayoutConfig();
  if (loaded.isPending) return <LoadingBlock label="Loading..." />;
  if (loaded.isError)
    return (
      <PayoutFields
        key="not-loaded"
        canEdit={canEdit}
        initial={MANUAL_PAYOUT}
        nextPayoutDate={null}
        notLoaded={{ retry: () => void loaded.refetch(), retrying: loaded.isFetching }}
      />
    );
  return <PayoutFields key={JSON.stringify(loaded.data.config)} canEdit={canEdit} initial={loaded.data.config} nextPayoutDate={loaded.data.nextPayoutDate} />;
}

/** The schedule in one line each: how often, until when (e.g. "Weekly: Monday, Thursday", "Never"). */
const scheduleText = (config: PayoutConfig) => [repeatLine(config), endSummary(config) && `ends ${endSummary(config)}`].filter(Boolean).join(', ');

/**
 * What the contract's schema and rules say of the draft, as one message (undefined when it may be saved). The schema's
 * bounds get words of their own; the rules of portal-core §4 have theirs already.
 */
function draftProblem(config: PayoutConfig): string | undefined {
  const parsed = PayoutConfig.safeParse(normalisePayoutConfig(config));
  if (!parsed.success) {
    const field = parsed.error.issues[0]?.path[0];
    if (field === 'repeatFrequency') return `Repeat every: use a whole number from 1 to ${REPEAT_MAX}.`;
    if (field === 'endPayoutAfter') return 'Number of payouts: use a whole number from 1 to 10,000.';
    if (field === 'endPayoutDate') return 'End date: choose a real date.';
    return parsed.error.issues[0]?.message;
  }
  return payoutConfigProblem(parsed.data);
}

/** The summaries of the draft as it is now; the next payout is the server's for the stored schedule, else a preview. */
function Summary({ config, nextPayoutDate: stored, changed }: { config: PayoutConfig; nextPayoutDate: string | null; changed: boolean }) {
  const next = changed ? nextPayoutDate(normalisePayoutConfig(config), new Date()) : stored;
  return (
    <dl className="grid gap-3 rounded-lg bg-canvas p-4 text-sm sm:grid-cols-3" aria-live="polite">
      <div>
        <dt className="text-xs text-muted">Repeats</dt>
        <dd className="font-medium" data-testid="repeat-summary">
          {repeatLine(config) || '—'}
        </dd>
      </div>
      <div>
        <dt className="text-xs text-muted">Ends</dt>
        <dd className="font-medium" data-testid="end-summary">
          {endSummary(config) || '—'}
        </dd>
      </div>
      <div>
        <dt className="text-xs text-muted">{changed ? 'Next payout, if saved now' : 'Next payout'}</dt>
        <dd className="font-medium" data-testid="next-payout">
          {next ? formatDay(next) || next : '—'}
        </dd>
      </div>
    </dl>
  );
}

function ScheduleFields({ config, set, nextPayoutDate, changed }: ScheduleProps & { nextPayoutDate: string | null; changed: boolean }) {
  const FrequencyForm = config.frequency ? FREQUENCY_FORMS[config.frequency] : undefined;
  return (
    <>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:gap-8">
        <fieldset>
          <legend className="mb-2 text-sm font-medium">Frequency</legend>
          <div className="flex flex-wrap gap-2">
            {PAYOUT_FREQUENCIES.map((f) => (
              <label key={f} className={chip(config.frequency === f)}>
                <input type="radio" name="frequency" className={choiceInput} checked={config.frequency === f} onChange={() => set({ frequency: f })} />
                {f}
              </label>
            ))}
          </div>
        </fieldset>
        <RepeatEvery config={config} set={set} />
      </div>
      {FrequencyForm && <FrequencyForm config={config} set={set} />}
      <EndsForm config={config} set={set} />
      <Summary config={config} nextPayoutDate={nextPayoutDate} changed={changed} />
    </>
  );
}

type FieldsProps = {
  canEdit: boolean;
  initial: PayoutConfig;
  nextPayoutDate: string | null;
  /** set when the stored configuration failed to load: saving is blocked */
  notLoaded?: { retry: () => void; retrying: boolean };
};

/**
 * The draft keeps every schedule field while the type goes from Automated to Manual and back, so nothing is lost
 * by a click; saving Manual over a stored schedule asks first, since the server then deletes it.
 */
function PayoutFields({ canEdit, initial, nextPayoutDate, notLoaded }: FieldsProps) {
  const save = useSavePayoutConfig();
  const [config, setConfig] = useState<PayoutConfig>(initial.type === 'AUTOMATED' ? { ...initial, repeatFrequency: initial.repeatFrequency ?? 1 } : initial);
  const [error, setError] = useState<string>();
  const [confirming, setConfirming] = useState(false);

  const set = (patch: Partial<PayoutConfig>) => {
    setError(undefined);
    setConfig((c) => {
      const next = { ...c, ...patch };
      // an automated schedule repeats every 1 period until told otherwise
      if (next.type === 'AUTOMATED' && next.repeatFrequency === null && !('repeatFrequency' in patch)) next.repeatFrequency = 1;
      return next;
    });
  };
  const problem = draftProblem(config);
  const changed = JSON.stringify(normalisePayoutConfig(config)) !== JSON.stringify(normalisePayoutConfig(initial));
  const wipesSchedule = !notLoaded && initial.type === 'AUTOMATED' && config.type === 'MANUAL';

  const send = () => {
    setConfirming(false);
    save.mutate(normalisePayoutConfig(config), { onSuccess: () => toast.show('Payout settings saved'), onError: (err) => setError(err.message) });
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    if (notLoaded) return setError(PAYOUT_NOT_LOADED);
    if (problem) return setError(problem);
    if (wipesSchedule) return setConfirming(true);
    send();
  };

  return (
    <Section {...SETTINGS_SECTIONS.payout}>
      <form onSubmit={submit} noValidate>
        <fieldset disabled={!canEdit} className="space-y-6">
          <legend className="sr-only">Payout settings</legend>
          <div className="flex flex-wrap gap-3" role="radiogroup" aria-label="Payout type">
            {PAYOUT_TYPES.map((type) => (
              <label key={type} className={chip(config.type === type)}>
                <input type="radio" name="payout-type" className={choiceInput} checked={config.type === type} onChange={() => set({ type })} />
                {type === 'MANUAL' ? 'Manual' : 'Automated'}
              </label>
            ))}
          </div>
          {config.type === 'AUTOMATED' && (
            <ScheduleFields config={config} set={set} nextPayoutDate={initial.type === 'AUTOMATED' ? nextPayoutDate : null} changed={changed} />
          )}
          {wipesSchedule && canEdit && (
            <Alert tone="warning">
              <span data-testid="manual-wipes-schedule">
                Saving manual payouts deletes your schedule ({scheduleText(initial)}). Switch back to Automated to keep it.
              </span>
            </Alert>
          )}
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
          <div className="mt-6 flex flex-col gap-2 sm:flex-row sm:items-center sm:gap-3">
            <Button type="submit" disabled={problem !== undefined || !!notLoaded} loading={save.isPending}>
              Save payout settings
            </Button>
            {problem && <p className="text-xs text-muted">{problem}</p>}
          </div>
        )}
      </form>
      <Dialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Switch to manual payouts?"
        description={`Your automated schedule (${scheduleText(initial)}) will be deleted. Payouts are then made only when you ask for them.`}
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirming(false)}>
              Keep the schedule
            </Button>
            <Button variant="danger" onClick={send}>
              Delete schedule and save
            </Button>
          </>
        }
      />
    </Section>
  );
}
