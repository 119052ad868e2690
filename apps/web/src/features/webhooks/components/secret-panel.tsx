import { Copy, KeyRound } from 'lucide-react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { toast } from '../../../components/ui/toast-store.ts';

/** The new endpoint's signing secret, shown this once, with a copy button and how to verify with it. */
export function SecretPanel({ secret }: { secret: string }) {
  return (
    <div className="space-y-4">
      <Alert tone="warning">Copy this signing secret now and keep it on your server. For your security it is not shown again.</Alert>
      <div>
        <p className="text-xs font-medium uppercase tracking-wide text-muted">Signing secret</p>
        <div className="mt-1 flex items-center gap-2 rounded-lg border border-line bg-canvas px-3 py-2">
          <KeyRound className="size-4 shrink-0 text-muted" aria-hidden="true" />
          <code data-testid="webhook-secret" className="min-w-0 flex-1 break-all font-mono text-sm">
            {secret}
          </code>
          <Button
            variant="secondary"
            size="sm"
            aria-label="Copy signing secret"
            onClick={() =>
              void navigator.clipboard?.writeText(secret).then(
                () => toast.show('Signing secret copied'),
                () => toast.show('Could not copy: select the secret and copy it'),
              )
            }
          >
            <Copy className="size-4" aria-hidden="true" />
            Copy
          </Button>
        </div>
      </div>
      <div className="rounded-lg border border-line p-3 text-sm">
        <p className="font-medium">Verify every request</p>
        <p className="mt-1 text-muted">
          Each request carries <code className="font-mono text-xs">webhook-id</code>, <code className="font-mono text-xs">webhook-timestamp</code> and{' '}
          <code className="font-mono text-xs">webhook-signature</code> headers (Standard Webhooks). Check them with the{' '}
          <code className="font-mono text-xs">standardwebhooks</code> library before you trust the body, and use{' '}
          <code className="font-mono text-xs">webhook-id</code> to ignore an event you already handled.
        </p>
        <pre className="mt-2 overflow-x-auto rounded-md bg-ink p-3 font-mono text-xs text-white">
          {`import { Webhook } from 'standardwebhooks';\nconst event = new Webhook(secret).verify(rawBody, headers);`}
        </pre>
      </div>
    </div>
  );
}
