import { MailCheck } from 'lucide-react';
import { Alert } from './ui/alert.tsx';
import { Button } from './ui/button.tsx';
import { OtpInput } from './ui/otp-input.tsx';

/**
 * The e-mailed code step of a change: where the code went, the six-digit field, and a way to get a new code. The
 * dialog that holds it sends the first code when it moves to this step.
 */
export function CodeStep({
  sentTo,
  code,
  onCodeChange,
  error,
  sendError,
  resending,
  onResend,
}: {
  sentTo: string | undefined;
  code: string;
  onCodeChange(code: string): void;
  error?: string;
  sendError?: string;
  resending: boolean;
  onResend(): void;
}) {
  return (
    <div className="space-y-4">
      <div className="flex items-start gap-3 rounded-lg border border-brand-600/20 bg-brand-50 px-3 py-3 text-sm text-brand-800" data-testid="code-sent-to">
        <MailCheck className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <p>
          {sentTo ? (
            <>
              We sent a six-digit code to <span className="font-semibold">{sentTo}</span>. It is valid for 10 minutes and can be used once.
            </>
          ) : (
            'Sending a six-digit code to your e-mail address...'
          )}
        </p>
      </div>
      {sendError && <Alert tone="danger">{sendError}</Alert>}
      <OtpInput label="Verification code" value={code} onChange={onCodeChange} error={error} autoFocus />
      <p className="text-xs text-muted">
        No e-mail?{' '}
        <Button variant="ghost" size="sm" className="h-auto px-1 py-0 font-semibold text-brand-800 underline underline-offset-2" loading={resending} onClick={onResend}>
          Send a new code
        </Button>
      </p>
    </div>
  );
}
