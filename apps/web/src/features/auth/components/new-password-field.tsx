import { useId } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { TextField } from '../../../components/ui/field.tsx';
import { useCommonPasswords } from '../common-passwords.ts';
import { PasswordRules } from './password-rules.tsx';
import { useT } from '../../../lib/i18n.ts';
import { authMessages } from '../messages.ts';

/** A new password with its rules below it, ticked as the user types (the common-password list loads meanwhile). */
export function NewPasswordField({
  label,
  value,
  email,
  error,
  registration,
  autoFocus,
}: {
  label?: string;
  value: string;
  email: string;
  error?: string;
  registration: UseFormRegisterReturn;
  autoFocus?: boolean;
}) {
  const t = useT(authMessages);
  const rulesId = useId();
  const isCommon = useCommonPasswords();
  return (
    <div className="space-y-2">
      <TextField
        label={label ?? t('newPassword')}
        type="password"
        autoComplete="new-password"
        autoFocus={autoFocus}
        error={error}
        describedBy={rulesId}
        {...registration}
      />
      <PasswordRules id={rulesId} password={value} email={email} isCommon={isCommon} />
    </div>
  );
}
