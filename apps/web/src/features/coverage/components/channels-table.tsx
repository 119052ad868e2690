import type { Channel, PaymentNetwork } from '@portal/contract/coverage';
import { StackBody, StackCell, StackHead, StackRow, StackTable, StackTh } from '../../../components/ui/stack-table.tsx';
import { StatusBadge } from '../../../components/ui/status-badge.tsx';
import { formatMoney } from '../../../lib/format.ts';
import { useT, type MessageKey, type Translate } from '../../../lib/i18n.ts';
import type en from '../../../locales/en/coverage.json';
import { channelProductText, channelTypeText, reachOf, settlementTimeText } from '../coverage.ts';
import { coverageMessages } from '../messages.ts';

type T = Translate<typeof en>;

function Direction({ ramp }: { ramp: Channel['rampType'] }) {
  const t = useT(coverageMessages);
  return (
    <span className={ramp === 'deposit' ? 'text-success' : 'text-brand-700'}>
      <span aria-hidden="true">{ramp === 'deposit' ? '↓ ' : '↑ '}</span>
      {t(`ramp.${ramp}`)}
    </span>
  );
}

/** Under the channel's name: the product label when it says more (EFT is a 'Bank Transfer'), else the type's code. */
function subtitle(t: T, c: Channel): string {
  const product = channelProductText(t, c.channelType);
  return product.toLowerCase() === channelTypeText(t, c.channelType).toLowerCase() ? c.channelType : product;
}

function availability(c: Channel): MessageKey<typeof en> {
  if (c.apiStatus === 'active' && c.widgetStatus === 'active') return 'availability.both';
  if (c.apiStatus === 'active') return 'availability.api';
  if (c.widgetStatus === 'active') return 'availability.widget';
  return 'availability.none';
}

/** What a paused network is paused for: deposits, withdrawals or both. */
function pausedFor(ramps: PaymentNetwork['tempDisabledFor']): MessageKey<typeof en> {
  if (ramps.includes('deposit') && ramps.includes('withdraw')) return 'paused.both';
  return ramps.includes('deposit') ? 'paused.deposit' : 'paused.withdraw';
}

/** Channels of a country: type, direction, currency, limits, fee, settlement time and status. */
export function ChannelsTable({ channels }: { channels: Channel[] }) {
  const t = useT(coverageMessages);
  return (
    <StackTable aria-label={t('channels.label')}>
      <StackHead>
        <StackTh>{t('channels.channel')}</StackTh>
        <StackTh>{t('channels.direction')}</StackTh>
        <StackTh className="text-right">{t('channels.limits')}</StackTh>
        <StackTh className="text-right">{t('channels.fee')}</StackTh>
        <StackTh>{t('channels.settlement')}</StackTh>
        <StackTh>{t('channels.status')}</StackTh>
      </StackHead>
      <StackBody>
        {channels.map((c) => (
          <StackRow key={c.id} data-testid="channel-row">
            <StackCell label={t('channels.channel')} className="order-1">
              <p className="font-medium text-ink">{channelTypeText(t, c.channelType)}</p>
              <p className="text-xs text-muted">
                {subtitle(t, c)} · {c.currency}
              </p>
            </StackCell>
            <StackCell label={t('channels.direction')} className="order-2 font-medium">
              <Direction ramp={c.rampType} />
            </StackCell>
            <StackCell label={t('channels.limits')} className="order-3 tabular-nums sm:text-right">
              <p className="text-ink">
                {formatMoney(c.min)} – {formatMoney(c.max)}
              </p>
              <p className="text-xs text-muted">{c.currency}</p>
            </StackCell>
            <StackCell label={t('channels.fee')} className="order-4 tabular-nums sm:text-right">
              <p className="text-ink">{formatMoney(c.feeLocal, c.currency)}</p>
              <p className="text-xs text-muted">≈ {formatMoney(c.feeUSD, 'USD')}</p>
            </StackCell>
            <StackCell label={t('channels.settlement')} className="order-5">
              <p className="text-ink">{settlementTimeText(t, c.estimatedSettlementTime)}</p>
              <p className="text-xs text-muted">{c.settlementType === 'instant' ? t('settlement.automatic') : t('settlement.manual')}</p>
            </StackCell>
            <StackCell label={t('channels.status')} className="order-6">
              <StatusBadge tone="success">{t('active')}</StatusBadge>
              <p className="mt-1 text-xs text-muted">{t(availability(c))}</p>
            </StackCell>
          </StackRow>
        ))}
      </StackBody>
    </StackTable>
  );
}

/** Networks of a country: name, the account number it takes, how it is reached, and whether it is paused. */
export function NetworksTable({ networks, channels }: { networks: PaymentNetwork[]; channels: Channel[] }) {
  const t = useT(coverageMessages);
  return (
    <StackTable aria-label={t('networks.label')}>
      <StackHead>
        <StackTh>{t('networks.network')}</StackTh>
        <StackTh>{t('networks.accountNumber')}</StackTh>
        <StackTh>{t('networks.reachedThrough')}</StackTh>
        <StackTh>{t('networks.status')}</StackTh>
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
              <StackCell label={t('networks.accountNumber')} className="order-2">
                {t(`accountType.${n.accountNumberType}`)}
              </StackCell>
              <StackCell label={t('networks.reachedThrough')} wide className="order-4">
                {reach.length === 0 ? (
                  <span className="text-xs text-muted">{t('networks.noChannel')}</span>
                ) : (
                  <ul className="flex flex-wrap gap-1.5">
                    {reach.map((r) => (
                      <li key={r.type} className="rounded-md bg-canvas px-2 py-0.5 text-xs text-ink ring-1 ring-inset ring-line">
                        {channelTypeText(t, r.type)} · {r.ramps.map((ramp) => t(`ramp.${ramp}`)).join(', ')}
                      </li>
                    ))}
                  </ul>
                )}
              </StackCell>
              <StackCell label={t('networks.status')} className="order-3">
                {n.tempDisabledFor.length > 0 ? (
                  <StatusBadge tone="warning" className="whitespace-normal">
                    {t(pausedFor(n.tempDisabledFor))}
                  </StatusBadge>
                ) : (
                  <StatusBadge tone="success">{t('active')}</StatusBadge>
                )}
              </StackCell>
            </StackRow>
          );
        })}
      </StackBody>
    </StackTable>
  );
}
