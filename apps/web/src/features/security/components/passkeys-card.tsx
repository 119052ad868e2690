import { KeyRound } from 'lucide-react';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { PASSKEY_MESSAGES, PASSKEY_NAME_MAX, PASSKEYS_PER_USER, type Passkey } from '@portal/contract/passkeys';
import { CodeStep } from '../../../components/code-step.tsx';
import { Alert, ErrorAlert } from '../../../components/ui/alert.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { RowSkeletons } from '../../../components/ui/skeleton.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { formatDate } from '../../../lib/format.ts';
import { localizeMessage, translator, useT } from '../../../lib/i18n.ts';
import { useCodeStep } from '../../../lib/otp.ts';
import { ceremonyMessage, passkeysSupported } from '../../../lib/passkeys.ts';
import { useAddPasskey, usePasskeys, useRemovePasskey, useRenamePasskey } from '../api/passkeys.ts';
import { securityMessages } from '../messages.ts';

function PasskeyRow({ passkey, onRename, onRemove }: { passkey: Passkey; onRename: () => void; onRemove: () => void }) {
  const t = useT(securityMessages);
  const added = formatDate(passkey.createdAt);
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-2 px-5 py-4 sm:flex-nowrap" data-testid="passkey-row">
      <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-canvas text-muted ring-1 ring-line">
        <KeyRound className="size-4" aria-hidden="true" />
      </span>
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-ink">
          <span className="break-all">{passkey.name}</span>
          {passkey.disabled ? (
            <Badge tone="danger">{t('passkeys.disabled')}</Badge>
          ) : (
            <Badge tone="neutral">{t(passkey.synced ? 'passkeys.synced' : 'passkeys.oneDevice')}</Badge>
          )}
        </p>
        <p className="text-xs text-muted">
          {passkey.browser ? t('passkeys.addedIn', { date: added, browser: passkey.browser }) : t('passkeys.added', { date: added })} ·{' '}
          {passkey.lastUsedAt ? t('passkeys.lastUsed', { date: formatDate(passkey.lastUsedAt) }) : t('passkeys.notUsed')}
        </p>
      </div>
      {/* under the name on a phone (aligned with it), beside it from sm up */}
      <div className="flex w-full flex-wrap gap-2 pl-13 sm:w-auto sm:flex-nowrap sm:pl-0">
        <Button variant="secondary" size="sm" onClick={onRename} aria-label={t('passkeys.renameLabel', { name: passkey.name })}>
          {t('passkeys.rename')}
        </Button>
        <Button variant="secondary" size="sm" onClick={onRemove} aria-label={t('passkeys.removeLabel', { name: passkey.name })}>
          {t('passkeys.remove')}
        </Button>
      </div>
    </li>
  );
}

/** A name to start from: the browser and system this passkey is made in. */
function suggestedName() {
  const ua = typeof navigator === 'undefined' ? '' : navigator.userAgent;
  const system = /iPhone|iPad/.test(ua)
    ? 'iPhone'
    : /Android/.test(ua)
      ? 'Android'
      : /Mac OS X/.test(ua)
        ? 'Mac'
        : /Windows/.test(ua)
          ? 'Windows'
          : translator(securityMessages)('passkeys.thisComputer');
  return system;
}

/** Name, then the e-mailed code, then the device's own prompt (PIN, fingerprint, face). */
function AddPasskeyDialog({ onClose }: { onClose: () => void }) {
  const t = useT(securityMessages);
  const [step, setStep] = useState<'name' | 'code'>('name');
  const [name, setName] = useState(suggestedName);
  const [nameError, setNameError] = useState<string>();
  const [error, setError] = useState<string>();
  const code = useCodeStep();
  const add = useAddPasskey();

  const toCode = (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    const trimmed = name.trim();
    if (!trimmed) return setNameError(t('passkeys.nameRequired'));
    void code
      .send({ action: 'passkey.add', target: { name: trimmed } }, (err) => setError(localizeMessage(err.message)))
      .then((sent) => sent && setStep('code'));
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    add.mutate(
      { name: name.trim(), otp: code.code },
      {
        onSuccess: () => {
          toast.show(translator(securityMessages)('passkeys.addedToast'));
          onClose();
        },
        onError: (err) => {
          if (code.takeError(err)) return;
          // the server's message is in the page's language already; the browser's refusals are the contract's words
          setError(
            err instanceof ApiError
              ? err.message
              : localizeMessage(ceremonyMessage(err) ?? (err instanceof Error ? err.message : PASSKEY_MESSAGES.notAccepted)),
          );
        },
      },
    );
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('passkeys.addTitle')}
      description={t(step === 'name' ? 'passkeys.addNameStep' : 'passkeys.addCodeStep')}
      footer={
        step === 'name' ? (
          <>
            <Button variant="secondary" onClick={onClose}>
              {t('passkeys.cancel')}
            </Button>
            <Button type="submit" form="passkey-name-form" loading={code.sending}>
              {t('passkeys.continue')}
            </Button>
          </>
        ) : (
          <>
            <Button variant="secondary" onClick={() => setStep('name')} disabled={add.isPending}>
              {t('passkeys.back')}
            </Button>
            <Button type="submit" form="passkey-code-form" loading={add.isPending} disabled={code.code.length !== 6}>
              {t('passkeys.addConfirm')}
            </Button>
          </>
        )
      }
    >
      {step === 'name' ? (
        <form id="passkey-name-form" onSubmit={toCode} noValidate className="space-y-4">
          <TextField
            label={t('passkeys.name')}
            value={name}
            maxLength={PASSKEY_NAME_MAX}
            hint={t('passkeys.nameHint')}
            error={nameError}
            onChange={(e) => {
              setName(e.target.value);
              setNameError(undefined);
            }}
            autoFocus
          />
          {code.sendError && <Alert tone="danger">{code.sendError}</Alert>}
          {error && <Alert tone="danger">{error}</Alert>}
        </form>
      ) : (
        <form id="passkey-code-form" onSubmit={submit} noValidate className="space-y-4">
          <CodeStep step={code} />
          {error && <Alert tone="danger">{error}</Alert>}
        </form>
      )}
    </Dialog>
  );
}

/** A dialog of one field: Cancel and the confirming button, which submits the field's form (Enter does too). */
function OneFieldDialog({
  title,
  description,
  confirm,
  danger = false,
  busy,
  ready = true,
  onConfirm,
  onClose,
  children,
}: {
  title: string;
  description?: string;
  confirm: string;
  danger?: boolean;
  busy: boolean;
  ready?: boolean;
  onConfirm: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  const t = useT(securityMessages);
  const formId = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (ready) onConfirm();
  };
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={title}
      description={description}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t('passkeys.cancel')}
          </Button>
          <Button type="submit" form={formId} variant={danger ? 'danger' : 'primary'} loading={busy} disabled={!ready}>
            {confirm}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} noValidate>
        {children}
      </form>
    </Dialog>
  );
}

function RenamePasskeyDialog({ passkey, onClose }: { passkey: Passkey; onClose: () => void }) {
  const t = useT(securityMessages);
  const [name, setName] = useState(passkey.name);
  const rename = useRenamePasskey();
  return (
    <OneFieldDialog
      title={t('passkeys.renameTitle')}
      confirm={t('passkeys.save')}
      busy={rename.isPending}
      onConfirm={() => rename.mutate({ id: passkey.id, name }, { onSuccess: onClose })}
      onClose={onClose}
    >
      <TextField
        label={t('passkeys.name')}
        value={name}
        maxLength={PASSKEY_NAME_MAX}
        onChange={(e) => setName(e.target.value)}
        error={rename.isError ? rename.error.message : undefined}
        autoFocus
      />
    </OneFieldDialog>
  );
}

function RemovePasskeyDialog({ passkey, onClose }: { passkey: Passkey; onClose: () => void }) {
  const t = useT(securityMessages);
  const [code, setCode] = useState('');
  const remove = useRemovePasskey();
  const confirm = () =>
    remove.mutate(
      { id: passkey.id, code },
      {
        onSuccess: () => {
          toast.show(translator(securityMessages)('passkeys.removed'));
          onClose();
        },
      },
    );
  return (
    <OneFieldDialog
      title={t('passkeys.removeTitle')}
      description={t('passkeys.removeDescription', { name: passkey.name })}
      confirm={t('passkeys.removeConfirm')}
      danger
      busy={remove.isPending}
      ready={code.trim().length >= 6}
      onConfirm={confirm}
      onClose={onClose}
    >
      <TextField
        label={t('passkeys.code')}
        value={code}
        inputMode="text"
        autoComplete="one-time-code"
        onChange={(e) => setCode(e.target.value)}
        error={remove.isError ? remove.error.message : undefined}
        autoFocus
      />
    </OneFieldDialog>
  );
}

/** The caller's passkeys: add (named, with the e-mailed code), rename, remove (with the second factor). */
export function PasskeysCard() {
  const t = useT(securityMessages);
  const passkeys = usePasskeys();
  const [dialog, setDialog] = useState<{ kind: 'add' } | { kind: 'rename' | 'remove'; passkey: Passkey }>();
  const supported = passkeysSupported();
  const full = (passkeys.data?.length ?? 0) >= PASSKEYS_PER_USER;
  return (
    <Card className="mb-6 p-0">
      <div className="flex flex-col gap-3 border-b border-line px-5 py-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 flex-1">
          <h2 className="text-base font-semibold text-ink">{t('passkeys.title')}</h2>
          <p className="text-sm text-muted">{t('passkeys.description')}</p>
        </div>
        {supported && (
          <Button variant="secondary" className="self-start" onClick={() => setDialog({ kind: 'add' })} disabled={!passkeys.isSuccess || full}>
            <KeyRound className="size-4" aria-hidden="true" />
            {t('passkeys.add')}
          </Button>
        )}
      </div>
      {!supported && (
        <Alert tone="info" className="m-5">
          {t('passkeys.unsupported')}
        </Alert>
      )}
      <ErrorAlert error={passkeys.error} className="m-5" />
      {passkeys.isPending ? (
        <RowSkeletons rows={1} mark="size-9 rounded-full" name="h-4 w-40" end="h-8 w-36" />
      ) : passkeys.data?.length ? (
        <ul className="divide-y divide-line" aria-label={t('passkeys.list')}>
          {passkeys.data.map((p) => (
            <PasskeyRow
              key={p.id}
              passkey={p}
              onRename={() => setDialog({ kind: 'rename', passkey: p })}
              onRemove={() => setDialog({ kind: 'remove', passkey: p })}
            />
          ))}
        </ul>
      ) : (
        passkeys.isSuccess && <p className="px-5 py-6 text-sm text-muted">{t('passkeys.none')}</p>
      )}
      {dialog?.kind === 'add' && <AddPasskeyDialog onClose={() => setDialog(undefined)} />}
      {dialog?.kind === 'rename' && <RenamePasskeyDialog passkey={dialog.passkey} onClose={() => setDialog(undefined)} />}
      {dialog?.kind === 'remove' && <RemovePasskeyDialog passkey={dialog.passkey} onClose={() => setDialog(undefined)} />}
    </Card>
  );
}
