import { CURRENCY_NAMES, countryByLocale, countryName } from '@portal/contract/countries';
import { PARTNER_RATE_STATUS_LABELS, isPending, rateChange, type PartnerRate, type PartnerRateStatus } from '@portal/contract/rates';
import { Button } from '../../../components/ui/button.tsx';
import { CountryFlag } from '../../../components/ui/country-flag.tsx';
import { StackBody, StackCell, StackHead, StackRow, StackTable, StackTh } from '../../../components/ui/stack-table.tsx';
import { StatusBadge, type BadgeTone } from '../../../components/ui/status-badge.tsx';
import { formatMoney } from '../../../lib/format.ts';

const TONES: Record<PartnerRateStatus, BadgeTone> = { enabled: 'success', disabled: 'neutral', pending_enable: 'warning', pending_disable: 'warning' };

type Props = {
  rates: PartnerRate[];
  /** admins get the Enable / Disable action */
  canChange: boolean;
  onChange: (rate: PartnerRate) => void;
  /** the signed-in user: their own requests read 'Asked by you' */
  userId?: string;
};

/** The countries table of portal-core §2: country and flag, currency, buy and sell rates, status, action. */
export function CountriesTable({ rates, canChange, onChange, userId }: Props) {
  return (
    <StackTable aria-label="Countries">
      <StackHead>
        <StackTh>Country</StackTh>
        <StackTh>Currency</StackTh>
        <StackTh className="text-right">Buy rate</StackTh>
        <StackTh className="text-right">Sell rate</StackTh>
        <StackTh>Status</StackTh>
        {canChange && <StackTh className="text-right">Action</StackTh>}
      </StackHead>
      <StackBody>
        {rates.map((r) => {
          const change = rateChange(r.status);
          return (
            <StackRow key={r.id} data-testid={`country-${r.locale}`}>
              <StackCell wide className="order-1">
                <div className="flex items-center gap-3">
                  <CountryFlag locale={r.locale} />
                  <div className="min-w-0">
                    <p className="truncate font-medium text-ink">{countryName(r.locale)}</p>
                    <p className="text-xs text-muted">
                      {r.locale} · {countryByLocale(r.locale)?.code}
                    </p>
                  </div>
                </div>
              </StackCell>
              <StackCell label="Currency" className="order-2">
                <p className="font-medium text-ink">{r.code}</p>
                <p className="truncate text-xs text-muted">{CURRENCY_NAMES[r.code as keyof typeof CURRENCY_NAMES] ?? ''}</p>
              </StackCell>
              <StackCell label="Buy rate" className="order-4 tabular-nums sm:text-right">
                {formatMoney(r.buy)}
              </StackCell>
              <StackCell label="Sell rate" className="order-5 tabular-nums sm:text-right">
                {formatMoney(r.sell)}
              </StackCell>
              <StackCell label="Status" className="order-3">
                <StatusBadge tone={TONES[r.status]}>{PARTNER_RATE_STATUS_LABELS[r.status]}</StatusBadge>
                {change && r.requestedBy && <p className="mt-1 text-xs text-muted">Asked by {r.requestedBy.id === userId ? 'you' : r.requestedBy.name}</p>}
              </StackCell>
              {canChange && (
                <StackCell wide className="order-6 sm:text-right">
                  {isPending(r.status) ? (
                    <span className="text-xs text-muted">Awaiting approval</span>
                  ) : (
                    <Button
                      size="sm"
                      variant="secondary"
                      className="w-full sm:w-auto"
                      onClick={() => onChange(r)}
                      aria-label={`${r.status === 'enabled' ? 'Disable' : 'Enable'} ${countryName(r.locale)}`}
                    >
                      {r.status === 'enabled' ? 'Disable' : 'Enable'}
                    </Button>
                  )}
                </StackCell>
              )}
            </StackRow>
          );
        })}
      </StackBody>
    </StackTable>
  );
}
