import { Copy, KeyRound } from 'lucide-react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { useT } from '../../../lib/i18n.ts';
import { webhooksMessages } from '../messages.ts';

const code = (text: string) => <code className="font-mono text-xs">{text}</code>;

/** The new endpoint's signing secret, shown this once, with a copy button and how to verify with it. */
export function SecretPanel({ secret }: { secret: string }) {
  const t = useT(webhooksMessages);
  return (
    <div className="space-y-4">
      <Alert tone="warning">{t('secret.warning')}</Alert>
      <div>
        <p className="text-xs font-medium uppercase tracking-wide text-muted">{t('secret.label')}</p>
        <div className="mt-1 flex items-center gap-2 rounded-lg border border-line bg-canvas px-3 py-2">
          <KeyRound className="size-4 shrink-0 text-muted" aria-hidden="true" />
          <code data-testid="webhook-secret" className="min-w-0 flex-1 break-all font-mono text-sm">
            {secret}
          </code>
          <Button
            variant="secondary"
            size="sm"
            aria-label={t('secret.copyLabel')}
            onClick={() =>
              void navigator.clipboard?.writeText(secret).then(
                () => toast.show(t('secret.copied')),
                () => toast.show(t('secret.copyFailed')),
              )
            }
          >
            <Copy className="size-4" aria-hidden="true" />
            {t('copy')}
          </Button>
        </div>
      </div>
      <div className="rounded-lg border border-line p-3 text-sm">
        <p className="font-medium">{t('secret.verifyTitle')}</p>
        <p className="mt-1 text-muted">{t.rich('secret.verifyBody', { c: code })}</p>
        <pre className="mt-2 overflow-x-auto rounded-md bg-ink p-3 font-mono text-xs text-white">
          {`import { Webhook } from 'standardwebhooks';\nconst event = new Webhook(secret).verify(rawBody, headers);`}
        </pre>
      </div>
    </div>
  );
}
