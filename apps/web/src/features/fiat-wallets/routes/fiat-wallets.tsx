import { can } from '@portal/contract/permissions';
import { ArrowLeft, Landmark } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Alert, ErrorAlert } from '../../../components/ui/alert.tsx';
import { buttonClass } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { NoticeCard } from '../../../components/ui/notice-card.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { RowSkeletons } from '../../../components/ui/skeleton.tsx';
import { useT } from '../../../lib/i18n.ts';
import { useFiatWallets } from '../../../lib/partner/fiat-wallets.ts';
import { useProfile } from '../../../lib/partner/profile.ts';
import { useSession } from '../../../lib/session/session-store.ts';
import { useUpdateFiatWallet } from '../api/update-fiat-wallet.ts';
import { WalletRow } from '../components/wallet-row.tsx';
import { fiatWalletsMessages } from '../messages.ts';

function Skeleton() {
  return <RowSkeletons rows={3} mark="size-10" name="w-48" end="w-32" />;
}

/** /balance/fiat-wallets: the partner's fiat wallets with their balances and the payment and collection switches. */
export function FiatWalletsScreen() {
  const t = useT(fiatWalletsMessages);
  const profile = useProfile();
  const enabled = profile.data?.partner.fiatWalletsEnabled ?? false;
  const wallets = useFiatWallets(enabled);
  const role = useSession((s) => s.user?.role);
  const canEdit = can(role, 'manageFiatWallets');
  const update = useUpdateFiatWallet();
  const [saving, setSaving] = useState<{ id: number; which: 'payment' | 'collection' }>();

  const header = (
    <PageHeader
      title={t('title')}
      description={t('description')}
      actions={
        <Link to="/balance" className={buttonClass('secondary')}>
          <ArrowLeft className="size-4" aria-hidden="true" />
          {t('back')}
        </Link>
      }
    />
  );

  if (profile.isSuccess && !enabled) {
    return (
      <div>
        {header}
        <NoticeCard icon={Landmark} title={t('notEnabled.title')} body={t('notEnabled.body')} />
      </div>
    );
  }

  return (
    <div>
      {header}
      {!canEdit && (
        <Alert tone="info" className="mb-4">
          {t('readOnly')}
        </Alert>
      )}
      <ErrorAlert error={wallets.error} className="mb-4" />
      <Card>
        {wallets.isPending ? (
          <Skeleton />
        ) : (
          <ul className="divide-y divide-line" aria-label={t('list')}>
            {(wallets.data ?? []).map((w) => (
              <WalletRow
                key={w.id}
                wallet={w}
                canEdit={canEdit}
                saving={update.isPending && saving?.id === w.id ? saving.which : undefined}
                onChange={(change) => {
                  setSaving({ id: w.id, which: change.paymentEnabled !== undefined ? 'payment' : 'collection' });
                  update.mutate({ id: w.id, ...change });
                }}
              />
            ))}
          </ul>
        )}
      </Card>
      <p className="mt-3 text-xs text-muted">
        {t('defaultNote')} {t('ledgerNote')}
      </p>
    </div>
  );
}
