import { ACCOUNT_NUMBER_TYPE_LABELS, RAMP_TYPE_LABELS, channelTypeLabel, channelTypeName, formatSettlementTime, type Channel, type PaymentNetwork } from '@portal/contract/coverage';
import { StackBody, StackCell, StackHead, StackRow, StackTable, StackTh } from '../../../components/ui/stack-table.tsx';
import { StatusBadge } from '../../../components/ui/status-badge.tsx';
import { formatMoney } from '../../../lib/format.ts';
import { reachOf } from '../coverage.ts';

const Direction = ({ ramp }: { ramp: Channel['rampType'] }) => (
  <span className={ramp === 'deposit' ? 'text-success' : 'text-brand-700'}>
    <span aria-hidden="true">{ramp === 'deposit' ? '↓ ' : '↑ '}</span>
    {RAMP_TYPE_LABELS[ramp]}
  </span>
);

/** Under the channel's name: the product label when it says more (EFT is a 'Bank Transfer'), else the type's code. */
const subtitle = (c: Channel) => (channelTypeLabel(c.channelType).toLowerCase() === channelTypeName(c.channelType).toLowerCase() ? c.channelType : channelTypeLabel(c.channelType));

function availability(c: Channel): string {
  if (c.apiStatus === 'active' && c.widgetStatus === 'active') return 'API and widget';
  if (c.apiStatus === 'active') return 'API only';
  if (c.widgetStatus === 'active') return 'Widget only';
  return 'Not offered now';
}

/** Channels of a country: type, direction, currency, limits, fee, settlement time and status. */
export function ChannelsTable({ channels }: { channels: Channel[] }) {
  return (
    <StackTable aria-label="Channels">
      <StackHead>
        <StackTh>Channel</StackTh>
        <StackTh>Direction</StackTh>
        <StackTh className="text-right">Limits per transaction</StackTh>
        <StackTh className="text-right">Fee</StackTh>
        <StackTh>Settlement</StackTh>
        <StackTh>Status</StackTh>
      </StackHead>
      <StackBody>
        {channels.map((c) => (
          <StackRow key={c.id} data-testid="channel-row">
            <StackCell label="Channel" className="order-1">
              <p className="font-medium text-ink">{channelTypeName(c.channelType)}</p>
              <p className="text-xs text-muted">
                {subtitle(c)} · {c.currency}
              </p>
            </StackCell>
            <StackCell label="Direction" className="order-2 font-medium">
              <Direction ramp={c.rampType} />
            </StackCell>
            <StackCell label="Limits per transaction" className="order-3 tabular-nums sm:text-right">
              <p className="text-ink">
                {formatMoney(c.min)} – {formatMoney(c.max)}
              </p>
              <p className="text-xs text-muted">{c.currency}</p>
            </StackCell>
            <StackCell label="Fee" className="order-4 tabular-nums sm:text-right">
              <p className="text-ink">{formatMoney(c.feeLocal, c.currency)}</p>
              <p className="text-xs text-muted">≈ {formatMoney(c.feeUSD, 'USD')}</p>
            </StackCell>
            <StackCell label="Settlement" className="order-5">
              <p className="text-ink">{formatSettlementTime(c.estimatedSettlementTime)}</p>
              <p className="text-xs text-muted">{c.settlementType === 'instant' ? 'Automatic' : 'Manual review'}</p>
            </StackCell>
            <StackCell label="Status" className="order-6">
              <StatusBadge tone="success">Active</StatusBadge>
              <p className="mt-1 text-xs text-muted">{availability(c)}</p>
            </StackCell>
          </StackRow>
        ))}
      </StackBody>
    </StackTable>
  );
}

/** Networks of a country: name, the account number it takes, how it is reached, and whether it is paused. */
export function NetworksTable({ networks, channels }: { networks: PaymentNetwork[]; channels: Channel[] }) {
  return (
    <StackTable aria-label="Networks">
      <StackHead>
        <StackTh>Network</StackTh>
        <StackTh>Account number</StackTh>
        <StackTh>Reached through</StackTh>
        <StackTh>Status</StackTh>
      </StackHead>
      <StackBody>
        {networks.map((n) => {
          const reach = reachOf(n, channels);
          return (
            <StackRow key={n.id} data-testid="network-row">
              <StackCell wide className="order-1">
                <p className="font-medium text-ink">{n.name}</p>
                <p className="font-mono text-[11px] text-muted">{n.code}</p>
              </StackCell>
              <StackCell label="Account number" className="order-2">
                {ACCOUNT_NUMBER_TYPE_LABELS[n.accountNumberType]}
              </StackCell>
              <StackCell label="Reached through" wide className="order-4">
                {reach.length === 0 ? (
                  <span className="text-xs text-muted">No channel right now</span>
                ) : (
                  <ul className="flex flex-wrap gap-1.5">
                    {reach.map((r) => (
                      <li key={r.type} className="rounded-md bg-canvas px-2 py-0.5 text-xs text-ink ring-1 ring-inset ring-line">
                        {channelTypeName(r.type)} · {r.ramps.map((ramp) => RAMP_TYPE_LABELS[ramp]).join(', ')}
                      </li>
                    ))}
                  </ul>
                )}
              </StackCell>
              <StackCell label="Status" className="order-3">
                {n.tempDisabledFor.length > 0 ? (
                  <StatusBadge tone="warning">Paused for {n.tempDisabledFor.map((r) => (r === 'deposit' ? 'deposits' : 'withdrawals')).join(' and ')}</StatusBadge>
                ) : (
                  <StatusBadge tone="success">Active</StatusBadge>
                )}
              </StackCell>
            </StackRow>
          );
        })}
      </StackBody>
    </StackTable>
  );
}
