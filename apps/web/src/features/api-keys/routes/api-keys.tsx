import { ExternalLink, Plus } from 'lucide-react';
import { useState } from 'react';
import type { ApiKey } from '@portal/contract/api-keys';
import { Button, buttonClass } from '../../../components/ui/button.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { Card } from '../../../components/ui/card.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { useT } from '../../../lib/i18n.ts';
import { useProfile } from '../../../lib/partner/profile.ts';
import { ApiKeysList } from '../components/api-keys-list.tsx';
import { CreateKeyDialog } from '../components/create-key-dialog.tsx';
import { DeleteKeyDialog } from '../components/delete-key-dialog.tsx';
import { IpAddressesSection } from '../components/ip-addresses-section.tsx';
import { RollKeyDialog } from '../components/roll-key-dialog.tsx';
import { apiKeysMessages } from '../messages.ts';

/**
 * /api-keys (admin, B2B, apiKeysManagementEnabled: the guard and the server both say so): the partner's keys, and
 * beside them the allowed IP addresses (whitelistedIpsEnabled), where a developer looks for both.
 */
export function ApiKeysScreen() {
  const t = useT(apiKeysMessages);
  const [creating, setCreating] = useState(false);
  const [rolling, setRolling] = useState<ApiKey>();
  const [deleting, setDeleting] = useState<ApiKey>();
  const ipsEnabled = useProfile().data?.featureFlags.whitelistedIpsEnabled ?? false;
  return (
    <div>
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          <>
            <a href="/api/docs" target="_blank" rel="noreferrer" className={cn(buttonClass('secondary'), 'whitespace-nowrap')}>
              <ExternalLink className="size-4" aria-hidden="true" />
              <span className="sm:hidden">{t('docs.short')}</span>
              <span className="hidden sm:inline">{t('docs.long')}</span>
            </a>
            <Button className="whitespace-nowrap" onClick={() => setCreating(true)}>
              <Plus className="size-4" aria-hidden="true" />
              {t('create')}
            </Button>
          </>
        }
      />
      <div className="space-y-6">
        <Card>
          <ApiKeysList onCreate={() => setCreating(true)} onRoll={setRolling} onDelete={setDeleting} />
        </Card>
        {ipsEnabled && <IpAddressesSection />}
      </div>
      <CreateKeyDialog open={creating} onOpenChange={setCreating} />
      <RollKeyDialog apiKey={rolling} onClose={() => setRolling(undefined)} />
      <DeleteKeyDialog apiKey={deleting} onClose={() => setDeleting(undefined)} />
    </div>
  );
}
