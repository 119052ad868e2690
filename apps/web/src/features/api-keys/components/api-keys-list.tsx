import { KeyRound, Plus } from 'lucide-react';
import type { ReactNode } from 'react';
import type { ApiKey } from '@portal/contract/api-keys';
import { ErrorAlert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { LoadingBlock } from '../../../components/ui/spinner.tsx';
import { Table, Td, Th } from '../../../components/ui/table.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { formatDate, formatDay } from '../../../lib/format.ts';
import { useT } from '../../../lib/i18n.ts';
import { useApiKeys } from '../api/list-api-keys.ts';
import { useUpdateApiKeyStatus } from '../api/update-api-key-status.ts';
import { apiKeysMessages } from '../messages.ts';
import { KeyModeBadge, KeyStatusBadge, PermissionChips } from './badges.tsx';

type Actions = { onRoll: (key: ApiKey) => void; onDelete: (key: ApiKey) => void; onCreate: () => void };

/**
 * The key id as the table shows it: its kind and mode (ak_live_, ak_test_, or ak_ for a key made before modes) and
 * 8 hex digits of it (the whole id is in the title and in the dialogs).
 */
const keyPrefix = (apiKey: string) => `${apiKey.slice(0, (/^ak_(?:live_|test_)?/.exec(apiKey)?.[0].length ?? 3) + 8)}…`;

function Expiry({ k }: { k: ApiKey }) {
  const t = useT(apiKeysMessages);
  if (!k.expiry) return <span className="text-muted">{t('never')}</span>;
  return k.expired ? <span className="font-medium text-danger">{t('expiredOn', { date: formatDay(k.expiry) })}</span> : <span>{formatDay(k.expiry)}</span>;
}

function RollNote({ k }: { k: ApiKey }) {
  const t = useT(apiKeysMessages);
  if (!k.previousSecretExpiresAt) return null;
  return <p className="mt-1 max-w-44 whitespace-normal text-xs text-warning">{t('oldSecretUntil', { date: formatDate(k.previousSecretExpiresAt) })}</p>;
}

/** One of a key's dates on its phone card: the column's name over the value. */
function CardFact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-muted">{label}</dt>
      <dd className="mt-0.5">{children}</dd>
    </div>
  );
}

function KeyActions({ k, onRoll, onDelete }: { k: ApiKey } & Pick<Actions, 'onRoll' | 'onDelete'>) {
  const t = useT(apiKeysMessages);
  const update = useUpdateApiKeyStatus();
  const next = k.status === 'active' ? 'disabled' : 'active';
  const toggle = () =>
    update.mutate(
      { apiKey: k.apiKey, status: next },
      {
        onSuccess: () => toast.show(t(next === 'active' ? 'toast.enabled' : 'toast.disabled', { name: k.name })),
        onError: (err) => toast.show(err.message),
      },
    );
  return (
    <div className="flex flex-wrap gap-2">
      <Button
        variant="secondary"
        size="sm"
        loading={update.isPending}
        onClick={toggle}
        aria-label={t(next === 'active' ? 'action.enableNamed' : 'action.disableNamed', { name: k.name })}
      >
        {t(next === 'active' ? 'action.enable' : 'action.disable')}
      </Button>
      <Button variant="secondary" size="sm" onClick={() => onRoll(k)} aria-label={t('action.rollNamed', { name: k.name })}>
        {t('action.roll')}
      </Button>
      <Button
        variant="ghost"
        size="sm"
        className="text-danger hover:bg-danger-soft"
        onClick={() => onDelete(k)}
        aria-label={t('action.deleteNamed', { name: k.name })}
      >
        {t('action.delete')}
      </Button>
    </div>
  );
}

/** The partner's keys: a table on wide screens, a card per key on a phone. */
export function ApiKeysList({ onRoll, onDelete, onCreate }: Actions) {
  const t = useT(apiKeysMessages);
  const keys = useApiKeys();
  if (keys.isPending) return <LoadingBlock label={t('loading')} />;
  if (keys.isError) return <ErrorAlert error={keys.error} className="m-5" />;
  const list = keys.data.apiKeys;
  if (list.length === 0) {
    return (
      <div className="flex flex-col items-center gap-2 px-6 py-14 text-center" data-testid="api-keys-empty">
        <span className="flex size-12 items-center justify-center rounded-full bg-brand-50">
          <KeyRound className="size-6 text-brand-700" aria-hidden="true" />
        </span>
        <p className="mt-2 font-semibold">{t('empty.title')}</p>
        <p className="max-w-sm text-sm text-muted">{t('empty.body')}</p>
        <Button className="mt-3" onClick={onCreate}>
          <Plus className="size-4" aria-hidden="true" />
          {t('create')}
        </Button>
      </div>
    );
  }
  return (
    <>
      <div className="hidden md:block">
        <Table>
          <thead>
            <tr>
              <Th>{t('col.name')}</Th>
              <Th>{t('col.key')}</Th>
              <Th>{t('col.permissions')}</Th>
              <Th>{t('col.status')}</Th>
              <Th>{t('col.created')}</Th>
              <Th>{t('col.lastUsed')}</Th>
              <Th>{t('col.expires')}</Th>
              <Th>
                <span className="sr-only">{t('col.actions')}</span>
              </Th>
            </tr>
          </thead>
          <tbody>
            {list.map((k) => (
              <tr key={k.apiKey} data-testid="api-key-row">
                <Td className="max-w-52 whitespace-normal">
                  <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
                    <span className="font-medium">{k.name}</span>
                    <KeyModeBadge mode={k.mode} />
                  </span>
                </Td>
                <Td>
                  <code className="font-mono text-xs" title={k.apiKey}>
                    {keyPrefix(k.apiKey)}
                  </code>
                  <p className="mt-0.5 font-mono text-xs text-muted">{t('secretHint', { hint: k.secretHint })}</p>
                </Td>
                <Td className="whitespace-normal">
                  <PermissionChips permissions={k.permissions} />
                </Td>
                <Td>
                  <KeyStatusBadge status={k.status} />
                  <RollNote k={k} />
                </Td>
                <Td>{formatDay(k.createdAt)}</Td>
                <Td>{k.lastUsedAt ? formatDate(k.lastUsedAt) : <span className="text-muted">{t('never')}</span>}</Td>
                <Td>
                  <Expiry k={k} />
                </Td>
                <Td>
                  <KeyActions k={k} onRoll={onRoll} onDelete={onDelete} />
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      </div>
      <ul className="divide-y divide-line md:hidden">
        {list.map((k) => (
          <li key={k.apiKey} className="space-y-3 px-5 py-4" data-testid="api-key-card">
            <div className="flex items-start justify-between gap-3">
              <div className="min-w-0">
                <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
                  <span className="min-w-0 break-words font-medium">{k.name}</span>
                  <KeyModeBadge mode={k.mode} />
                </p>
                <code className="font-mono text-xs text-muted">{keyPrefix(k.apiKey)}</code>
              </div>
              <KeyStatusBadge status={k.status} />
            </div>
            <PermissionChips permissions={k.permissions} />
            <dl className="grid grid-cols-3 gap-2 text-xs">
              <CardFact label={t('col.created')}>{formatDay(k.createdAt)}</CardFact>
              <CardFact label={t('col.lastUsed')}>{k.lastUsedAt ? formatDate(k.lastUsedAt) : t('never')}</CardFact>
              <CardFact label={t('col.expires')}>
                <Expiry k={k} />
              </CardFact>
            </dl>
            <RollNote k={k} />
            <KeyActions k={k} onRoll={onRoll} onDelete={onDelete} />
          </li>
        ))}
      </ul>
    </>
  );
}
