import { MailCheck } from 'lucide-react';
import type { CodeStepState } from '../lib/otp.ts';
import { Alert } from './ui/alert.tsx';
import { Button } from './ui/button.tsx';
import { OtpInput } from './ui/otp-input.tsx';
import { commonMessages } from '../lib/common-messages.ts';
import { useT } from '../lib/i18n.ts';

/**
 * The e-mailed code step of a change: where the code went, the six-digit field (with a wrong code's message under it),
 * and a way to get a new code. The dialog that holds it sends the first code when it moves to this step.
 */
export function CodeStep({ step }: { step: CodeStepState }) {
  const t = useT(commonMessages);
  return (
    <div className="space-y-4">
      <div className="flex items-start gap-3 rounded-lg border border-brand-600/20 bg-brand-50 px-3 py-3 text-sm text-brand-800" data-testid="code-sent-to">
        <MailCheck className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <p>
          {step.sentTo ? t.rich('codeStep.sent', { email: step.sentTo, b: (text) => <span className="font-semibold">{text}</span> }) : t('codeStep.sending')}
        </p>
      </div>
      {step.sendError && <Alert tone="danger">{step.sendError}</Alert>}
      <OtpInput label={t('codeStep.label')} value={step.code} onChange={step.setCode} error={step.codeError} autoFocus />
      <p className="text-xs text-muted">
        {t('codeStep.noEmail')}{' '}
        <Button
          variant="ghost"
          size="sm"
          className="h-auto px-1 py-0 font-semibold text-brand-800 underline underline-offset-2"
          loading={step.sending}
          onClick={() => void step.send()}
        >
          {t('codeStep.resend')}
        </Button>
      </p>
    </div>
  );
}
