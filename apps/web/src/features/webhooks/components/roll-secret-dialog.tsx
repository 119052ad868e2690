import { useState, type FormEvent } from 'react';
import { WEBHOOK_ROLL_OVERLAP_CHOICES, type Webhook } from '@portal/contract/webhooks';
import { CodeStep } from '../../../components/code-step.tsx';
import { OverlapChoices } from '../../../components/overlap-choices.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { useCodeStep } from '../../../lib/otp.ts';
import { formatDate } from '../../../lib/format.ts';
import { useRollWebhookSecret } from '../api/roll-webhook-secret.ts';
import { CodeStepFooter } from './code-step.tsx';
import { SecretPanel } from './secret-panel.tsx';

/**
 * Rolls an endpoint's signing secret after the e-mailed code: how long the old secret keeps signing beside the new
 * one, the code, then the new secret shown once.
 */
export function RollSecretDialog({ webhook, onClose }: { webhook: Webhook | undefined; onClose: () => void }) {
  return webhook ? <RollBody webhook={webhook} onClose={onClose} /> : null;
}

function RollBody({ webhook, onClose }: { webhook: Webhook; onClose: () => void }) {
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

  const title = step === 'done' ? 'Save the new signing secret' : 'Roll signing secret';
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={title}
      description={step === 'code' ? 'Confirm with the code we e-mailed you.' : step === 'choose' ? 'A new secret replaces the current one.' : undefined}
      width={560}
      footer={
        step === 'choose' ? (
          <>
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button
              loading={code.sending}
              onClick={() =>
                void code.send({ action: 'webhook.roll', target: { id: webhook.id } }, (err) => setError(err.message)).then((sent) => sent && setStep('code'))
              }
            >
              Continue
            </Button>
          </>
        ) : step === 'code' ? (
          <CodeStepFooter step={code} onBack={() => setStep('choose')} confirmLabel="Roll secret" busy={roll.isPending} />
        ) : (
          <Button onClick={onClose}>Done</Button>
        )
      }
    >
      {step === 'choose' && (
        <div className="space-y-4 text-sm">
          <p>
            Endpoint <span className="break-all font-medium">{webhook.url}</span>
          </p>
          <OverlapChoices
            legend="The old secret stops signing"
            choices={WEBHOOK_ROLL_OVERLAP_CHOICES}
            minutes={minutes}
            onChange={setMinutes}
            label={(c) => (c.minutes === 0 ? c.label : `In ${c.label}`)}
            meaning={{
              now: 'Deliveries are signed with the new secret only, as soon as you roll: your receiver must have it first.',
              overlap: 'Until then each delivery carries both signatures, so your receiver accepts it with either secret while you update it.',
            }}
          />
          {code.sendError && <Alert tone="danger">{code.sendError}</Alert>}
          {error && <Alert tone="danger">{error}</Alert>}
        </div>
      )}
      {step === 'code' && (
        <form id="webhook-code-form" onSubmit={submit} noValidate>
          <div className="space-y-4">
            <CodeStep step={code} />
            {error && <Alert tone="danger">{error}</Alert>}
          </div>
        </form>
      )}
      {step === 'done' && rolled && (
        <div className="space-y-4">
          <p className="text-sm" data-testid="roll-outcome">
            {rolled.until ? `The old secret keeps signing until ${formatDate(rolled.until)}.` : 'The old secret no longer signs deliveries.'}
          </p>
          <SecretPanel secret={rolled.secret} />
        </div>
      )}
    </Dialog>
  );
}
