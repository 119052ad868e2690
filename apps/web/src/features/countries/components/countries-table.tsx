import { countryByLocale } from '@portal/contract/countries';
import { isPending, rateChange, type PartnerRate, type PartnerRateStatus } from '@portal/contract/rates';
import { Button } from '../../../components/ui/button.tsx';
import { CountryFlag } from '../../../components/ui/country-flag.tsx';
import { StackBody, StackCell, StackHead, StackRow, StackTable, StackTh } from '../../../components/ui/stack-table.tsx';
import { StatusBadge, type BadgeTone } from '../../../components/ui/status-badge.tsx';
import { formatMoney } from '../../../lib/format.ts';
import { useT } from '../../../lib/i18n.ts';
import { localCountryName, localCurrencyName } from '../../../lib/country-names.ts';
import { countriesMessages } from '../messages.ts';

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
  const t = useT(countriesMessages);
  return (
    <StackTable aria-label={t('table.label')}>
      <StackHead>
        <StackTh>{t('table.country')}</StackTh>
        <StackTh>{t('table.currency')}</StackTh>
        <StackTh className="text-right">{t('table.buyRate')}</StackTh>
        <StackTh className="text-right">{t('table.sellRate')}</StackTh>
        <StackTh>{t('table.status')}</StackTh>
        {canChange && <StackTh className="text-right">{t('table.action')}</StackTh>}
      </StackHead>
      <StackBody>
        {rates.map((r) => {
          const change = rateChange(r.status);
          const name = localCountryName(r.locale);
          return (
            <StackRow key={r.id} data-testid={`country-${r.locale}`}>
              <StackCell wide className="order-1">
                <div className="flex items-center gap-3">
                  <CountryFlag locale={r.locale} />
                  <div className="min-w-0">
                    <p className="break-words font-medium text-ink">{name}</p>
                    <p className="text-xs text-muted">
                      {r.locale} · {countryByLocale(r.locale)?.code}
                    </p>
                  </div>
                </div>
              </StackCell>
              <StackCell label={t('table.currency')} className="order-2">
                <p className="font-medium text-ink">{r.code}</p>
                <p className="break-words text-xs text-muted">{localCurrencyName(r.code)}</p>
              </StackCell>
              <StackCell label={t('table.buyRate')} className="order-4 tabular-nums sm:text-right">
                {formatMoney(r.buy)}
              </StackCell>
              <StackCell label={t('table.sellRate')} className="order-5 tabular-nums sm:text-right">
                {formatMoney(r.sell)}
              </StackCell>
              <StackCell label={t('table.status')} className="order-3">
                <StatusBadge tone={TONES[r.status]} className="whitespace-normal">
                  {t(`status.${r.status}`)}
                </StatusBadge>
                {change && r.requestedBy && (
                  <p className="mt-1 text-xs text-muted">{r.requestedBy.id === userId ? t('askedByYou') : t('askedBy', { name: r.requestedBy.name })}</p>
                )}
              </StackCell>
              {canChange && (
                <StackCell wide className="order-6 sm:text-right">
                  {isPending(r.status) ? (
                    <span className="text-xs text-muted">{t('awaitingApproval')}</span>
                  ) : (
                    <Button
                      size="sm"
                      variant="secondary"
                      className="w-full sm:w-auto"
                      onClick={() => onChange(r)}
                      aria-label={r.status === 'enabled' ? t('disableCountry', { country: name }) : t('enableCountry', { country: name })}
                    >
                      {r.status === 'enabled' ? t('disable') : t('enable')}
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
