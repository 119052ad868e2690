import type { ReactNode } from 'react';
import type { SettlementWallet } from '@portal/contract/wallets';
import { formatDate } from '../../../lib/format.ts';
import { useT } from '../../../lib/i18n.ts';
import { walletsMessages } from '../messages.ts';

/** What a person checks before approving or removing a wallet: the address in full, coins, network, who added it. */
export function WalletDetails({ wallet }: { wallet: SettlementWallet }) {
  const t = useT(walletsMessages);
  const rows: [string, ReactNode][] = [
    [
      t('details.address'),
      <code key="a" className="break-all font-mono text-[13px]" data-testid="review-address">
        {wallet.address}
      </code>,
    ],
    [t('details.network'), wallet.network],
    [t('details.currencies'), wallet.currencies.join(', ')],
    ...(wallet.network === 'XLM' ? ([[t('details.memo'), wallet.tag ?? t('details.none')]] as [string, ReactNode][]) : []),
    [t('details.addedBy'), `${wallet.createdByName} · ${formatDate(wallet.createdAt)}`],
    ...(wallet.travelRuleInfo
      ? ([
          [t('details.owner'), wallet.travelRuleInfo.name],
          [t('details.registration'), wallet.travelRuleInfo.businessRegistrationNumber],
        ] as [string, ReactNode][])
      : []),
  ];
  return (
    <dl className="divide-y divide-line rounded-lg border border-line">
      {rows.map(([label, value]) => (
        <div key={label} className="grid grid-cols-[8.5rem_1fr] gap-3 px-3 py-2.5 text-sm">
          <dt className="text-muted">{label}</dt>
          <dd className="min-w-0 text-ink">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
