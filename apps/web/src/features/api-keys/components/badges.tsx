import { API_KEY_PERMISSION_LABELS, API_KEY_STATUS_LABELS, IP_STATUS_LABEL, type ApiKeyPermission, type ApiKeyStatus } from '@portal/contract/api-keys';
import { Badge } from '../../../components/ui/badge.tsx';
import { StatusBadge } from '../../../components/ui/status-badge.tsx';

/** Active / Inactive (portal-core §3), with a dot so that the state does not rest on colour alone. */
export function KeyStatusBadge({ status }: { status: ApiKeyStatus }) {
  return <StatusBadge tone={status === 'active' ? 'success' : 'neutral'}>{API_KEY_STATUS_LABELS[status]}</StatusBadge>;
}

export function PermissionChips({ permissions }: { permissions: readonly ApiKeyPermission[] }) {
  return (
    <span className="flex flex-wrap gap-1">
      {permissions.map((p) => (
        <Badge key={p} tone="brand" className="rounded-md">
          {API_KEY_PERMISSION_LABELS[p]}
        </Badge>
      ))}
    </span>
  );
}

export function WhitelistedBadge() {
  return <StatusBadge tone="success">{IP_STATUS_LABEL}</StatusBadge>;
}
