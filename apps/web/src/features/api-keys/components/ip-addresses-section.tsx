import { Globe, Plus } from 'lucide-react';
import { useState } from 'react';
import { ErrorAlert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { LoadingBlock } from '../../../components/ui/spinner.tsx';
import { Table, Td, Th } from '../../../components/ui/table.tsx';
import { useT } from '../../../lib/i18n.ts';
import { useIpAddresses } from '../api/list-ip-addresses.ts';
import { apiKeysMessages } from '../messages.ts';
import { WhitelistedBadge } from './badges.tsx';
import { AddIpDialog, DeleteIpDialog, EditIpDialog } from './ip-address-dialogs.tsx';

/**
 * Allowed IP addresses (portal-core §3: IP Address, Status 'Whitelisted', Action), beside the keys they restrict.
 * Adding, changing and removing an address needs the code e-mailed for that change.
 */
export function IpAddressesSection() {
  const t = useT(apiKeysMessages);
  const ips = useIpAddresses(true);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<string>();
  const [editing, setEditing] = useState<string>();
  const list = ips.data?.ipAddresses ?? [];
  return (
    <Card>
      <div className="flex flex-wrap items-start justify-between gap-3 border-b border-line px-5 py-4">
        <div className="max-w-2xl">
          <h2 className="text-base font-semibold">{t('ip.title')}</h2>
          <p className="mt-1 text-sm text-muted" data-testid="ip-addresses-explainer">
            {list.length > 0 ? t('ip.explainerSome') : t('ip.explainerNone')}
          </p>
        </div>
        <Button variant="secondary" onClick={() => setAdding(true)}>
          <Plus className="size-4" aria-hidden="true" />
          {t('ip.add')}
        </Button>
      </div>
      {ips.isPending ? (
        <LoadingBlock label={t('loading')} minHeight={120} />
      ) : ips.isError ? (
        <ErrorAlert error={ips.error} className="m-5" />
      ) : list.length === 0 ? (
        <div className="flex items-center gap-3 px-5 py-6 text-sm text-muted" data-testid="ip-addresses-empty">
          <Globe className="size-5 shrink-0 text-brand-700" aria-hidden="true" />
          {t('ip.empty')}
        </div>
      ) : (
        <Table>
          <thead>
            <tr>
              <Th className="pl-5">{t('ip.col.address')}</Th>
              <Th>{t('ip.col.status')}</Th>
              <Th className="pr-5 text-right">{t('ip.col.action')}</Th>
            </tr>
          </thead>
          <tbody>
            {list.map((ip) => (
              <tr key={ip.ipAddress} data-testid="ip-address-row">
                <Td className="whitespace-normal break-all pl-5">
                  <span className="font-mono text-[13px]">{ip.ipAddress}</span>
                  {ip.label && <span className="block text-xs text-muted">{ip.label}</span>}
                </Td>
                <Td>
                  <WhitelistedBadge />
                </Td>
                <Td className="pr-5 text-right">
                  <div className="flex flex-wrap justify-end gap-1">
                    <Button variant="ghost" size="sm" onClick={() => setEditing(ip.ipAddress)} aria-label={t('ip.editNamed', { ip: ip.ipAddress })}>
                      {t('ip.edit')}
                    </Button>
                    <Button
                      variant="ghost"
                      size="sm"
                      className="text-danger hover:bg-danger-soft"
                      onClick={() => setRemoving(ip.ipAddress)}
                      aria-label={t('ip.deleteNamed', { ip: ip.ipAddress })}
                    >
                      {t('ip.delete')}
                    </Button>
                  </div>
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <AddIpDialog open={adding} onOpenChange={setAdding} />
      <EditIpDialog ipAddress={editing} label={list.find((ip) => ip.ipAddress === editing)?.label ?? ''} onClose={() => setEditing(undefined)} />
      <DeleteIpDialog ipAddress={removing} isLast={list.length === 1} onClose={() => setRemoving(undefined)} />
    </Card>
  );
}
