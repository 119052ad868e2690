import { useId } from 'react';
import { inputClass } from './field.tsx';
import { cn } from './cn.ts';
import { commonMessages } from '../../lib/common-messages.ts';
import { localizeMessage, useT } from '../../lib/i18n.ts';

/**
 * The six-digit code: one field (so that pasting a whole code and the phone's one-time-code suggestion work),
 * digits only, set wide so that it reads as six boxes.
 */
export function OtpInput({
  value,
  onChange,
  error,
  label,
  autoFocus,
  allowRecovery = false,
}: {
  value: string;
  onChange: (value: string) => void;
  error?: string;
  label?: string;
  autoFocus?: boolean;
  /** accept a recovery code (xxxxx-xxxxx) instead */
  allowRecovery?: boolean;
}) {
  const t = useT(commonMessages);
  const id = useId();
  const clean = (raw: string) => (allowRecovery ? raw.replace(/[^a-zA-Z0-9-]/g, '').slice(0, 11) : raw.replace(/\D/g, '').slice(0, 6));
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        {label ?? t('otp.label')}
      </label>
      <input
        id={id}
        value={value}
        onChange={(e) => onChange(clean(e.target.value))}
        inputMode={allowRecovery ? 'text' : 'numeric'}
        autoComplete="one-time-code"
        autoFocus={autoFocus}
        maxLength={allowRecovery ? 11 : 6}
        placeholder={allowRecovery ? 'xxxxx-xxxxx' : '000000'}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={cn(inputClass, 'h-12 text-center font-mono text-xl tracking-[0.5em] placeholder:tracking-[0.5em]')}
      />
      {error && (
        <p id={`${id}-error`} role="alert" className="text-xs text-danger">
          {localizeMessage(error)}
        </p>
      )}
    </div>
  );
}
