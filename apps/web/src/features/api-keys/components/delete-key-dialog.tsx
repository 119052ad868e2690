import type { ApiKey } from '@portal/contract/api-keys';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { useDeleteApiKey } from '../api/delete-api-key.ts';

export function DeleteKeyDialog({ apiKey, onClose }: { apiKey: ApiKey | undefined; onClose: () => void }) {
  const remove = useDeleteApiKey();
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <Dialog open={apiKey !== undefined} onOpenChange={(open) => !open && close()} title="Delete API key?" width={460}>
      <p className="text-sm">
        Calls signed with <span className="font-semibold">{apiKey?.name}</span> are refused as soon as it is deleted. This cannot be undone.
      </p>
      {remove.isError && (
        <Alert tone="danger" className="mt-4">
          {remove.error.message}
        </Alert>
      )}
      <div className="mt-6 flex justify-end gap-3">
        <Button variant="secondary" onClick={close}>
          Cancel
        </Button>
        <Button
          variant="danger"
          loading={remove.isPending}
          onClick={() =>
            apiKey &&
            remove.mutate(apiKey.apiKey, {
              onSuccess: () => {
                toast.show('API key deleted');
                close();
              },
            })
          }
        >
          Delete key
        </Button>
      </div>
    </Dialog>
  );
}
