import { useState, type ReactNode } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';

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
  const [error, setError] = useState<string>();
  const confirm = () => {
    setError(undefined);
    onConfirm().then(onClose, (err: unknown) => setError(err instanceof Error ? err.message : 'something went wrong'));
  };
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={title}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
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
