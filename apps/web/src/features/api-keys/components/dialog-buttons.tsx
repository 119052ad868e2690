import { Button } from '../../../components/ui/button.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { useT } from '../../../lib/i18n.ts';
import { apiKeysMessages } from '../messages.ts';

/**
 * The buttons that end an API key or IP address dialog: Cancel, then the dialog's own action. The action submits the
 * form it stands in, unless `onAct` is given.
 */
export function DialogButtons({
  onCancel,
  label,
  busy,
  onAct,
  danger = false,
  className,
}: {
  onCancel: () => void;
  label: string;
  busy: boolean;
  onAct?: () => void;
  danger?: boolean;
  className?: string;
}) {
  const t = useT(apiKeysMessages);
  return (
    <div className={cn('flex flex-wrap justify-end gap-3', className)}>
      <Button variant="secondary" onClick={onCancel}>
        {t('cancel')}
      </Button>
      <Button type={onAct ? 'button' : 'submit'} variant={danger ? 'danger' : 'primary'} loading={busy} onClick={onAct}>
        {label}
      </Button>
    </div>
  );
}
