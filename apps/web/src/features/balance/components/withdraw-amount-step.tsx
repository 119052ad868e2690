import { Link } from 'react-router';
import { WITHDRAWAL_MESSAGES } from '@portal/contract/settlements';
import { Alert, ErrorAlert } from '../../../components/ui/alert.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { SearchableSelect } from '../../../components/ui/searchable-select.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { localizeMessage, useT } from '../../../lib/i18n.ts';
import type { useSettlementWallets } from '../../../lib/partner/settlement-wallets.ts';
import { balanceMessages } from '../messages.ts';
import { amountAboveMax, atMostText, type Destination } from '../withdrawal.ts';

const short = (a: string) => (a.length > 22 ? `${a.slice(0, 10)}…${a.slice(-8)}` : a);

/**
 * The withdrawal's first step: the amount (at most `max`, said as it is typed; Max fills it in) and the wallet it goes
 * to, or why there is none and who can add one.
 */
export function WithdrawAmountStep({
  amount,
  setAmount,
  amountError,
  setAmountError,
  max,
  wallets,
  options,
  chosen,
  choose,
  canManageWallets,
  close,
}: {
  amount: string;
  setAmount: (amount: string) => void;
  amountError: string | null;
  setAmountError: (error: string | null) => void;
  max: string;
  wallets: ReturnType<typeof useSettlementWallets>;
  options: Destination[];
  chosen: Destination | undefined;
  choose: (key: string) => void;
  canManageWallets: boolean;
  close: () => void;
}) {
  const t = useT(balanceMessages);
  return (
    <div className="space-y-5">
      <TextField
        label={t('withdrawDialog.amount')}
        inputMode="decimal"
        placeholder="0.00"
        value={amount}
        onChange={(e) => {
          // a French reader writes the decimals after a comma; the amount keeps the dot the request sends
          const typed = (t.language === 'fr' ? e.target.value.replace(/,/g, '.') : e.target.value).replace(/[^\d.]/g, '');
          setAmount(typed);
          // above the maximum is said as it is typed; the format and the minimum wait for Continue (a half-typed
          // amount is not wrong yet)
          setAmountError(amountAboveMax(typed, max));
        }}
        error={amountError ?? undefined}
        hint={<span data-testid="max-settlement">{atMostText(max)}</span>}
        trailing={
          <button
            type="button"
            className="text-xs font-semibold text-brand-800 underline underline-offset-2"
            onClick={() => {
              // the most that can be withdrawn is never above it: a problem said of the amount before goes
              setAmount(Number(max) > 0 ? max : '');
              setAmountError(null);
            }}
          >
            {t('withdrawDialog.max')}
          </button>
        }
      />
      <div className="space-y-1.5">
        <p className="text-sm font-medium">{t('withdrawDialog.toWallet')}</p>
        {wallets.isPending ? (
          <Spinner label={t('withdrawDialog.loadingWallets')} />
        ) : options.length === 0 ? (
          <Alert tone="warning">
            <p className="font-semibold" data-testid="no-wallet">
              {localizeMessage(WITHDRAWAL_MESSAGES.noWallet)}
            </p>
            <p className="mt-1">
              {canManageWallets
                ? t.rich('withdrawDialog.addWallet', {
                    a: (text) => (
                      <Link to="/wallets" className="font-semibold underline underline-offset-2" onClick={close}>
                        {text}
                      </Link>
                    ),
                  })
                : t('withdrawDialog.askAdmin')}
            </p>
          </Alert>
        ) : (
          <SearchableSelect
            label={t('withdrawDialog.toWallet')}
            options={options.map((o) => ({ value: o.key, label: `${o.coin} · ${o.wallet.network} · ${short(o.wallet.address)}` }))}
            value={chosen?.key}
            onChange={choose}
          />
        )}
        <ErrorAlert error={wallets.error} />
      </div>
    </div>
  );
}
