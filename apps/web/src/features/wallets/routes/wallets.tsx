import { can } from '@portal/contract/permissions';
import { Plus, WalletCards } from 'lucide-react';
import { useState } from 'react';
import type { SettlementWallet } from '@portal/contract/wallets';
import { networkName } from '@portal/contract/labels';
import { ErrorAlert } from '../../../components/ui/alert.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { LoadingBlock } from '../../../components/ui/spinner.tsx';
import { Table, Td, Th } from '../../../components/ui/table.tsx';
import { formatDate } from '../../../lib/format.ts';
import { useT } from '../../../lib/i18n.ts';
import { useSettlementWallets } from '../../../lib/partner/settlement-wallets.ts';
import { useSession } from '../../../lib/session/session-store.ts';
import { AddWalletDialog } from '../components/add-wallet-dialog.tsx';
import { DeleteWalletDialog } from '../components/delete-wallet-dialog.tsx';
import { ReviewWalletDialog } from '../components/review-wallet-dialog.tsx';
import { WalletStatusDialog } from '../components/wallet-status-dialog.tsx';
import { walletsMessages, type WalletsKey } from '../messages.ts';
import { reasonText } from '../reasons.ts';
import { STATUS_TONES, WALLETS_PAGE_SIZE, clampStartIndex, pageRows, walletRows, type WalletTableRow } from '../wallet-rows.ts';

type Action = { kind: 'review' | 'delete' | 'enabled' | 'disabled'; wallet: SettlementWallet };
const LIVE = new Set(['pending_approval', 'pending_screening', 'enabled', 'disabled']);

function Status({ wallet }: { wallet: SettlementWallet }) {
  const t = useT(walletsMessages);
  return (
    <div className="space-y-1">
      <Badge tone={STATUS_TONES[wallet.status]}>{t(`status.${wallet.status}`)}</Badge>
      {wallet.reason && <p className="min-w-[10rem] max-w-[16rem] whitespace-normal text-xs text-muted">{reasonText(t, wallet.reason)}</p>}
    </div>
  );
}

function Actions({ wallet, canManage, onAction }: { wallet: SettlementWallet; canManage: boolean; onAction: (a: Action) => void }) {
  const t = useT(walletsMessages);
  const buttons: { label: WalletsKey; kind: Action['kind']; danger?: boolean }[] = [];
  if (wallet.canReview) buttons.push({ label: 'action.review', kind: 'review' });
  if (canManage && wallet.status === 'enabled') buttons.push({ label: 'action.disable', kind: 'disabled' });
  if (canManage && wallet.status === 'disabled') buttons.push({ label: 'action.enable', kind: 'enabled' });
  if (canManage && LIVE.has(wallet.status)) buttons.push({ label: 'action.delete', kind: 'delete', danger: true });
  if (buttons.length === 0) return <span className="text-xs text-muted">—</span>;
  return (
    <div className="flex flex-wrap justify-end gap-1 md:flex-nowrap">
      {buttons.map((b) =>
        b.kind === 'review' ? (
          <Button key={b.kind} size="sm" onClick={() => onAction({ kind: b.kind, wallet })}>
            {t(b.label)}
          </Button>
        ) : (
          <button
            key={b.kind}
            type="button"
            onClick={() => onAction({ kind: b.kind, wallet })}
            className={cn(
              'h-8 whitespace-nowrap rounded-lg px-2.5 text-xs font-medium',
              b.danger ? 'text-danger hover:bg-danger-soft' : 'text-ink hover:bg-black/5',
            )}
          >
            {t(b.label)}
          </button>
        ),
      )}
    </div>
  );
}

function Address({ row }: { row: WalletTableRow }) {
  const t = useT(walletsMessages);
  return (
    <div className="min-w-0">
      <code className="block break-all font-mono text-[13px]" title={row.wallet.address}>
        {row.wallet.address}
      </code>
      {row.memo && <p className="mt-0.5 text-xs text-muted">{t('table.memo', { memo: row.memo })}</p>}
    </div>
  );
}

/**
 * Wallet Management (/wallets): the settlement wallets, one row per currency, paged by 10; adding one (with the
 * e-mailed code), enabling and disabling, deleting with a reason, and reviewing those another person added.
 */
export function WalletsScreen() {
  const t = useT(walletsMessages);
  const wallets = useSettlementWallets();
  const role = useSession((s) => s.user?.role);
  const canManage = can(role, 'manageWallets');
  const [adding, setAdding] = useState(false);
  const [action, setAction] = useState<Action | null>(null);
  const [showDeleted, setShowDeleted] = useState(false);
  const [start, setStart] = useState(1);
  const rows = walletRows(wallets.data?.wallets ?? [], { showDeleted });
  const startIndex = clampStartIndex(start, rows.length);
  const page = pageRows(rows, startIndex);
  const close = () => setAction(null);

  return (
    <div>
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          canManage && (
            <Button onClick={() => setAdding(true)}>
              <Plus className="size-4" aria-hidden="true" />
              {t('add')}
            </Button>
          )
        }
      />
      <ErrorAlert error={wallets.error} />
      <Card>
        <div className="flex flex-wrap items-center justify-between gap-3 border-b border-line px-4 py-3">
          <h2 className="text-base font-semibold">{t('table.title')}</h2>
          <label className="flex items-center gap-2 text-sm text-muted">
            <input type="checkbox" className="size-4 accent-brand-700" checked={showDeleted} onChange={(e) => setShowDeleted(e.target.checked)} />
            {t('table.showDeleted')}
          </label>
        </div>
        {wallets.isPending ? (
          <LoadingBlock label={t('table.loading')} />
        ) : rows.length === 0 ? (
          <div className="flex flex-col items-center gap-3 px-6 py-14 text-center">
            <WalletCards className="size-8 text-muted" aria-hidden="true" />
            <p className="font-medium">{t('table.emptyTitle')}</p>
            <p className="max-w-sm text-sm text-muted">{t('table.emptyBody')}</p>
            {canManage && (
              <Button variant="secondary" onClick={() => setAdding(true)}>
                {t('add')}
              </Button>
            )}
          </div>
        ) : (
          <>
            {/* phones: one card per row */}
            <ul className="divide-y divide-line md:hidden" aria-label={t('table.title')}>
              {page.map((row) => (
                <li key={row.key} className="space-y-2 px-4 py-3" data-testid="wallet-row">
                  <div className="flex flex-wrap items-center justify-between gap-3">
                    <p className="font-semibold">
                      {row.currency} <span className="font-normal text-muted">· {networkName(row.wallet.network)}</span>
                    </p>
                    <Status wallet={row.wallet} />
                  </div>
                  <Address row={row} />
                  <p className="text-xs text-muted">{t('table.addedBy', { name: row.wallet.createdByName, date: formatDate(row.wallet.createdAt) })}</p>
                  <Actions wallet={row.wallet} canManage={canManage} onAction={setAction} />
                </li>
              ))}
            </ul>
            <div className="hidden md:block">
              <Table>
                <thead>
                  <tr>
                    <Th>{t('table.currency')}</Th>
                    <Th>{t('table.network')}</Th>
                    <Th>{t('table.address')}</Th>
                    <Th>{t('table.status')}</Th>
                    <Th>{t('table.createdBy')}</Th>
                    <Th>{t('table.added')}</Th>
                    <Th>
                      <span className="sr-only">{t('table.actions')}</span>
                    </Th>
                  </tr>
                </thead>
                <tbody>
                  {page.map((row) => (
                    <tr key={row.key} data-testid="wallet-row" className="align-top">
                      <Td className="font-medium">{row.currency}</Td>
                      <Td>{networkName(row.wallet.network)}</Td>
                      <Td className="w-full min-w-[16rem] whitespace-normal">
                        <Address row={row} />
                      </Td>
                      <Td>
                        <Status wallet={row.wallet} />
                      </Td>
                      <Td>{row.wallet.createdByName}</Td>
                      <Td className="text-muted">{formatDate(row.wallet.createdAt)}</Td>
                      <Td>
                        <Actions wallet={row.wallet} canManage={canManage} onAction={setAction} />
                      </Td>
                    </tr>
                  ))}
                </tbody>
              </Table>
            </div>
            <div className="flex items-center justify-between gap-3 border-t border-line px-4 py-3 text-sm">
              <p className="text-muted" data-testid="wallets-page-summary">
                {t('table.page', { from: startIndex, to: Math.min(rows.length, startIndex + WALLETS_PAGE_SIZE - 1), total: rows.length })}
              </p>
              <div className="flex gap-2">
                <Button variant="secondary" size="sm" disabled={startIndex <= 1} onClick={() => setStart(startIndex - WALLETS_PAGE_SIZE)}>
                  {t('table.previous')}
                </Button>
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={startIndex + WALLETS_PAGE_SIZE > rows.length}
                  onClick={() => setStart(startIndex + WALLETS_PAGE_SIZE)}
                >
                  {t('table.next')}
                </Button>
              </div>
            </div>
          </>
        )}
      </Card>
      {adding && <AddWalletDialog open onOpenChange={setAdding} />}
      {action?.kind === 'review' && <ReviewWalletDialog wallet={action.wallet} open onOpenChange={(o) => !o && close()} />}
      {action?.kind === 'delete' && <DeleteWalletDialog wallet={action.wallet} open onOpenChange={(o) => !o && close()} />}
      {(action?.kind === 'enabled' || action?.kind === 'disabled') && (
        <WalletStatusDialog wallet={action.wallet} to={action.kind} open onOpenChange={(o) => !o && close()} />
      )}
    </div>
  );
}
