import { TriangleAlert } from 'lucide-react';
import type { ApiKeyWithSecret } from '@portal/contract/api-keys';
import { Button } from '../../../components/ui/button.tsx';
import { CopyField } from './copy-field.tsx';

/**
 * The key's secret, shown this once (after creating or rolling the key). It lives only in this component: closing
 * the dialog drops it, and the server never sends it again.
 */
export function SecretReveal({ apiKey, onDone, rolled = false }: { apiKey: ApiKeyWithSecret; onDone: () => void; rolled?: boolean }) {
  return (
    <div className="space-y-4">
      <div role="status" className="flex gap-3 rounded-lg border border-warning/25 bg-warning-soft px-3 py-3 text-sm text-warning">
        <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <div>
          <p className="font-semibold">Copy the secret key now: it is shown only once.</p>
          <p className="mt-0.5">
            Store it in your server's secret store. If it is lost, roll the key to get a new secret.
            {rolled && ' Update your servers before the old secret stops working.'}
          </p>
        </div>
      </div>
      <CopyField label="Secret key" value={apiKey.secretKey} testId="secret-key" secret />
      <CopyField label="Key ID" value={apiKey.apiKey} testId="key-id" />
      {apiKey.permissions.includes('widget') && <CopyField label="Public key" value={apiKey.publicKey} testId="public-key" />}
      <p className="text-xs text-muted">
        Sign each request with the secret key: see the{' '}
        <a className="font-medium text-brand-700 underline" href="/api/docs" target="_blank" rel="noreferrer">
          API documentation
        </a>{' '}
        for examples in curl and Node.
      </p>
      <div className="flex justify-end pt-2">
        <Button onClick={onDone}>Done</Button>
      </div>
    </div>
  );
}
