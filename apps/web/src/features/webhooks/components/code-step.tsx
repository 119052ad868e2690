import type { FormEvent } from 'react';
import { CodeStep } from '../../../components/code-step.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { localizeMessage, useT } from '../../../lib/i18n.ts';
import type { CodeStepState } from '../../../lib/otp.ts';
import { webhooksMessages } from '../messages.ts';

/** The code step's form: its footer's confirming button submits it from outside. */
const CODE_FORM = 'webhook-code-form';

/** The body of a webhook change's code step: the e-mailed code, and the change's error under it. */
export function CodeStepForm({ step, error, onSubmit }: { step: CodeStepState; error: string | undefined; onSubmit: (e: FormEvent) => void }) {
  return (
    <form id={CODE_FORM} onSubmit={onSubmit} noValidate>
      <div className="space-y-4">
        <CodeStep step={step} />
        {error && <Alert tone="danger">{error}</Alert>}
      </div>
    </form>
  );
}

/** Under the step before the code: why the code could not be mailed, and the change's own error. */
export function StepErrors({ step, error }: { step: CodeStepState; error: string | undefined }) {
  return (
    <>
      {step.sendError && <Alert tone="danger">{localizeMessage(step.sendError)}</Alert>}
      {error && <Alert tone="danger">{error}</Alert>}
    </>
  );
}

/** The footer of the step before the code: Cancel, and Continue, which mails the code (busy while it goes). */
export function ContinueFooter({
  step,
  onCancel,
  onContinue,
  danger = false,
}: {
  step: CodeStepState;
  onCancel: () => void;
  onContinue: () => void;
  danger?: boolean;
}) {
  const t = useT(webhooksMessages);
  return (
    <>
      <Button variant="secondary" onClick={onCancel}>
        {t('cancel')}
      </Button>
      <Button variant={danger ? 'danger' : 'primary'} loading={step.sending} onClick={onContinue}>
        {t('continue')}
      </Button>
    </>
  );
}

/** The footer of a webhook change's code step: back to the form, and the confirming action (enabled once six digits are in). */
export function CodeStepFooter({
  step,
  onBack,
  confirmLabel,
  busy,
  danger = false,
}: {
  step: CodeStepState;
  onBack: () => void;
  confirmLabel: string;
  busy: boolean;
  danger?: boolean;
}) {
  const t = useT(webhooksMessages);
  return (
    <>
      <Button variant="secondary" onClick={onBack} disabled={busy}>
        {t('back')}
      </Button>
      <Button type="submit" form={CODE_FORM} variant={danger ? 'danger' : 'primary'} loading={busy} disabled={step.code.length !== 6}>
        {confirmLabel}
      </Button>
    </>
  );
}
