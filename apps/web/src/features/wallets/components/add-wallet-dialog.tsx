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
import { useCodeStep } from '../../../lib/otp.ts';
import { useCreateWallet } from '../api/create-wallet.ts';

type Form = { network: Network; currencies: Coin[]; address: string; tag: string; name: string; registration: string };
type Errors = Partial<Record<keyof Form | 'form', string>>;

const initial: Form = { network: 'TRC20', currencies: ['USDT'], address: '', tag: '', name: '', registration: '' };

/** What the form lacks before a code is worth sending (the server checks the checksum and everything else). */
export function checkWalletForm(f: Form): Errors {
  const errors: Errors = {};
  if (f.currencies.length === 0) errors.currencies = 'Choose at least one currency';
  if (!ADDRESS_SHAPES[f.network].test(f.address.trim())) errors.address = WALLET_MESSAGES.invalidAddress;
  if (f.name.trim() || f.registration.trim()) {
    const parsed = TravelRuleInfo.safeParse({ name: f.name, businessRegistrationNumber: f.registration });
    if (!parsed.success) for (const issue of parsed.error.issues) errors[issue.path[0] === 'name' ? 'name' : 'registration'] = issue.message;
  }
  return errors;
}

/**
 * Add a settlement wallet (portal-core §2, §5): network, the currencies of that network, the address, the memo for
 * Stellar, the travel-rule details of its owner; then the code e-mailed to the user. The new wallet waits for a
 * second person's approval.
 */
export function AddWalletDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
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
      (err) => setErrors(err.code === 'InvalidWalletAddress' || err.code === 'WalletAddressTaken' ? { address: err.message } : { form: err.message }),
    );
    if (sent) setStep('code');
  };

  const submit = () => {
    if (!/^\d{6}$/.test(otp.code)) return otp.showCodeError('Enter the six-digit code from the e-mail');
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
          toast.show('Wallet address added. Another admin or treasury user of your team must now approve it.');
          onOpenChange(false);
        },
        onError: (err) => {
          if (otp.takeError(err)) return;
          if (err instanceof ApiError && err.code === 'InvalidWalletAddress') {
            setStep('details');
            return setErrors({ address: WALLET_MESSAGES.invalidAddress });
          }
          setErrors({ form: err.message });
        },
      },
    );
  };

  const coins = NETWORK_CURRENCIES[form.network];
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Add wallet address"
      description={
        step === 'details'
          ? 'Withdrawals are sent to this address once a second person approves it and it passes screening.'
          : 'Enter the code we e-mailed you to add the wallet address.'
      }
      width={540}
      footer={
        step === 'details' ? (
          <>
            <Button variant="secondary" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button onClick={() => void next()} loading={otp.sending}>
              Continue
            </Button>
          </>
        ) : (
          <>
            <Button variant="secondary" onClick={() => setStep('details')} disabled={create.isPending}>
              Back
            </Button>
            <Button onClick={submit} loading={create.isPending} disabled={otp.code.length !== 6}>
              Add wallet address
            </Button>
          </>
        )
      }
    >
      {step === 'details' ? (
        <div className="space-y-4">
          <div className="space-y-1.5">
            <p className="text-sm font-medium" id="network-label">
              Network
            </p>
            <SearchableSelect
              label="Network"
              options={WALLET_NETWORKS.map((n) => ({ value: n, label: n }))}
              value={form.network}
              onChange={(n) => set({ network: n as Network, currencies: NETWORK_CURRENCIES[n as Network].slice(0, 1), tag: '' })}
            />
          </div>
          <fieldset>
            <legend className="mb-1.5 text-sm font-medium">Currencies</legend>
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
            label="Wallet address"
            value={form.address}
            onChange={(e) => set({ address: e.target.value })}
            error={errors.address}
            autoComplete="off"
            spellCheck={false}
            className="[&_input]:font-mono"
          />
          {networkTakesTag(form.network) && (
            <TextField
              label="Memo (optional)"
              hint="The memo your exchange gave you for this address, if any."
              value={form.tag}
              onChange={(e) => set({ tag: e.target.value })}
              error={errors.tag}
              autoComplete="off"
            />
          )}
          <div className="rounded-lg border border-line p-3">
            <p className="text-sm font-medium">Owner of this wallet (travel rule)</p>
            <p className="mt-0.5 text-xs text-muted">Withdrawals of USD 1,000 or more carry these details. They must be accurate or the transaction fails.</p>
            <div className="mt-3 grid gap-3 sm:grid-cols-2 sm:items-end">
              <TextField label="Full name of entity or beneficiary" value={form.name} onChange={(e) => set({ name: e.target.value })} error={errors.name} />
              <TextField
                label="Business registration number"
                value={form.registration}
                onChange={(e) => set({ registration: e.target.value })}
                error={errors.registration}
              />
            </div>
          </div>
          {otp.sendError && <Alert tone="danger">{otp.sendError}</Alert>}
          {errors.form && <Alert tone="danger">{errors.form}</Alert>}
        </div>
      ) : (
        <div className="space-y-4">
          <div className="rounded-lg bg-canvas px-3 py-2 text-sm">
            <span className="font-medium">{form.currencies.join(', ')}</span> on {form.network}:{' '}
            <code className="break-all font-mono text-[13px]">{form.address.trim()}</code>
          </div>
          <CodeStep step={otp} />
          {errors.form && <Alert tone="danger">{errors.form}</Alert>}
        </div>
      )}
    </Dialog>
  );
}
