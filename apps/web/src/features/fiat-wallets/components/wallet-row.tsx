import type { FiatWallet } from '@portal/contract/fiat-wallets';
import { DEFAULT_FIAT_WALLET_ID } from '@portal/contract/fiat-wallets';
import { ChevronRight } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge.tsx';
import { Switch } from '../../../components/ui/switch.tsx';
import { formatMoney } from '../../../lib/format.ts';
import { useT } from '../../../lib/i18n.ts';
import { countryName, currencyName } from '../../../lib/partner/fiat-wallets.ts';
import { fiatWalletsMessages } from '../messages.ts';

type Props = {
  wallet: FiatWallet;
  canEdit: boolean;
  /** which switch of this wallet is being saved */
  saving?: 'payment' | 'collection';
  onChange: (change: { paymentEnabled?: boolean; collectionEnabled?: boolean }) => void;
};

function Toggle({
  label,
  wallet,
  checked,
  disabled,
  busy,
  onChange,
}: {
  label: string;
  wallet: string;
  checked: boolean;
  disabled: boolean;
  busy: boolean;
  onChange: (on: boolean) => void;
}) {
  const t = useT(fiatWalletsMessages);
  return (
    <div className="flex items-center justify-between gap-3 md:flex-col md:items-center md:gap-1.5">
      <span className="text-sm text-ink md:text-xs md:font-medium md:text-muted">{label}</span>
      <Switch label={t('switchFor', { label, wallet })} checked={checked} disabled={disabled} busy={busy} onCheckedChange={onChange} />
    </div>
  );
}

/** One fiat wallet: currency, country, ledger balance, the payment and collection switches, a link to its transactions. */
export function WalletRow({ wallet, canEdit, saving, onChange }: Props) {
  const t = useT(fiatWalletsMessages);
  const isDefault = wallet.id === DEFAULT_FIAT_WALLET_ID;
  const locked = !canEdit || isDefault;
  return (
    <li
      className="grid gap-4 px-4 py-4 sm:px-6 md:grid-cols-[minmax(0,1.5fr)_minmax(0,1fr)_auto_auto] md:items-center md:gap-8"
      data-testid={`fiat-wallet-${wallet.currency}`}
    >
      <div className="flex min-w-0 items-center gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-50 text-xs font-semibold text-brand-800 ring-1 ring-brand-600/20">
          {wallet.currency}
        </span>
        <div className="min-w-0">
          <p className="flex flex-wrap items-center gap-2 font-semibold text-ink">
            {currencyName(wallet.currency)}
            {isDefault && <Badge tone="brand">{t('default')}</Badge>}
          </p>
          <p className="truncate text-xs text-muted">{countryName(wallet.country)}</p>
        </div>
      </div>
      <div className="md:text-right">
        <p className="text-xs text-muted">{t('available')}</p>
        <p className="font-semibold tabular-nums text-ink">{formatMoney(wallet.balance, wallet.currency)}</p>
      </div>
      <div className="grid gap-3 rounded-lg bg-canvas px-3 py-3 md:flex md:gap-6 md:bg-transparent md:p-0">
        <Toggle
          label={t('payments')}
          wallet={wallet.currency}
          checked={wallet.paymentEnabled}
          disabled={locked}
          busy={saving === 'payment'}
          onChange={(on) => onChange({ paymentEnabled: on })}
        />
        <Toggle
          label={t('collections')}
          wallet={wallet.currency}
          checked={wallet.collectionEnabled}
          disabled={locked}
          busy={saving === 'collection'}
          onChange={(on) => onChange({ collectionEnabled: on })}
        />
      </div>
      <Link
        to={`/balance/fiat-wallet/${wallet.currency}`}
        className="inline-flex items-center gap-1 justify-self-start text-sm font-medium text-brand-700 hover:underline md:justify-self-end"
        aria-label={t('transactionsOf', { wallet: wallet.currency })}
      >
        {t('transactions')}
        <ChevronRight className="size-4" aria-hidden="true" />
      </Link>
    </li>
  );
}
