import { PASSWORD_MIN_LENGTH } from '@portal/contract/auth';

export function PasswordRules() {
  return (
    <ul className="list-disc space-y-0.5 pl-5 text-xs text-muted">
      <li>At least {PASSWORD_MIN_LENGTH} characters</li>
      <li>Three of: lower-case letters, capitals, digits, symbols</li>
      <li>Not your e-mail address, and not a common password</li>
    </ul>
  );
}
