import { Check, Circle, X } from 'lucide-react';
import { PASSWORD_RULES, passwordChecks, type CommonPasswordList } from '@portal/contract/auth';
import { cn } from '../../../components/ui/cn.ts';
import { localizeMessage, useT } from '../../../lib/i18n.ts';
import { authMessages } from '../messages.ts';

/**
 * The rules of a new password, ticked as the user types: met (a tick), not met yet (a circle), broken (a cross: the
 * password holds the e-mail address or is a common one), and "checking" while the common-password list loads.
 */
export function PasswordRules({ id, password, email, isCommon }: { id?: string; password: string; email: string; isCommon?: CommonPasswordList }) {
  const t = useT(authMessages);
  const checks = passwordChecks(password, email, isCommon);
  return (
    <ul id={id} className="space-y-1 text-xs" aria-label={t('rules.label')} data-testid="password-rules">
      {PASSWORD_RULES.map((rule) => {
        const met = password ? checks[rule.id] : false;
        const definite = rule.id === 'notEmail' || rule.id === 'notCommon';
        const state = met === true ? 'met' : met === undefined ? 'checking' : definite && password ? 'broken' : 'open';
        const Icon = state === 'met' ? Check : state === 'broken' ? X : Circle;
        return (
          <li
            key={rule.id}
            data-rule={rule.id}
            data-state={state}
            className={cn('flex items-center gap-2', state === 'met' ? 'text-success' : state === 'broken' ? 'text-danger' : 'text-muted')}
          >
            <Icon className={cn('size-3.5 shrink-0', state === 'open' || state === 'checking' ? 'opacity-60' : '')} aria-hidden="true" />
            <span>
              {localizeMessage(rule.label)}
              <span className="sr-only"> ({t(`rules.${state}`)})</span>
            </span>
          </li>
        );
      })}
    </ul>
  );
}
