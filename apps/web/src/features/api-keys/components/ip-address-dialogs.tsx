import { useState, type FormEvent } from 'react';
import type { UseMutationResult } from '@tanstack/react-query';
import { parseIpAddress } from '@portal/contract/ip-address';
import { IP_LABEL_MAX } from '@portal/contract/api-keys';
import { OTP_MESSAGES } from '@portal/contract/otp';
import { CodeStep } from '../../../components/code-step.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { localizeMessage, useT } from '../../../lib/i18n.ts';
import { useCodeStep, type CodeStepState } from '../../../lib/otp.ts';
import { useAddIpAddress } from '../api/add-ip-address.ts';
import { useDeleteIpAddress } from '../api/delete-ip-address.ts';
import { useUpdateIpAddress } from '../api/update-ip-address.ts';
import { apiKeysMessages } from '../messages.ts';
import { DialogButtons } from './dialog-buttons.tsx';

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
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      <CodeStep step={otp} />
      {error && <Alert tone="danger">{error}</Alert>}
      <DialogButtons onCancel={onCancel} label={submitLabel} busy={busy} danger={danger} />
    </form>
  );
}

/**
 * What every IP change shares: the e-mailed code, the change's error, closing (which forgets both, the change's
 * state and the dialog's own fields through `forget`), and the confirming step: six digits, then the change, a toast
 * and the dialog closed; a wrong code shows under the code field, any other refusal above the buttons.
 */
function useIpChange<Request>(change: UseMutationResult<unknown, Error, Request>, forget: () => void, onClose: () => void) {
  const otp = useCodeStep();
  const [error, setError] = useState<string>();
  const close = () => {
    forget();
    setError(undefined);
    otp.reset();
    change.reset();
    onClose();
  };
  /** sends the change's request with the typed code (nothing when there is no change yet), then toasts `done` */
  const confirm = (e: FormEvent, ready: { request: (code: string) => Request; done: string } | undefined) => {
    e.preventDefault();
    if (!ready) return;
    const { request, done } = ready;
    if (!SIX_DIGITS.test(otp.code)) return otp.showCodeError(localizeMessage(OTP_MESSAGES.invalid));
    setError(undefined);
    change.mutate(request(otp.code), {
      onSuccess: () => {
        toast.show(done);
        close();
      },
      onError: (err) => {
        if (!otp.takeError(err)) setError(err.message);
      },
    });
  };
  return { otp, error, setError, close, confirm };
}

/** Add an allowed address: the address (checked as the server checks it), then the e-mailed code. */
export function AddIpDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const t = useT(apiKeysMessages);
  const add = useAddIpAddress();
  const [text, setText] = useState('');
  const [address, setAddress] = useState<string>();
  const { otp, error, setError, close, confirm } = useIpChange(
    add,
    () => {
      setText('');
      setAddress(undefined);
    },
    () => onOpenChange(false),
  );

  const toCode = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = parseIpAddress(text);
    if (!parsed.ok) return setError(localizeMessage(parsed.message));
    setError(undefined);
    const ipAddress = parsed.value.canonical;
    // the server checks the address (a duplicate, the limit) before it spends a code on it
    if (await otp.send({ action: 'ip.add', target: { ipAddress } }, (err) => setError(err.message))) setAddress(ipAddress);
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
        <CodeForm
          otp={otp}
          error={error}
          onSubmit={(e) => confirm(e, { request: (code) => ({ ipAddress: address, otp: code }), done: t('ip.addDialog.toast', { ip: address }) })}
          onCancel={close}
          busy={add.isPending}
          submitLabel={t('ip.addDialog.submit')}
        />
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
          <DialogButtons onCancel={close} label={t('sendCode')} busy={otp.sending} />
        </form>
      )}
    </Dialog>
  );
}

/** Remove an allowed address, with the e-mailed code. */
export function DeleteIpDialog({ ipAddress, isLast, onClose }: { ipAddress: string | undefined; isLast: boolean; onClose: () => void }) {
  const t = useT(apiKeysMessages);
  const remove = useDeleteIpAddress();
  const [asked, setAsked] = useState(false);
  const { otp, error, setError, close, confirm } = useIpChange(remove, () => setAsked(false), onClose);
  return (
    <Dialog open={ipAddress !== undefined} onOpenChange={(open) => !open && close()} title={t('ip.removeDialog.title')} width={480}>
      {asked ? (
        <CodeForm
          otp={otp}
          error={error}
          onSubmit={(e) =>
            confirm(e, ipAddress ? { request: (code) => ({ ipAddress, otp: code }), done: t('ip.removeDialog.toast', { ip: ipAddress }) } : undefined)
          }
          onCancel={close}
          busy={remove.isPending}
          submitLabel={t('ip.removeDialog.submit')}
          danger
        />
      ) : (
        <div className="space-y-5">
          {isLast ? (
            <Alert tone="warning">{t.rich('ip.removeDialog.last', { code: () => <code className="font-mono font-medium">{ipAddress}</code> })}</Alert>
          ) : (
            <p className="text-sm">{t.rich('ip.removeDialog.one', { code: () => <code className="font-mono font-medium">{ipAddress}</code> })}</p>
          )}
          {error && <Alert tone="danger">{error}</Alert>}
          {otp.sendError && <Alert tone="danger">{localizeMessage(otp.sendError)}</Alert>}
          <DialogButtons
            onCancel={close}
            label={t('sendCode')}
            busy={otp.sending}
            danger
            onAct={() => void (ipAddress && otp.send({ action: 'ip.delete', target: { ipAddress } }, (err) => setError(err.message)).then(setAsked))}
          />
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
  const update = useUpdateIpAddress();
  const [text, setText] = useState<string>();
  const [labelText, setLabelText] = useState<string>();
  const [next, setNext] = useState<string>();
  const [labelError, setLabelError] = useState<string>();
  const value = text ?? ipAddress ?? '';
  const newLabel = (labelText ?? label).trim();
  const labelChanged = newLabel !== label;
  const { otp, error, setError, close, confirm } = useIpChange(
    update,
    () => {
      setText(undefined);
      setLabelText(undefined);
      setLabelError(undefined);
      setNext(undefined);
    },
    onClose,
  );

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
        <CodeForm
          otp={otp}
          error={error}
          onSubmit={(e) =>
            confirm(
              e,
              ipAddress
                ? {
                    request: (code) => ({ ipAddress, newIpAddress: next, ...(labelChanged ? { label: newLabel } : {}), otp: code }),
                    done: next === ipAddress ? t('ip.editDialog.saved', { ip: ipAddress }) : t('ip.editDialog.changed', { ip: ipAddress, next }),
                  }
                : undefined,
            )
          }
          onCancel={close}
          busy={update.isPending}
          submitLabel={t('ip.editDialog.submit')}
        />
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
          <DialogButtons onCancel={close} label={t('sendCode')} busy={otp.sending} />
        </form>
      )}
    </Dialog>
  );
}
