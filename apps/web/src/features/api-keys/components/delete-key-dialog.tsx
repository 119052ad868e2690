import type { ApiKey } from '@portal/contract/api-keys';
import { ErrorAlert } from '../../../components/ui/alert.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { useT } from '../../../lib/i18n.ts';
import { useDeleteApiKey } from '../api/delete-api-key.ts';
import { apiKeysMessages } from '../messages.ts';
import { DialogButtons } from './dialog-buttons.tsx';

export function DeleteKeyDialog({ apiKey, onClose }: { apiKey: ApiKey | undefined; onClose: () => void }) {
  const t = useT(apiKeysMessages);
  const remove = useDeleteApiKey();
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <Dialog open={apiKey !== undefined} onOpenChange={(open) => !open && close()} title={t('deleteDialog.title')} width={460}>
      <p className="text-sm">{t.rich('deleteDialog.body', { b: () => <span className="font-semibold">{apiKey?.name}</span> })}</p>
      <ErrorAlert error={remove.error} className="mt-4" />
      <DialogButtons
        onCancel={close}
        label={t('deleteDialog.submit')}
        busy={remove.isPending}
        danger
        onAct={() =>
          apiKey &&
          remove.mutate(apiKey.apiKey, {
            onSuccess: () => {
              toast.show(t('deleteDialog.toast'));
              close();
            },
          })
        }
        className="mt-6"
      />
    </Dialog>
  );
}
