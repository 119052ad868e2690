import { KeyRound, Plus } from 'lucide-react';
import type { ApiKey } from '@portal/contract/api-keys';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { LoadingBlock } from '../../../components/ui/spinner.tsx';
import { Table, Td, Th } from '../../../components/ui/table.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { formatDate, formatDay } from '../../../lib/format.ts';
import { useApiKeys } from '../api/list-api-keys.ts';
import { useUpdateApiKeyStatus } from '../api/update-api-key-status.ts';
import { KeyStatusBadge, PermissionChips } from './badges.tsx';

type Actions = { onRoll: (key: ApiKey) => void; onDelete: (key: ApiKey) => void; onCreate: () => void };

/** The key id as the table shows it: its prefix (the whole id is in the title and in the dialogs). */
const keyPrefix = (apiKey: string) => `${apiKey.slice(0, 11)}…`;

function Expiry({ k }: { k: ApiKey }) {
  if (!k.expiry) return <span className="text-muted">Never</span>;
  return k.expired ? <span className="font-medium text-danger">Expired {formatDay(k.expiry)}</span> : <span>{formatDay(k.expiry)}</span>;
}

function RollNote({ k }: { k: ApiKey }) {
  if (!k.previousSecretExpiresAt) return null;
  return <p className="mt-1 max-w-44 whitespace-normal text-xs text-warning">Old secret works until {formatDate(k.previousSecretExpiresAt)}</p>;
}

function KeyActions({ k, onRoll, onDelete }: { k: ApiKey } & Pick<Actions, 'onRoll' | 'onDelete'>) {
  const update = useUpdateApiKeyStatus();
  const next = k.status === 'active' ? 'disabled' : 'active';
  const toggle = () =>
    update.mutate(
      { apiKey: k.apiKey, status: next },
      { onSuccess: () => toast.show(next === 'active' ? `${k.name} enabled` : `${k.name} disabled`), onError: (err) => toast.show(err.message) },
    );
  return (
    <div className="flex gap-2">
      <Button variant="secondary" size="sm" loading={update.isPending} onClick={toggle} aria-label={`${next === 'active' ? 'Enable' : 'Disable'} ${k.name}`}>
        {next === 'active' ? 'Enable' : 'Disable'}
      </Button>
      <Button variant="secondary" size="sm" onClick={() => onRoll(k)} aria-label={`Roll ${k.name}`}>
        Roll
      </Button>
      <Button variant="ghost" size="sm" className="text-danger hover:bg-danger-soft" onClick={() => onDelete(k)} aria-label={`Delete ${k.name}`}>
        Delete
      </Button>
    </div>
  );
}

/** The partner's keys: a table on wide screens, a card per key on a phone. */
export function ApiKeysList({ onRoll, onDelete, onCreate }: Actions) {
  const keys = useApiKeys();
  if (keys.isPending) return <LoadingBlock label="Loading..." />;
  if (keys.isError)
    return (
      <Alert tone="danger" className="m-5">
        {keys.error.message}
      </Alert>
    );
  const list = keys.data.apiKeys;
  if (list.length === 0) {
    return (
      <div className="flex flex-col items-center gap-2 px-6 py-14 text-center" data-testid="api-keys-empty">
        <span className="flex size-12 items-center justify-center rounded-full bg-brand-50">
          <KeyRound className="size-6 text-brand-700" aria-hidden="true" />
        </span>
        <p className="mt-2 font-semibold">No API keys yet</p>
        <p className="max-w-sm text-sm text-muted">Create a key to call the partner API from your servers.</p>
        <Button className="mt-3" onClick={onCreate}>
          <Plus className="size-4" aria-hidden="true" />
          Create API key
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
              <Th>Name</Th>
              <Th>Key</Th>
              <Th>Permissions</Th>
              <Th>Status</Th>
              <Th>Created</Th>
              <Th>Last used</Th>
              <Th>Expires</Th>
              <Th>
                <span className="sr-only">Actions</span>
              </Th>
            </tr>
          </thead>
          <tbody>
            {list.map((k) => (
              <tr key={k.apiKey} data-testid="api-key-row">
                <Td className="max-w-52 whitespace-normal font-medium">{k.name}</Td>
                <Td>
                  <code className="font-mono text-xs" title={k.apiKey}>
                    {keyPrefix(k.apiKey)}
                  </code>
                  <p className="mt-0.5 font-mono text-xs text-muted">secret …{k.secretHint}</p>
                </Td>
                <Td className="whitespace-normal">
                  <PermissionChips permissions={k.permissions} />
                </Td>
                <Td>
                  <KeyStatusBadge status={k.status} />
                  <RollNote k={k} />
                </Td>
                <Td>{formatDay(k.createdAt)}</Td>
                <Td>{k.lastUsedAt ? formatDate(k.lastUsedAt) : <span className="text-muted">Never</span>}</Td>
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
                <p className="break-words font-medium">{k.name}</p>
                <code className="font-mono text-xs text-muted">{keyPrefix(k.apiKey)}</code>
              </div>
              <KeyStatusBadge status={k.status} />
            </div>
            <PermissionChips permissions={k.permissions} />
            <dl className="grid grid-cols-3 gap-2 text-xs">
              <div>
                <dt className="text-muted">Created</dt>
                <dd className="mt-0.5">{formatDay(k.createdAt)}</dd>
              </div>
              <div>
                <dt className="text-muted">Last used</dt>
                <dd className="mt-0.5">{k.lastUsedAt ? formatDate(k.lastUsedAt) : 'Never'}</dd>
              </div>
              <div>
                <dt className="text-muted">Expires</dt>
                <dd className="mt-0.5">
                  <Expiry k={k} />
                </dd>
              </div>
            </dl>
            <RollNote k={k} />
            <KeyActions k={k} onRoll={onRoll} onDelete={onDelete} />
          </li>
        ))}
      </ul>
    </>
  );
}
