import type { SettlementWallet } from '@portal/contract/wallets';
import { formatDate } from '../../../lib/format.ts';

/** What a person checks before approving or removing a wallet: the address in full, coins, network, who added it. */
export function WalletDetails({ wallet }: { wallet: SettlementWallet }) {
  const rows: [string, React.ReactNode][] = [
    [
      'Address',
      <code key="a" className="break-all font-mono text-[13px]" data-testid="review-address">
        {wallet.address}
      </code>,
    ],
    ['Network', wallet.network],
    ['Currencies', wallet.currencies.join(', ')],
    ...(wallet.network === 'XLM' ? ([['Memo', wallet.tag ?? 'None']] as [string, React.ReactNode][]) : []),
    ['Added by', `${wallet.createdByName} · ${formatDate(wallet.createdAt)}`],
    ...(wallet.travelRuleInfo
      ? ([
          ['Owner (travel rule)', wallet.travelRuleInfo.name],
          ['Registration number', wallet.travelRuleInfo.businessRegistrationNumber],
        ] as [string, React.ReactNode][])
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
