import { useState, type FormEvent } from 'react';
import { parseIpAddress } from '@portal/contract/ip-address';
import { IP_LABEL_MAX } from '@portal/contract/api-keys';
import { OTP_MESSAGES } from '@portal/contract/otp';
import { CodeStep } from '../../../components/code-step.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { localizeMessage, useT } from '../../../lib/i18n.ts';
import { useCodeStep, type CodeStepState } from '../../../lib/otp.ts';
import { useAddIpAddress } from '../api/add-ip-address.ts';
import { useDeleteIpAddress } from '../api/delete-ip-address.ts';
import { useUpdateIpAddress } from '../api/update-ip-address.ts';
import { apiKeysMessages } from '../messages.ts';

const SIX_DIGITS = /^\d{6}$/;

type CodeFormProps = {
  otp: CodeStepState;
  error: string | undefined;
  onSubmit: (e: FormEvent) => void;
  onCancel: () => void;
  busy: boolean;
  submitLabel: string;
  danger?: boolean;
};

/** The last step of every IP change: the e-mailed code, the change's error, Cancel and the change's own button. */
function CodeForm({ otp, error, onSubmit, onCancel, busy, submitLabel, danger }: CodeFormProps) {
  const t = useT(apiKeysMessages);
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      <CodeStep step={otp} />
      {error && <Alert tone="danger">{error}</Alert>}
      <div className="flex flex-wrap justify-end gap-3">
        <Button variant="secondary" onClick={onCancel}>
          {t('cancel')}
        </Button>
        <Button type="submit" variant={danger ? 'danger' : undefined} loading={busy}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}

/** Add an allowed address: the address (checked as the server checks it), then the e-mailed code. */
export function AddIpDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const t = useT(apiKeysMessages);
  const otp = useCodeStep();
  const add = useAddIpAddress();
  const [text, setText] = useState('');
  const [address, setAddress] = useState<string>();
  const [error, setError] = useState<string>();
  const close = () => {
    setText('');
    setAddress(undefined);
    setError(undefined);
    otp.reset();
    add.reset();
    onOpenChange(false);
  };

  const toCode = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = parseIpAddress(text);
    if (!parsed.ok) return setError(localizeMessage(parsed.message));
    setError(undefined);
    const ipAddress = parsed.value.canonical;
    // the server checks the address (a duplicate, the limit) before it spends a code on it
    if (await otp.send({ action: 'ip.add', target: { ipAddress } }, (err) => setError(err.message))) setAddress(ipAddress);
  };
  const confirm = (e: FormEvent) => {
    e.preventDefault();
    if (!address) return;
    if (!SIX_DIGITS.test(otp.code)) return otp.showCodeError(localizeMessage(OTP_MESSAGES.invalid));
    setError(undefined);
    add.mutate(
      { ipAddress: address, otp: otp.code },
      {
        onSuccess: () => {
          toast.show(t('ip.addDialog.toast', { ip: address }));
          close();
        },
        onError: (err) => {
          if (!otp.takeError(err)) setError(err.message);
        },
      },
    );
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : close())}
      title={t('ip.addDialog.title')}
      description={address ? t('ip.addDialog.confirm', { ip: address }) : t('ip.addDialog.description')}
      width={480}
    >
      {address ? (
        <CodeForm otp={otp} error={error} onSubmit={confirm} onCancel={close} busy={add.isPending} submitLabel={t('ip.addDialog.submit')} />
      ) : (
        <form onSubmit={(e) => void toCode(e)} noValidate className="space-y-5">
          <TextField
            label={t('ip.field')}
            placeholder="203.0.113.7"
            value={text}
            onChange={(e) => setText(e.target.value)}
            error={error}
            hint={t('ip.addDialog.hint')}
            autoFocus
            spellCheck={false}
            autoCapitalize="off"
          />
          {otp.sendError && <Alert tone="danger">{localizeMessage(otp.sendError)}</Alert>}
          <div className="flex flex-wrap justify-end gap-3">
            <Button variant="secondary" onClick={close}>
              {t('cancel')}
            </Button>
            <Button type="submit" loading={otp.sending}>
              {t('sendCode')}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

/** Remove an allowed address, with the e-mailed code. */
export function DeleteIpDialog({ ipAddress, isLast, onClose }: { ipAddress: string | undefined; isLast: boolean; onClose: () => void }) {
  const t = useT(apiKeysMessages);
  const otp = useCodeStep();
  const remove = useDeleteIpAddress();
  const [asked, setAsked] = useState(false);
  const [error, setError] = useState<string>();
  const close = () => {
    setAsked(false);
    setError(undefined);
    otp.reset();
    remove.reset();
    onClose();
  };
  const confirm = (e: FormEvent) => {
    e.preventDefault();
    if (!ipAddress) return;
    if (!SIX_DIGITS.test(otp.code)) return otp.showCodeError(localizeMessage(OTP_MESSAGES.invalid));
    setError(undefined);
    remove.mutate(
      { ipAddress, otp: otp.code },
      {
        onSuccess: () => {
          toast.show(t('ip.removeDialog.toast', { ip: ipAddress }));
          close();
        },
        onError: (err) => {
          if (!otp.takeError(err)) setError(err.message);
        },
      },
    );
  };
  return (
    <Dialog open={ipAddress !== undefined} onOpenChange={(open) => !open && close()} title={t('ip.removeDialog.title')} width={480}>
      {asked ? (
        <CodeForm otp={otp} error={error} onSubmit={confirm} onCancel={close} busy={remove.isPending} submitLabel={t('ip.removeDialog.submit')} danger />
      ) : (
        <div className="space-y-5">
          {isLast ? (
            <Alert tone="warning">{t.rich('ip.removeDialog.last', { code: () => <code className="font-mono font-medium">{ipAddress}</code> })}</Alert>
          ) : (
            <p className="text-sm">{t.rich('ip.removeDialog.one', { code: () => <code className="font-mono font-medium">{ipAddress}</code> })}</p>
          )}
          {error && <Alert tone="danger">{error}</Alert>}
          {otp.sendError && <Alert tone="danger">{localizeMessage(otp.sendError)}</Alert>}
          <div className="flex flex-wrap justify-end gap-3">
            <Button variant="secondary" onClick={close}>
              {t('cancel')}
            </Button>
            <Button
              variant="danger"
              loading={otp.sending}
              onClick={() => void (ipAddress && otp.send({ action: 'ip.delete', target: { ipAddress } }, (err) => setError(err.message)).then(setAsked))}
            >
              {t('sendCode')}
            </Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}

/**
 * Change an allowed address (a typo, a moved server, a range instead of one address) or its label: the new values,
 * then the code e-mailed for exactly that change.
 */
export function EditIpDialog({ ipAddress, label, onClose }: { ipAddress: string | undefined; label: string; onClose: () => void }) {
  const t = useT(apiKeysMessages);
  const otp = useCodeStep();
  const update = useUpdateIpAddress();
  const [text, setText] = useState<string>();
  const [labelText, setLabelText] = useState<string>();
  const [next, setNext] = useState<string>();
  const [error, setError] = useState<string>();
  const [labelError, setLabelError] = useState<string>();
  const value = text ?? ipAddress ?? '';
  const newLabel = (labelText ?? label).trim();
  const labelChanged = newLabel !== label;
  const close = () => {
    setText(undefined);
    setLabelText(undefined);
    setLabelError(undefined);
    setNext(undefined);
    setError(undefined);
    otp.reset();
    update.reset();
    onClose();
  };

  const toCode = async (e: FormEvent) => {
    e.preventDefault();
    if (!ipAddress) return;
    const parsed = parseIpAddress(value);
    if (!parsed.ok) return setError(localizeMessage(parsed.message));
    const newIpAddress = parsed.value.canonical;
    if (newIpAddress === ipAddress && !labelChanged) return setError(t('ip.editDialog.nothingChanged'));
    if (newLabel.length > IP_LABEL_MAX) return setLabelError(t('ip.editDialog.labelTooLong', { max: IP_LABEL_MAX }));
    setError(undefined);
    setLabelError(undefined);
    const target = { ipAddress, newIpAddress, ...(labelChanged ? { label: newLabel } : {}) };
    if (await otp.send({ action: 'ip.update', target }, (err) => setError(err.message))) setNext(newIpAddress);
  };
  const confirm = (e: FormEvent) => {
    e.preventDefault();
    if (!ipAddress || !next) return;
    if (!SIX_DIGITS.test(otp.code)) return otp.showCodeError(localizeMessage(OTP_MESSAGES.invalid));
    setError(undefined);
    update.mutate(
      { ipAddress, newIpAddress: next, ...(labelChanged ? { label: newLabel } : {}), otp: otp.code },
      {
        onSuccess: () => {
          toast.show(next === ipAddress ? t('ip.editDialog.saved', { ip: ipAddress }) : t('ip.editDialog.changed', { ip: ipAddress, next }));
          close();
        },
        onError: (err) => {
          if (!otp.takeError(err)) setError(err.message);
        },
      },
    );
  };

  return (
    <Dialog
      open={ipAddress !== undefined}
      onOpenChange={(open) => !open && close()}
      title={t('ip.editDialog.title')}
      description={
        next
          ? next === ipAddress
            ? t('ip.editDialog.confirmLabel', { ip: ipAddress })
            : t('ip.editDialog.confirmChange', { ip: ipAddress ?? '', next })
          : t('ip.editDialog.description', { ip: ipAddress ?? '' })
      }
      width={480}
    >
      {next ? (
        <CodeForm otp={otp} error={error} onSubmit={confirm} onCancel={close} busy={update.isPending} submitLabel={t('ip.editDialog.submit')} />
      ) : (
        <form onSubmit={(e) => void toCode(e)} noValidate className="space-y-5">
          <TextField
            label={t('ip.field')}
            value={value}
            onChange={(e) => {
              setText(e.target.value);
              setError(undefined);
            }}
            error={error}
            hint={t('ip.editDialog.hint')}
            autoFocus
            spellCheck={false}
            autoCapitalize="off"
          />
          <TextField
            label={t('ip.editDialog.label')}
            placeholder={t('ip.editDialog.labelPlaceholder')}
            value={labelText ?? label}
            onChange={(e) => {
              setLabelText(e.target.value);
              setLabelError(undefined);
              setError(undefined);
            }}
            error={labelError}
            hint={t('ip.editDialog.labelHint')}
            maxLength={IP_LABEL_MAX}
          />
          {otp.sendError && <Alert tone="danger">{localizeMessage(otp.sendError)}</Alert>}
          <div className="flex flex-wrap justify-end gap-3">
            <Button variant="secondary" onClick={close}>
              {t('cancel')}
            </Button>
            <Button type="submit" loading={otp.sending}>
              {t('sendCode')}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
