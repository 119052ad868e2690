import { Copy } from 'lucide-react';
import { useState } from 'react';
import { DEFAULT_CURRENCY_NETWORK, type Coin, type Network } from '@portal/contract/domain';
import { HIGH_VALUE_PAY_IN_HOURS, PAYMENT_ARRIVAL_HOURS } from '@portal/contract/settlements';
import { coinNetworkLabel } from '@portal/contract/labels';
import { Alert, ErrorAlert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { SearchableSelect } from '../../../components/ui/searchable-select.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { QrCode } from '../../../components/ui/qr-code.tsx';
import { useT } from '../../../lib/i18n.ts';
import { useAssignDepositAddress, useDepositAddresses } from '../api/deposit-address.ts';
import { balanceMessages } from '../messages.ts';
import { chooseCoin, coins, currencyNetworkOf, networksFor, storeSelection, storedSelection, type TopUpSelection } from '../top-up.ts';

/** A value to copy: its label, the value in full, and a button (`copyLabel` its name, `copied` the toast once done). */
function CopyRow({ label, copyLabel, copied, value, testId }: { label: string; copyLabel: string; copied: string; value: string; testId: string }) {
  return (
    <div>
      <p className="text-xs font-medium uppercase tracking-wide text-muted">{label}</p>
      <div className="mt-1 flex items-center gap-2 rounded-lg border border-line bg-canvas px-3 py-2">
        <code data-testid={testId} className="min-w-0 flex-1 break-all font-mono text-sm">
          {value}
        </code>
        <Button variant="ghost" size="sm" aria-label={copyLabel} onClick={() => void navigator.clipboard?.writeText(value).then(() => toast.show(copied))}>
          <Copy className="size-4" aria-hidden="true" />
        </Button>
      </div>
    </div>
  );
}

/**
 * Top-up: the deposit address for the chosen coin and network, as text and QR code (portal-core §2, §4). Where the
 * partner has none and the user may get one (admin, treasury; the server says which networks can be served), a
 * button asks for it; otherwise 'Address not found'. A demo address is marked: nothing sent to it can be recovered.
 */
export function TopUpDialog({
  open,
  onOpenChange,
  b2b,
  reason,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  b2b: boolean;
  /** why it opened (the low-balance banner says the limit) */ reason?: string;
}) {
  const t = useT(balanceMessages);
  const [selection, setSelection] = useState<TopUpSelection>(() => storedSelection());
  const currencyNetwork = currencyNetworkOf(selection) ?? DEFAULT_CURRENCY_NETWORK;
  const list = useDepositAddresses();
  const assign = useAssignDepositAddress();
  const address = { isPending: list.isPending, data: list.data?.addresses.find((a) => a.currencyNetwork === currencyNetwork) ?? null };
  const canAssign = list.data?.assignable.includes(currencyNetwork) ?? false;
  const { coin, network } = selection;
  const update = (next: TopUpSelection) => {
    setSelection(next);
    storeSelection(next);
    assign.reset();
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={t('topUpDialog.title')} width={500}>
      {reason && (
        <Alert tone="warning" className="mb-4 text-sm">
          {reason}
        </Alert>
      )}
      <p className="text-sm">{t('topUpDialog.onlySendNative', { asset: coinNetworkLabel(coin, network) })}</p>
      <div className="mt-4 grid grid-cols-2 gap-3">
        <div>
          <p className="mb-1 text-xs font-medium text-muted">{t('topUpDialog.coin')}</p>
          <SearchableSelect
            label={t('topUpDialog.coin')}
            variant={b2b ? 'b2b' : 'default'}
            options={coins().map((c) => ({ value: c, label: c }))}
            value={coin}
            onChange={(c) => update(chooseCoin(selection, c as Coin))}
          />
        </div>
        <div>
          <p className="mb-1 text-xs font-medium text-muted">{t('topUpDialog.network')}</p>
          <SearchableSelect
            label={t('topUpDialog.network')}
            variant={b2b ? 'b2b' : 'default'}
            options={networksFor(coin).map((n) => ({ value: n, label: n }))}
            value={network}
            onChange={(n) => update({ coin, network: n as Network })}
          />
        </div>
      </div>
      {address.data?.demo && (
        // above the QR code, so that it is read before anyone scans
        <Alert tone="danger" className="mt-4 text-xs">
          <p className="font-semibold" data-testid="demo-address-warning">
            {t('topUpDialog.demoTitle')}
          </p>
          <p className="mt-0.5">{t('topUpDialog.demoBody')}</p>
        </Alert>
      )}
      <div className="mt-5 flex justify-center">
        {address.data ? (
          <QrCode value={address.data.address} size={180} label={t('topUpDialog.qr', { coin, network })} />
        ) : (
          <div className="flex items-center justify-center rounded-lg border border-dashed border-line text-xs text-muted" style={{ width: 198, height: 198 }}>
            {address.isPending ? t('loading') : t('topUpDialog.notFound')}
          </div>
        )}
      </div>
      <div className="mt-5 space-y-3">
        {address.isPending ? (
          <p className="text-sm text-muted">{t('loading')}</p>
        ) : address.data ? (
          <>
            <CopyRow
              label={t('topUpDialog.walletAddress')}
              copyLabel={t('topUpDialog.copyWalletAddress')}
              copied={t('topUpDialog.walletAddressCopied')}
              value={address.data.address}
              testId="deposit-address"
            />
            {address.data.tag && (
              <CopyRow
                label={t('topUpDialog.tag')}
                copyLabel={t('topUpDialog.copyTag')}
                copied={t('topUpDialog.tagCopied')}
                value={address.data.tag}
                testId="deposit-tag"
              />
            )}
          </>
        ) : canAssign ? (
          <div className="space-y-3 rounded-lg border border-line bg-canvas px-3 py-3 text-sm">
            <p className="text-muted">{t('topUpDialog.noAddress', { asset: coinNetworkLabel(coin, network) })}</p>
            <Button loading={assign.isPending} onClick={() => assign.mutate({ currency: coin, network })}>
              {t('topUpDialog.getAddress', { asset: coinNetworkLabel(coin, network) })}
            </Button>
            <ErrorAlert error={assign.error} />
          </div>
        ) : (
          <p className="rounded-lg border border-line bg-canvas px-3 py-2 text-sm text-muted">{t('topUpDialog.notFound')}</p>
        )}
      </div>
      <div className="mt-5 text-xs text-muted" data-testid="top-up-times">
        <p className="font-semibold text-ink">{t('topUpDialog.timesTitle')}</p>
        <p className="mt-0.5">{t('topUpDialog.highValue', HIGH_VALUE_PAY_IN_HOURS)}</p>
        <p>{t('topUpDialog.arrival', PAYMENT_ARRIVAL_HOURS)}</p>
      </div>
      <div className="mt-3 rounded-lg border border-warning/20 bg-warning-soft px-3 py-2.5 text-xs text-warning">
        <p className="font-semibold">{t('topUpDialog.warningTitle', { asset: coinNetworkLabel(coin, network) })}</p>
        <p className="mt-0.5">{t('topUpDialog.warningBody', { asset: coinNetworkLabel(coin, network) })}</p>
      </div>
    </Dialog>
  );
}
