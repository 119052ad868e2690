import { ROLES, type Role } from '@portal/contract/domain';
import { roleLabel } from '../../../lib/labels.ts';
import { cn } from '../../../components/ui/cn.ts';
import { useT } from '../../../lib/i18n.ts';
import { teamMessages } from '../messages.ts';

/** The three roles as radio cards, each with what it may do. */
export function RolePicker({ value, onChange, name }: { value: Role; onChange: (role: Role) => void; name: string }) {
  const t = useT(teamMessages);
  return (
    <fieldset className="space-y-2">
      <legend className="mb-1.5 text-sm font-medium text-ink">{t('role')}</legend>
      {ROLES.map((role) => (
        <label
          key={role}
          className={cn(
            'flex cursor-pointer items-start gap-3 rounded-lg border px-3 py-2.5',
            value === role ? 'border-brand-700 bg-brand-50' : 'border-line bg-white hover:bg-canvas',
          )}
        >
          <input type="radio" name={name} value={role} checked={value === role} onChange={() => onChange(role)} className="mt-0.5 size-4 accent-brand-700" />
          <span>
            <span className="block text-sm font-medium text-ink">{roleLabel(role)}</span>
            <span className="block text-xs text-muted">{t(`roleDescriptions.${role}`)}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
