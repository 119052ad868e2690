import { MailCheck } from 'lucide-react';
import type { CodeStepState } from '../lib/otp.ts';
import { Alert } from './ui/alert.tsx';
import { Button } from './ui/button.tsx';
import { OtpInput } from './ui/otp-input.tsx';

/**
 * The e-mailed code step of a change: where the code went, the six-digit field (with a wrong code's message under it),
 * and a way to get a new code. The dialog that holds it sends the first code when it moves to this step.
 */
export function CodeStep({ step }: { step: CodeStepState }) {
  return (
    <div className="space-y-4">
      <div className="flex items-start gap-3 rounded-lg border border-brand-600/20 bg-brand-50 px-3 py-3 text-sm text-brand-800" data-testid="code-sent-to">
        <MailCheck className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <p>
          {step.sentTo ? (
            <>
              We sent a six-digit code to <span className="font-semibold">{step.sentTo}</span>. It is valid for 10 minutes and can be used once.
            </>
          ) : (
            'Sending a six-digit code to your e-mail address...'
          )}
        </p>
      </div>
      {step.sendError && <Alert tone="danger">{step.sendError}</Alert>}
      <OtpInput label="Verification code" value={step.code} onChange={step.setCode} error={step.codeError} autoFocus />
      <p className="text-xs text-muted">
        No e-mail?{' '}
        <Button
          variant="ghost"
          size="sm"
          className="h-auto px-1 py-0 font-semibold text-brand-800 underline underline-offset-2"
          loading={step.sending}
          onClick={() => void step.send()}
        >
          Send a new code
        </Button>
      </p>
    </div>
  );
}
