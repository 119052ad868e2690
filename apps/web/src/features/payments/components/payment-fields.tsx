import type { Channel, PaymentNetwork } from '@portal/contract/coverage';
import { TextField, inputClass } from '../../../components/ui/field.tsx';
import { formatMoney } from '../../../lib/format.ts';
import { useT } from '../../../lib/i18n.ts';
import { paymentsMessages } from '../messages.ts';
import { accountTypeName, channelTypeName, type PaymentDraft } from '../payment-form.ts';

function Select({
  name,
  label,
  value,
  onChange,
  error,
  placeholder,
  options,
  disabled,
}: {
  /** the field's name, the same in every language (its id) */
  name: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  /** the empty first option, which says what to choose */
  placeholder: string;
  options: readonly { value: string; label: string }[];
  disabled?: boolean;
}) {
  const id = `pay-${name}`;
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="text-sm font-medium text-ink">
        {label}
      </label>
      <select
        id={id}
        className={inputClass}
        value={value}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        onChange={(e) => onChange(e.target.value)}
      >
        <option value="">{placeholder}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {error && (
        <p className="text-xs text-danger" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * The fields of a payment: country, channel, network (a payout), the recipient's or payer's name and account, the
 * amount and a reference. Each change goes through `set`; `shown` holds the problems to show (after a first review).
 */
export function PaymentFields({
  draft,
  set,
  shown,
  loading,
  noMarkets,
  countries,
  countryChannels,
  reachable,
  channel,
  network,
}: {
  draft: PaymentDraft;
  set: (patch: Partial<PaymentDraft>) => void;
  shown: Partial<Record<keyof PaymentDraft, string>>;
  loading: boolean;
  /** the served countries could not be read: no "no country" text then */
  noMarkets: boolean;
  countries: readonly { code: string; name: string }[];
  countryChannels: readonly Channel[];
  reachable: readonly PaymentNetwork[];
  channel: Channel | undefined;
  network: PaymentNetwork | undefined;
}) {
  const t = useT(paymentsMessages);
  const disbursing = draft.kind === 'disbursement';
  const accountLabel = draft.kind === 'collection' ? t('form.payerPhone') : network ? accountTypeName(network.accountNumberType) : t('form.accountNumber');
  return (
    <div className="mt-5 grid gap-4 sm:grid-cols-2">
      <Select
        name="country"
        label={t('form.country')}
        value={draft.country}
        error={shown.country}
        disabled={loading}
        onChange={(v) => set({ country: v, channelId: '', networkId: '' })}
        placeholder={loading ? t('form.loading') : countries.length === 0 && !noMarkets ? t('form.noCountry') : t('form.chooseCountry')}
        options={countries.map((c) => ({ value: c.code, label: c.name }))}
      />
      <Select
        name="channel"
        label={t('form.channel')}
        value={draft.channelId}
        error={shown.channelId}
        disabled={!draft.country}
        onChange={(v) => set({ channelId: v, networkId: '' })}
        placeholder={t('form.chooseChannel')}
        options={countryChannels.map((c) => ({
          value: c.id,
          label: t('form.channelOption', { name: channelTypeName(c.channelType), currency: c.currency, min: formatMoney(c.min), max: formatMoney(c.max) }),
        }))}
      />
      {disbursing && (
        <Select
          name="network"
          label={t('form.network')}
          value={draft.networkId}
          error={shown.networkId}
          disabled={!draft.channelId}
          onChange={(v) => set({ networkId: v })}
          placeholder={t('form.chooseNetwork')}
          options={reachable.map((n) => ({ value: n.id, label: n.name }))}
        />
      )}
      <TextField
        label={disbursing ? t('form.recipientName') : t('form.payerName')}
        value={draft.name}
        error={shown.name}
        onChange={(e) => set({ name: e.target.value })}
        autoComplete="off"
        maxLength={120}
      />
      {(disbursing || channel?.channelType === 'momo') && (
        <TextField
          label={accountLabel}
          value={draft.accountNumber}
          error={shown.accountNumber}
          onChange={(e) => set({ accountNumber: e.target.value })}
          inputMode={network?.accountNumberType === 'app' ? 'text' : 'numeric'}
          autoComplete="off"
        />
      )}
      <TextField
        label={channel ? t('form.amountIn', { currency: channel.currency }) : t('form.amount')}
        value={draft.amount}
        error={shown.amount}
        onChange={(e) => set({ amount: e.target.value })}
        inputMode="decimal"
        placeholder="0.00"
        hint={t('form.sandboxHint')}
      />
      <TextField label={t('form.reference')} value={draft.reference} onChange={(e) => set({ reference: e.target.value })} maxLength={64} autoComplete="off" />
    </div>
  );
}
