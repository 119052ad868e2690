import { useState, type FormEvent } from 'react';
import {
  MANUAL_PAYOUT,
  PAYOUT_FREQUENCIES,
  PAYOUT_TYPES,
  PayoutConfig,
  nextPayoutDate,
  normalisePayoutConfig,
  payoutConfigProblem,
} from '@portal/contract/payout';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { LoadingBlock } from '../../../components/ui/spinner.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { formatDay } from '../../../lib/format.ts';
import { useSettlementWallets } from '../../../lib/partner/settlement-wallets.ts';
import { localizeMessage, translator, useT } from '../../../lib/i18n.ts';
import { usePayoutConfig, useSavePayoutConfig } from '../api/settings.ts';
import { settingsMessages, type SettingsT } from '../messages.ts';
import { endLine, monthName, repeatLine, scheduleText } from './payout-words.ts';
import { EndsForm, FREQUENCY_FORMS, REPEAT_MAX, RepeatEvery, type ScheduleProps } from './payout-schedule.tsx';
import { ChipGroup, SETTINGS_SECTIONS, Section, chip, choiceInput } from './section.tsx';

/**
 * The payout settings. A failed load shows manual (portal-core §4: silently), but saving stays blocked until the
 * stored configuration loads, so that an admin never overwrites the real schedule with a default.
 */
export function PayoutForm({ canEdit }: { canEdit: boolean }) {
  const t = useT(settingsMessages);
  const loaded = usePayoutConfig();
  if (loaded.isPending) return <LoadingBlock label={t('payout.loading')} />;
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

/** The most payouts a schedule may end after (the contract's bound). */
const END_AFTER_MAX = 10_000;
/** The days of each month in a leap year: a yearly date may be 29 February, never 30. */
const daysInMonth = (month: number) => new Date(Date.UTC(2024, month, 0)).getUTCDate();

/**
 * What the contract's schema and rules say of the draft, as one message (undefined when it may be saved). The schema's
 * bounds get words of their own, and so does a yearly date its month does not have (the contract's message names the
 * month in English); the other rules of portal-core §4 have theirs already.
 */
function draftProblem(t: SettingsT, config: PayoutConfig): string | undefined {
  const parsed = PayoutConfig.safeParse(normalisePayoutConfig(config));
  if (!parsed.success) {
    const field = parsed.error.issues[0]?.path[0];
    if (field === 'repeatFrequency') return t('payout.problems.repeat', { max: REPEAT_MAX });
    if (field === 'endPayoutAfter') return t('payout.problems.endCount', { max: END_AFTER_MAX });
    if (field === 'endPayoutDate') return t('payout.problems.endDate');
    const message = parsed.error.issues[0]?.message;
    return message && localizeMessage(message);
  }
  const yearly = parsed.data.frequency === 'Yearly' ? parsed.data.yearlyDate : null;
  if (yearly && yearly.day > daysInMonth(yearly.month)) return t('payout.problems.noSuchDay', { month: monthName(t, yearly.month), day: yearly.day });
  const problem = payoutConfigProblem(parsed.data);
  return problem && localizeMessage(problem);
}

/** One summary: its name, and its value or a dash while there is none. */
function SummaryItem({ label, testId, value }: { label: string; testId: string; value: string | null | undefined }) {
  return (
    <div>
      <dt className="text-xs text-muted">{label}</dt>
      <dd className="font-medium" data-testid={testId}>
        {value || '—'}
      </dd>
    </div>
  );
}

/** The summaries of the draft as it is now; the next payout is the server's for the stored schedule, else a preview. */
function Summary({ config, nextPayoutDate: stored, changed }: { config: PayoutConfig; nextPayoutDate: string | null; changed: boolean }) {
  const t = useT(settingsMessages);
  const next = changed ? nextPayoutDate(normalisePayoutConfig(config), new Date()) : stored;
  return (
    <dl className="grid gap-3 rounded-lg bg-canvas p-4 text-sm sm:grid-cols-3" aria-live="polite">
      <SummaryItem label={t('payout.summary.repeats')} testId="repeat-summary" value={repeatLine(t, config)} />
      <SummaryItem label={t('payout.summary.ends')} testId="end-summary" value={endLine(t, config)} />
      <SummaryItem label={t(changed ? 'payout.summary.nextIfSaved' : 'payout.summary.next')} testId="next-payout" value={next && (formatDay(next) || next)} />
    </dl>
  );
}

function ScheduleFields({ config, set, nextPayoutDate, changed }: ScheduleProps & { nextPayoutDate: string | null; changed: boolean }) {
  const t = useT(settingsMessages);
  const FrequencyForm = config.frequency ? FREQUENCY_FORMS[config.frequency] : undefined;
  return (
    <>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:gap-8">
        <ChipGroup legend={t('payout.frequency')}>
          {PAYOUT_FREQUENCIES.map((f) => (
            <label key={f} className={chip(config.frequency === f)}>
              <input type="radio" name="frequency" className={choiceInput} checked={config.frequency === f} onChange={() => set({ frequency: f })} />
              {t(`payout.frequencies.${f}`)}
            </label>
          ))}
        </ChipGroup>
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
  const t = useT(settingsMessages);
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
  const problem = draftProblem(t, config);
  const changed = JSON.stringify(normalisePayoutConfig(config)) !== JSON.stringify(normalisePayoutConfig(initial));
  const wipesSchedule = !notLoaded && initial.type === 'AUTOMATED' && config.type === 'MANUAL';

  const send = () => {
    setConfirming(false);
    save.mutate(normalisePayoutConfig(config), {
      onSuccess: () => toast.show(translator(settingsMessages)('payout.saved')),
      onError: (err) => setError(localizeMessage(err.message)),
    });
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    if (notLoaded) return setError(t('payout.notLoaded'));
    if (problem) return setError(problem);
    if (wipesSchedule) return setConfirming(true);
    send();
  };

  return (
    <Section {...SETTINGS_SECTIONS.payout()}>
      <form onSubmit={submit} noValidate>
        <fieldset disabled={!canEdit} className="space-y-6">
          <legend className="sr-only">{t('payout.legend')}</legend>
          <div className="flex flex-wrap gap-3" role="radiogroup" aria-label={t('payout.type')}>
            {PAYOUT_TYPES.map((type) => (
              <label key={type} className={chip(config.type === type)}>
                <input type="radio" name="payout-type" className={choiceInput} checked={config.type === type} onChange={() => set({ type })} />
                {t(`payout.types.${type}`)}
              </label>
            ))}
          </div>
          {config.type === 'AUTOMATED' && (
            <ScheduleFields config={config} set={set} nextPayoutDate={initial.type === 'AUTOMATED' ? nextPayoutDate : null} changed={changed} />
          )}
          {config.type === 'AUTOMATED' && <NoWalletWarning />}
          {wipesSchedule && canEdit && (
            <Alert tone="warning">
              <span data-testid="manual-wipes-schedule">{t('payout.wipes', { schedule: scheduleText(t, initial) })}</span>
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
            <span data-testid="payout-not-loaded">{t('payout.notLoaded')}</span>
            <Button type="button" variant="secondary" size="sm" className="ml-3" onClick={notLoaded.retry} loading={notLoaded.retrying}>
              {t('payout.tryAgain')}
            </Button>
          </Alert>
        )}
        {canEdit && (
          <div className="mt-6 flex flex-col gap-2 sm:flex-row sm:items-center sm:gap-3">
            <Button type="submit" disabled={problem !== undefined || !!notLoaded} loading={save.isPending}>
              {t('payout.save')}
            </Button>
            {problem && <p className="text-xs text-muted">{problem}</p>}
          </div>
        )}
      </form>
      <Dialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t('payout.confirm.title')}
        description={t('payout.confirm.description', { schedule: scheduleText(t, initial) })}
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirming(false)}>
              {t('payout.confirm.keep')}
            </Button>
            <Button variant="danger" onClick={send}>
              {t('payout.confirm.delete')}
            </Button>
          </>
        }
      />
    </Section>
  );
}

/** Automated payouts go to an enabled settlement wallet: without one, none can be made, and the schedule says so. */
function NoWalletWarning() {
  const t = useT(settingsMessages);
  const wallets = useSettlementWallets();
  if (!wallets.data || wallets.data.wallets.some((w) => w.status === 'enabled')) return null;
  return (
    <Alert tone="warning">
      <span data-testid="payout-no-wallet">{t('payout.noWallet')}</span>
    </Alert>
  );
}
