import { useState, type FormEvent } from 'react';
import type { Webhook } from '@portal/contract/webhooks';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { useT } from '../../../lib/i18n.ts';
import { useCodeStep } from '../../../lib/otp.ts';
import { useDeleteWebhook } from '../api/delete-webhook.ts';
import { webhooksMessages } from '../messages.ts';
import { CodeStepFooter, CodeStepForm, ContinueFooter, StepErrors } from './code-step.tsx';

/** Deletes an endpoint after the e-mailed code. */
export function DeleteWebhookDialog({ webhook, onClose }: { webhook: Webhook | undefined; onClose: () => void }) {
  return webhook ? <DeleteBody webhook={webhook} onClose={onClose} /> : null;
}

function DeleteBody({ webhook, onClose }: { webhook: Webhook; onClose: () => void }) {
  const t = useT(webhooksMessages);
  const [step, setStep] = useState<'confirm' | 'code'>('confirm');
  const [error, setError] = useState<string>();
  const code = useCodeStep();
  const remove = useDeleteWebhook();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    remove.mutate(
      { id: webhook.id, otp: code.code },
      {
        onSuccess: () => {
          toast.show(t('deleteDialog.deleted'));
          onClose();
        },
        onError: (err) => {
          if (!code.takeError(err)) setError(err.message);
        },
      },
    );
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('deleteDialog.title')}
      description={step === 'code' ? t('confirmWithCode') : undefined}
      footer={
        step === 'confirm' ? (
          <ContinueFooter
            step={code}
            onCancel={onClose}
            onContinue={() =>
              void code.send({ action: 'webhook.delete', target: { id: webhook.id } }, (err) => setError(err.message)).then((sent) => sent && setStep('code'))
            }
            danger
          />
        ) : (
          <CodeStepFooter step={code} onBack={() => setStep('confirm')} confirmLabel={t('deleteDialog.submit')} busy={remove.isPending} danger />
        )
      }
    >
      {step === 'confirm' ? (
        <div className="space-y-3 text-sm">
          <p>{t.rich('deleteDialog.body', { b: () => <span className="break-all font-medium">{webhook.url}</span> })}</p>
          <StepErrors step={code} error={error} />
        </div>
      ) : (
        <CodeStepForm step={code} error={error} onSubmit={submit} />
      )}
    </Dialog>
  );
}
