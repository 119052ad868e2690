import { TriangleAlert } from 'lucide-react';
import type { ApiKeyWithSecret } from '@portal/contract/api-keys';
import { Button } from '../../../components/ui/button.tsx';
import { useT } from '../../../lib/i18n.ts';
import { apiKeysMessages } from '../messages.ts';
import { CopyField } from './copy-field.tsx';

/**
 * The key's secret, shown this once (after creating or rolling the key). It lives only in this component: closing
 * the dialog drops it, and the server never sends it again.
 */
export function SecretReveal({ apiKey, onDone, rolled = false }: { apiKey: ApiKeyWithSecret; onDone: () => void; rolled?: boolean }) {
  const t = useT(apiKeysMessages);
  return (
    <div className="space-y-4">
      <div role="status" className="flex gap-3 rounded-lg border border-warning/25 bg-warning-soft px-3 py-3 text-sm text-warning">
        <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <div>
          <p className="font-semibold">{t('secret.warning')}</p>
          <p className="mt-0.5">
            {t('secret.store')}
            {rolled && ` ${t('secret.rolled')}`}
          </p>
        </div>
      </div>
      <CopyField label={t('secret.secretKey')} copyLabel={t('secret.copySecretKey')} value={apiKey.secretKey} testId="secret-key" secret />
      <CopyField label={t('secret.keyId')} copyLabel={t('secret.copyKeyId')} value={apiKey.apiKey} testId="key-id" />
      {apiKey.permissions.includes('widget') && (
        <CopyField label={t('secret.publicKey')} copyLabel={t('secret.copyPublicKey')} value={apiKey.publicKey} testId="public-key" />
      )}
      <p className="text-xs text-muted">
        {t.rich('secret.signWith', {
          a: (text) => (
            <a className="font-medium text-brand-700 underline" href="/api/docs" target="_blank" rel="noreferrer">
              {text}
            </a>
          ),
        })}
      </p>
      <div className="flex justify-end pt-2">
        <Button onClick={onDone}>{t('done')}</Button>
      </div>
    </div>
  );
}
