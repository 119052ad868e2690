import type { ReactNode } from 'react';
import { Card } from '../../../components/ui/card.tsx';
import { useT, type Translate } from '../../../lib/i18n.ts';
import { overviewMessages } from '../messages.ts';
import { PERIODS } from '../period.ts';

type T = Translate<typeof overviewMessages.en>;
export const periodOptions = (t: T) => PERIODS.map((value) => ({ value, label: t(`period.${value}`) }));

/**
 * Where the controls go, the screen's and its skeleton's alike (so that one replaces the other in place): the
 * period, what a month or a custom period needs beside it, and the wallet (its currency for a partner without fiat
 * wallets) at the end; under them, why the period cannot be shown.
 */
export function ControlsFrame({
  period,
  extra,
  wallet,
  walletLabel,
  error,
}: {
  period: ReactNode;
  extra?: ReactNode;
  wallet: ReactNode;
  walletLabel: string;
  error?: ReactNode;
}) {
  const t = useT(overviewMessages);
  return (
    <Card className="mb-6 p-4" role="group" aria-label={t('controls.label')}>
      <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end">
        <div className="flex min-w-0 flex-col gap-1">
          <p className="text-xs font-medium text-muted">{t('period.label')}</p>
          {period}
        </div>
        {extra}
        <div className="sm:ml-auto sm:w-52">
          <p className="mb-1 text-xs font-medium text-muted">{walletLabel}</p>
          {wallet}
        </div>
      </div>
      {error}
    </Card>
  );
}
