import { useState, type FormEvent } from 'react';
import type { Webhook } from '@portal/contract/webhooks';
import { CodeStep } from '../../../components/code-step.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { useCodeStep } from '../../../lib/otp.ts';
import { useDeleteWebhook } from '../api/delete-webhook.ts';
import { CodeStepFooter } from './code-step.tsx';

/** Deletes an endpoint after the e-mailed code. */
export function DeleteWebhookDialog({ webhook, onClose }: { webhook: Webhook | undefined; onClose: () => void }) {
  return webhook ? <DeleteBody webhook={webhook} onClose={onClose} /> : null;
}

function DeleteBody({ webhook, onClose }: { webhook: Webhook; onClose: () => void }) {
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
          toast.show('Webhook endpoint deleted');
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
      title="Delete webhook endpoint"
      description={step === 'code' ? 'Confirm with the code we e-mailed you.' : undefined}
      footer={
        step === 'confirm' ? (
          <>
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button
              variant="danger"
              loading={code.sending}
              onClick={() =>
                void code.send({ action: 'webhook.delete', target: { id: webhook.id } }, (err) => setError(err.message)).then((sent) => sent && setStep('code'))
              }
            >
              Continue
            </Button>
          </>
        ) : (
          <CodeStepFooter step={code} onBack={() => setStep('confirm')} confirmLabel="Delete endpoint" busy={remove.isPending} danger />
        )
      }
    >
      {step === 'confirm' ? (
        <div className="space-y-3 text-sm">
          <p>
            Events will no longer be sent to <span className="break-all font-medium">{webhook.url}</span>, and its delivery history is deleted. This cannot be
            undone.
          </p>
          {code.sendError && <Alert tone="danger">{code.sendError}</Alert>}
          {error && <Alert tone="danger">{error}</Alert>}
        </div>
      ) : (
        <form id="webhook-code-form" onSubmit={submit} noValidate>
          <div className="space-y-4">
            <CodeStep step={code} />
            {error && <Alert tone="danger">{error}</Alert>}
          </div>
        </form>
      )}
    </Dialog>
  );
}
