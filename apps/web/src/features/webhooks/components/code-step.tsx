import { useState } from 'react';
import { OTP_MESSAGES } from '@portal/contract/otp';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { OtpInput } from '../../../components/ui/otp-input.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useSendCode } from '../api/send-code.ts';

/**
 * The e-mailed code a webhook change needs (portal-core §5): `send()` mails it and moves to the code step; the
 * change is then made with the code. A wrong code shows under the field; the user may ask for another.
 */
export function useCodeStep() {
  const sendCode = useSendCode();
  const [sentTo, setSentTo] = useState<string>();
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string>();
  return {
    sentTo,
    code,
    setCode: (value: string) => {
      setCode(value);
      setCodeError(undefined);
    },
    codeError,
    sending: sendCode.isPending,
    sendError: sendCode.error?.message,
    /** mails a code; resolves true once sent */
    async send(): Promise<boolean> {
      try {
        const reply = await sendCode.mutateAsync();
        setSentTo(reply.sentTo);
        setCode('');
        setCodeError(undefined);
        return true;
      } catch {
        return false;
      }
    },
    /** true when the error was about the code (shown under the field) */
    takeError(err: unknown): boolean {
      if (err instanceof ApiError && err.code === 'InvalidOtp') {
        setCodeError(OTP_MESSAGES.invalid);
        return true;
      }
      return false;
    },
    reset() {
      setSentTo(undefined);
      setCode('');
      setCodeError(undefined);
      sendCode.reset();
    },
  };
}
export type CodeStepState = ReturnType<typeof useCodeStep>;

export function CodeStep({ step, error }: { step: CodeStepState; error?: string }) {
  return (
    <div className="space-y-4">
      <p className="text-sm text-ink">
        We sent a six-digit code to <span className="font-medium">{step.sentTo}</span>. It is valid for 10 minutes.
      </p>
      <OtpInput label="Verification code" value={step.code} onChange={step.setCode} error={step.codeError} autoFocus />
      <p className="text-xs text-muted">
        No e-mail?{' '}
        <button type="button" className="font-medium text-brand-700 hover:underline disabled:text-muted" disabled={step.sending} onClick={() => void step.send()}>
          Send a new code
        </button>
      </p>
      {step.sendError && <Alert tone="danger">{step.sendError}</Alert>}
      {error && <Alert tone="danger">{error}</Alert>}
    </div>
  );
}

/** The footer of a code step: back to the form, and the confirming action (enabled once six digits are in). */
export function CodeStepFooter({ step, onBack, confirmLabel, busy, danger = false }: { step: CodeStepState; onBack(): void; confirmLabel: string; busy: boolean; danger?: boolean }) {
  return (
    <>
      <Button variant="secondary" onClick={onBack} disabled={busy}>
        Back
      </Button>
      <Button type="submit" form="webhook-code-form" variant={danger ? 'danger' : 'primary'} loading={busy} disabled={step.code.length !== 6}>
        {confirmLabel}
      </Button>
    </>
  );
}
