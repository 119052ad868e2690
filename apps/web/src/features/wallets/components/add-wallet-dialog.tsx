import { useState } from 'react';
import type { Coin, Network } from '@portal/contract/domain';
import { ADDRESS_SHAPES, NETWORK_CURRENCIES, TravelRuleInfo, WALLET_MESSAGES, WALLET_NETWORKS, networkTakesTag } from '@portal/contract/wallets';
import { CodeStep } from '../../../components/code-step.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { SearchableSelect } from '../../../components/ui/searchable-select.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { localizeMessage, translator, useT } from '../../../lib/i18n.ts';
import { useCodeStep } from '../../../lib/otp.ts';
import { useCreateWallet } from '../api/create-wallet.ts';
import { walletsMessages } from '../messages.ts';

type Form = { network: Network; currencies: Coin[]; address: string; tag: string; name: string; registration: string };
type Errors = Partial<Record<keyof Form | 'form', string>>;

const initial: Form = { network: 'TRC20', currencies: ['USDT'], address: '', tag: '', name: '', registration: '' };

/** What the form lacks before a code is worth sending (the server checks the checksum and everything else). */
export function checkWalletForm(f: Form): Errors {
  const t = translator(walletsMessages);
  const errors: Errors = {};
  if (f.currencies.length === 0) errors.currencies = t('addDialog.chooseCurrency');
  if (!ADDRESS_SHAPES[f.network].test(f.address.trim())) errors.address = localizeMessage(WALLET_MESSAGES.invalidAddress);
  if (f.name.trim() || f.registration.trim()) {
    const parsed = TravelRuleInfo.safeParse({ name: f.name, businessRegistrationNumber: f.registration });
    if (!parsed.success) for (const issue of parsed.error.issues) errors[issue.path[0] === 'name' ? 'name' : 'registration'] = localizeMessage(issue.message);
  }
  return errors;
}

/**
 * Add a settlement wallet (portal-core §2, §5): network, the currencies of that network, the address, the memo for
 * Stellar, the travel-rule details of its owner; then the code e-mailed to the user. The new wallet waits for a
 * second person's approval.
 */
export function AddWalletDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const t = useT(walletsMessages);
  const [form, setForm] = useState<Form>(initial);
  const [errors, setErrors] = useState<Errors>({});
  const [step, setStep] = useState<'details' | 'code'>('details');
  const otp = useCodeStep();
  const create = useCreateWallet();
  const set = (patch: Partial<Form>) => {
    setForm((f) => ({ ...f, ...patch }));
    setErrors({});
  };

  const next = async () => {
    const found = checkWalletForm(form);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const tag = networkTakesTag(form.network) && form.tag.trim() ? form.tag.trim() : null;
    // the server checks the address (checksum, taken, the limit) before it spends a code on it
    const sent = await otp.send(
      { action: 'wallet.add', target: { address: form.address.trim(), network: form.network, tag, currencies: form.currencies } },
      (err) =>
        setErrors(err.code === 'InvalidWalletAddress' || err.code === 'WalletAddressTaken' ? { address: err.message } : { form: localizeMessage(err.message) }),
    );
    if (sent) setStep('code');
  };

  const submit = () => {
    if (!/^\d{6}$/.test(otp.code)) return otp.showCodeError(t('addDialog.enterCode'));
    create.mutate(
      {
        address: form.address.trim(),
        network: form.network,
        currencies: form.currencies,
        tag: networkTakesTag(form.network) && form.tag.trim() ? form.tag.trim() : null,
        travelRuleInfo: form.name.trim() ? { name: form.name.trim(), businessRegistrationNumber: form.registration.trim() } : null,
        otp: otp.code,
      },
      {
        onSuccess: () => {
          toast.show(t('addDialog.added'));
          onOpenChange(false);
        },
        onError: (err) => {
          if (otp.takeError(err)) return;
          if (err instanceof ApiError && err.code === 'InvalidWalletAddress') {
            setStep('details');
            return setErrors({ address: localizeMessage(WALLET_MESSAGES.invalidAddress) });
          }
          setErrors({ form: localizeMessage(err.message) });
        },
      },
    );
  };

  const coins = NETWORK_CURRENCIES[form.network];
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('add')}
      description={step === 'details' ? t('addDialog.description') : t('addDialog.codeDescription')}
      width={540}
      footer={
        step === 'details' ? (
          <>
            <Button variant="secondary" onClick={() => onOpenChange(false)}>
              {t('cancel')}
            </Button>
            <Button onClick={() => void next()} loading={otp.sending}>
              {t('continue')}
            </Button>
          </>
        ) : (
          <>
            <Button variant="secondary" onClick={() => setStep('details')} disabled={create.isPending}>
              {t('back')}
            </Button>
            <Button onClick={submit} loading={create.isPending} disabled={otp.code.length !== 6}>
              {t('add')}
            </Button>
          </>
        )
      }
    >
      {step === 'details' ? (
        <div className="space-y-4">
          <div className="space-y-1.5">
            <p className="text-sm font-medium" id="network-label">
              {t('addDialog.network')}
            </p>
            <SearchableSelect
              label={t('addDialog.network')}
              options={WALLET_NETWORKS.map((n) => ({ value: n, label: n }))}
              value={form.network}
              onChange={(n) => set({ network: n as Network, currencies: NETWORK_CURRENCIES[n as Network].slice(0, 1), tag: '' })}
            />
          </div>
          <fieldset>
            <legend className="mb-1.5 text-sm font-medium">{t('addDialog.currencies')}</legend>
            <div className="flex flex-wrap gap-2">
              {coins.map((c) => {
                const on = form.currencies.includes(c);
                return (
                  <label
                    key={c}
                    className={cn(
                      'flex cursor-pointer items-center gap-2 rounded-lg border px-3 py-2 text-sm',
                      on ? 'border-brand-600 bg-brand-50 font-medium' : 'border-line hover:bg-canvas',
                    )}
                  >
                    <input
                      type="checkbox"
                      className="size-4 accent-brand-700"
                      checked={on}
                      onChange={() => set({ currencies: on ? form.currencies.filter((x) => x !== c) : [...form.currencies, c] })}
                    />
                    {c}
                  </label>
                );
              })}
            </div>
            {errors.currencies && (
              <p className="mt-1 text-xs text-danger" role="alert">
                {errors.currencies}
              </p>
            )}
          </fieldset>
          <TextField
            label={t('addDialog.address')}
            value={form.address}
            onChange={(e) => set({ address: e.target.value })}
            error={errors.address}
            autoComplete="off"
            spellCheck={false}
            className="[&_input]:font-mono"
          />
          {networkTakesTag(form.network) && (
            <TextField
              label={t('addDialog.memo')}
              hint={t('addDialog.memoHint')}
              value={form.tag}
              onChange={(e) => set({ tag: e.target.value })}
              error={errors.tag}
              autoComplete="off"
            />
          )}
          <div className="rounded-lg border border-line p-3">
            <p className="text-sm font-medium">{t('addDialog.ownerTitle')}</p>
            <p className="mt-0.5 text-xs text-muted">{t('addDialog.ownerBody')}</p>
            <div className="mt-3 grid gap-3 sm:grid-cols-2 sm:items-end">
              <TextField label={t('addDialog.ownerName')} value={form.name} onChange={(e) => set({ name: e.target.value })} error={errors.name} />
              <TextField
                label={t('addDialog.registration')}
                value={form.registration}
                onChange={(e) => set({ registration: e.target.value })}
                error={errors.registration}
              />
            </div>
          </div>
          {otp.sendError && <Alert tone="danger">{localizeMessage(otp.sendError)}</Alert>}
          {errors.form && <Alert tone="danger">{errors.form}</Alert>}
        </div>
      ) : (
        <div className="space-y-4">
          <div className="rounded-lg bg-canvas px-3 py-2 text-sm">
            {t.rich('walletOn', { b: (text) => <span className="font-medium">{text}</span>, currencies: form.currencies.join(', '), network: form.network })}{' '}
            <code className="break-all font-mono text-[13px]">{form.address.trim()}</code>
          </div>
          <CodeStep step={otp} />
          {errors.form && <Alert tone="danger">{errors.form}</Alert>}
        </div>
      )}
    </Dialog>
  );
}
