import { Button } from '../../../components/ui/button.tsx';
import { useT } from '../../../lib/i18n.ts';
import type { CodeStepState } from '../../../lib/otp.ts';
import { webhooksMessages } from '../messages.ts';

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
      <Button type="submit" form="webhook-code-form" variant={danger ? 'danger' : 'primary'} loading={busy} disabled={step.code.length !== 6}>
        {confirmLabel}
      </Button>
    </>
  );
}
