import { Copy } from 'lucide-react';
import { useState } from 'react';
import { DEFAULT_CURRENCY_NETWORK, type Coin, type Network } from '@portal/contract/domain';
import { coinNetworkLabel } from '@portal/contract/labels';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { SearchableSelect } from '../../../components/ui/searchable-select.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { QrCode } from '../../../components/ui/qr-code.tsx';
import { useAssignDepositAddress, useDepositAddresses } from '../api/deposit-address.ts';
import { chooseCoin, coins, currencyNetworkOf, networksFor, storeSelection, storedSelection, type TopUpSelection } from '../top-up.ts';

function CopyRow({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div>
      <p className="text-xs font-medium uppercase tracking-wide text-muted">{label}</p>
      <div className="mt-1 flex items-center gap-2 rounded-lg border border-line bg-canvas px-3 py-2">
        <code data-testid={testId} className="min-w-0 flex-1 break-all font-mono text-sm">
          {value}
        </code>
        <Button
          variant="ghost"
          size="sm"
          aria-label={`Copy ${label.toLowerCase()}`}
          onClick={() => void navigator.clipboard?.writeText(value).then(() => toast.show(`${label} copied`))}
        >
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
    <Dialog open={open} onOpenChange={onOpenChange} title="Top up balance" width={500}>
      {reason && (
        <Alert tone="warning" className="mb-4 text-sm">
          {reason}
        </Alert>
      )}
      <p className="text-sm">Only send {coinNetworkLabel(coin, network)} to this wallet using its native blockchain to top up your balance</p>
      <div className="mt-4 grid grid-cols-2 gap-3">
        <div>
          <p className="mb-1 text-xs font-medium text-muted">Coin</p>
          <SearchableSelect
            label="Coin"
            variant={b2b ? 'b2b' : 'default'}
            options={coins().map((c) => ({ value: c, label: c }))}
            value={coin}
            onChange={(c) => update(chooseCoin(selection, c as Coin))}
          />
        </div>
        <div>
          <p className="mb-1 text-xs font-medium text-muted">Network</p>
          <SearchableSelect
            label="Network"
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
            Demo address: do not send funds
          </p>
          <p className="mt-0.5">This address was made up for the demo. Nobody holds its key: anything sent to it is lost.</p>
        </Alert>
      )}
      <div className="mt-5 flex justify-center">
        {address.data ? (
          <QrCode value={address.data.address} size={180} label={`QR code of the ${coin} ${network} deposit address`} />
        ) : (
          <div className="flex items-center justify-center rounded-lg border border-dashed border-line text-xs text-muted" style={{ width: 198, height: 198 }}>
            {address.isPending ? 'Loading...' : 'Address not found'}
          </div>
        )}
      </div>
      <div className="mt-5 space-y-3">
        {address.isPending ? (
          <p className="text-sm text-muted">Loading...</p>
        ) : address.data ? (
          <>
            <CopyRow label="Wallet address" value={address.data.address} testId="deposit-address" />
            {address.data.tag && <CopyRow label="Tag" value={address.data.tag} testId="deposit-tag" />}
          </>
        ) : canAssign ? (
          <div className="space-y-3 rounded-lg border border-line bg-canvas px-3 py-3 text-sm">
            <p className="text-muted">You have no {coinNetworkLabel(coin, network)} deposit address yet.</p>
            <Button loading={assign.isPending} onClick={() => assign.mutate({ currency: coin, network })}>
              Get a {coinNetworkLabel(coin, network)} address
            </Button>
            {assign.isError && <Alert tone="danger">{assign.error.message}</Alert>}
          </div>
        ) : (
          <p className="rounded-lg border border-line bg-canvas px-3 py-2 text-sm text-muted">Address not found</p>
        )}
      </div>
      <div className="mt-5 rounded-lg border border-warning/20 bg-warning-soft px-3 py-2.5 text-xs text-warning">
        <p className="font-semibold">Only send {coinNetworkLabel(coin, network)} to this address</p>
        <p className="mt-0.5">Sending any other digital asset through the {coinNetworkLabel(coin, network)} will result in permanent loss</p>
      </div>
    </Dialog>
  );
}
