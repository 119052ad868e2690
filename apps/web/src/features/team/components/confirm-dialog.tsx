import { useState, type ReactNode } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { localizeMessage, useT } from '../../../lib/i18n.ts';
import { teamMessages } from '../messages.ts';

type Props = {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  busy: boolean;
  /** runs the action; a thrown error is shown in the dialog */
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
};

/** Asks before an action that cannot be undone from here (remove, reset password, resend). */
export function ConfirmDialog({ title, children, confirmLabel, danger, busy, onConfirm, onClose }: Props) {
  const t = useT(teamMessages);
  const [error, setError] = useState<string>();
  const confirm = () => {
    setError(undefined);
    onConfirm().then(onClose, (err: unknown) => setError(err instanceof Error ? localizeMessage(err.message) : t('failed')));
  };
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={title}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t('cancel')}
          </Button>
          <Button variant={danger ? 'danger' : 'primary'} onClick={confirm} loading={busy}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <div className="space-y-3 text-sm text-ink">
        {error && <Alert tone="danger">{error}</Alert>}
        {children}
      </div>
    </Dialog>
  );
}
