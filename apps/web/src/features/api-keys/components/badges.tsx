import type { ApiKeyMode, ApiKeyPermission, ApiKeyStatus } from '@portal/contract/api-keys';
import { Badge } from '../../../components/ui/badge.tsx';
import { StatusBadge } from '../../../components/ui/status-badge.tsx';
import { useT } from '../../../lib/i18n.ts';
import { apiKeysMessages } from '../messages.ts';

/** Active / Inactive (portal-core §3), with a dot so that the state does not rest on colour alone. */
export function KeyStatusBadge({ status }: { status: ApiKeyStatus }) {
  const t = useT(apiKeysMessages);
  return <StatusBadge tone={status === 'active' ? 'success' : 'neutral'}>{t(`status.${status}`)}</StatusBadge>;
}

/**
 * Live / Test beside a key's name: a test key (sandbox data, never real money) in amber so that it is not taken for a
 * live one, a live key in grey; the word says it too, so that the mode does not rest on colour alone.
 */
export function KeyModeBadge({ mode }: { mode: ApiKeyMode }) {
  const t = useT(apiKeysMessages);
  return (
    <Badge tone={mode === 'test' ? 'warning' : 'neutral'} className="rounded-md">
      {t(`mode.${mode}`)}
    </Badge>
  );
}

export function PermissionChips({ permissions }: { permissions: readonly ApiKeyPermission[] }) {
  const t = useT(apiKeysMessages);
  return (
    <span className="flex flex-wrap gap-1">
      {permissions.map((p) => (
        <Badge key={p} tone="brand" className="rounded-md">
          {t(`permission.${p}`)}
        </Badge>
      ))}
    </span>
  );
}

export function WhitelistedBadge() {
  const t = useT(apiKeysMessages);
  return <StatusBadge tone="success">{t('whitelisted')}</StatusBadge>;
}
