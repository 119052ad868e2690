import { useState, type FormEvent } from 'react';
import { WEBHOOK_ROLL_OVERLAP_CHOICES, type Webhook } from '@portal/contract/webhooks';
import { OverlapChoices } from '../../../components/overlap-choices.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { useCodeStep } from '../../../lib/otp.ts';
import { formatDate } from '../../../lib/format.ts';
import { useT, type Translate } from '../../../lib/i18n.ts';
import { useRollWebhookSecret } from '../api/roll-webhook-secret.ts';
import { webhooksMessages } from '../messages.ts';
import { CodeStepFooter, CodeStepForm, ContinueFooter, StepErrors } from './code-step.tsx';
import { SecretPanel } from './secret-panel.tsx';

/**
 * Rolls an endpoint's signing secret after the e-mailed code: how long the old secret keeps signing beside the new
 * one, the code, then the new secret shown once.
 */
export function RollSecretDialog({ webhook, onClose }: { webhook: Webhook | undefined; onClose: () => void }) {
  return webhook ? <RollBody webhook={webhook} onClose={onClose} /> : null;
}

/** A choice of how long the old secret keeps signing, in words: "Now", "In 1 hour", "In 7 days". */
function overlapLabel(t: Translate<typeof webhooksMessages.en>, minutes: number): string {
  if (minutes === 0) return t('rollDialog.now');
  const duration = minutes < 2 * 24 * 60 ? t('rollDialog.hours', { count: minutes / 60 }) : t('rollDialog.days', { count: minutes / (24 * 60) });
  return t('rollDialog.in', { duration });
}

function RollBody({ webhook, onClose }: { webhook: Webhook; onClose: () => void }) {
  const t = useT(webhooksMessages);
  const [step, setStep] = useState<'choose' | 'code' | 'done'>('choose');
  const [minutes, setMinutes] = useState<number>(24 * 60);
  const [error, setError] = useState<string>();
  const [rolled, setRolled] = useState<{ secret: string; until: string | null }>();
  const code = useCodeStep();
  const roll = useRollWebhookSecret();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    roll.mutate(
      { id: webhook.id, previousSecretMinutes: minutes, otp: code.code },
      {
        onSuccess: (res) => {
          setRolled({ secret: res.secret, until: res.webhook.previousSecretExpiresAt ?? null });
          setStep('done');
        },
        onError: (err) => {
          if (!code.takeError(err)) setError(err.message);
        },
      },
    );
  };

  const title = step === 'done' ? t('rollDialog.savedTitle') : t('rollDialog.title');
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={title}
      description={step === 'code' ? t('confirmWithCode') : step === 'choose' ? t('rollDialog.description') : undefined}
      width={560}
      footer={
        step === 'choose' ? (
          <ContinueFooter
            step={code}
            onCancel={onClose}
            onContinue={() =>
              void code.send({ action: 'webhook.roll', target: { id: webhook.id } }, (err) => setError(err.message)).then((sent) => sent && setStep('code'))
            }
          />
        ) : step === 'code' ? (
          <CodeStepFooter step={code} onBack={() => setStep('choose')} confirmLabel={t('rollDialog.submit')} busy={roll.isPending} />
        ) : (
          <Button onClick={onClose}>{t('done')}</Button>
        )
      }
    >
      {step === 'choose' && (
        <div className="space-y-4 text-sm">
          <p>{t.rich('rollDialog.endpoint', { b: () => <span className="break-all font-medium">{webhook.url}</span> })}</p>
          <OverlapChoices
            legend={t('rollDialog.legend')}
            choices={WEBHOOK_ROLL_OVERLAP_CHOICES}
            minutes={minutes}
            onChange={setMinutes}
            label={(c) => overlapLabel(t, c.minutes)}
            meaning={{ now: t('rollDialog.meaningNow'), overlap: t('rollDialog.meaningOverlap') }}
          />
          <StepErrors step={code} error={error} />
        </div>
      )}
      {step === 'code' && <CodeStepForm step={code} error={error} onSubmit={submit} />}
      {step === 'done' && rolled && (
        <div className="space-y-4">
          <p className="text-sm" data-testid="roll-outcome">
            {rolled.until ? t('rollDialog.until', { date: formatDate(rolled.until) }) : t('rollDialog.ended')}
          </p>
          <SecretPanel secret={rolled.secret} />
        </div>
      )}
    </Dialog>
  );
}
