import { can } from '@portal/contract/permissions';
import { Plus, ShieldAlert } from 'lucide-react';
import { useState } from 'react';
import type { Webhook } from '@portal/contract/webhooks';
import { Alert, ErrorAlert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { LoadingBlock } from '../../../components/ui/spinner.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useT } from '../../../lib/i18n.ts';
import { useSession } from '../../../lib/session/session-store.ts';
import { useSendTestEvent } from '../api/send-test.ts';
import { useWebhooks } from '../api/webhooks.ts';
import { DeleteWebhookDialog } from '../components/delete-dialog.tsx';
import { DeliveryList } from '../components/delivery-list.tsx';
import { EndpointList } from '../components/endpoint-list.tsx';
import { RollSecretDialog } from '../components/roll-secret-dialog.tsx';
import { WebhookDialog } from '../components/webhook-dialog.tsx';
import { webhooksMessages } from '../messages.ts';

/**
 * /webhooks: the partner's endpoints and their deliveries. Every user reads them; admins add, edit, delete and roll secrets of
 * endpoints (each with an e-mailed code), send test events and resend deliveries. The server decides whether webhooks are on for
 * the partner (flag webhooksManagementEnabled); when not, the screen says so.
 */
export function WebhooksScreen() {
  const t = useT(webhooksMessages);
  const canEdit = can(
    useSession((s) => s.user?.role),
    'manageWebhooks',
  );
  const webhooks = useWebhooks();
  const sendTest = useSendTestEvent();
  const [dialog, setDialog] = useState<{ webhook?: Webhook } | undefined>();
  const [deleting, setDeleting] = useState<Webhook>();
  const [rolling, setRolling] = useState<Webhook>();
  const refused = webhooks.error instanceof ApiError && webhooks.error.status === 403 ? webhooks.error : undefined;
  const list = webhooks.data?.webhooks ?? [];

  const test = (w: Webhook) =>
    sendTest.mutate(w.id, {
      onSuccess: () => toast.show(t('testSent')),
      onError: (err) => toast.show(err.message),
    });

  return (
    <div>
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          canEdit && list.length > 0 ? (
            <Button onClick={() => setDialog({})}>
              <Plus className="size-4" aria-hidden="true" />
              {t('endpoints.add')}
            </Button>
          ) : undefined
        }
      />
      {refused ? (
        <Card className="flex flex-col items-center gap-3 px-6 py-16 text-center">
          <ShieldAlert className="size-10 text-muted" aria-hidden="true" />
          <p className="font-semibold">{refused.message}</p>
          <p className="max-w-sm text-sm text-muted">{t('notEnabledHelp')}</p>
        </Card>
      ) : (
        <>
          {!canEdit && (
            <Alert tone="info" className="mb-6">
              {t('readOnly')}
            </Alert>
          )}
          <Card className="mb-6">
            <div className="border-b border-line px-5 py-4">
              <h2 className="text-base font-semibold">{t('endpoints.title')}</h2>
              <p className="text-sm text-muted">{t('endpoints.body')}</p>
            </div>
            {webhooks.isPending ? (
              <LoadingBlock label={t('loading')} />
            ) : webhooks.isError ? (
              <ErrorAlert error={webhooks.error} className="m-5" />
            ) : (
              <EndpointList
                webhooks={list}
                canEdit={canEdit}
                testing={sendTest.isPending ? sendTest.variables : undefined}
                onAdd={() => setDialog({})}
                onEdit={(webhook) => setDialog({ webhook })}
                onDelete={setDeleting}
                onTest={test}
                onRoll={setRolling}
              />
            )}
          </Card>
          {webhooks.isSuccess && list.length > 0 && (
            <Card>
              <DeliveryList webhooks={list} canEdit={canEdit} />
            </Card>
          )}
        </>
      )}
      <WebhookDialog open={dialog !== undefined} onOpenChange={(open) => !open && setDialog(undefined)} webhook={dialog?.webhook} />
      <DeleteWebhookDialog webhook={deleting} onClose={() => setDeleting(undefined)} />
      <RollSecretDialog webhook={rolling} onClose={() => setRolling(undefined)} />
    </div>
  );
}
