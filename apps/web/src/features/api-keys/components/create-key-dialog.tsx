import { useState, type FormEvent } from 'react';
import {
  API_KEY_MODES,
  API_KEY_PERMISSIONS,
  CreateApiKeyRequest,
  type ApiKeyMode,
  type ApiKeyPermission,
  type ApiKeyWithSecret,
} from '@portal/contract/api-keys';
import { ErrorAlert } from '../../../components/ui/alert.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { TextField, inputClass } from '../../../components/ui/field.tsx';
import { localizeMessage, useT } from '../../../lib/i18n.ts';
import { useCreateApiKey } from '../api/create-api-key.ts';
import { expiryChoices, expiryFrom, type ExpiryChoice } from '../expiry.ts';
import { apiKeysMessages } from '../messages.ts';
import { DialogButtons } from './dialog-buttons.tsx';
import { SecretReveal } from './secret-reveal.tsx';

/** Create a key (mode, name, permissions, expiry), then show its secret once, saying which mode the key is for. */
export function CreateKeyDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const t = useT(apiKeysMessages);
  const [created, setCreated] = useState<ApiKeyWithSecret>();
  const close = () => {
    setCreated(undefined);
    onOpenChange(false);
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : close())}
      title={created ? t('createDialog.savedTitle') : t('create')}
      description={
        created ? t(created.mode === 'test' ? 'createDialog.activeTest' : 'createDialog.activeLive', { name: created.name }) : t('createDialog.description')
      }
      width={540}
    >
      {created ? <SecretReveal apiKey={created} onDone={close} /> : <CreateKeyForm onCreated={setCreated} onCancel={close} />}
    </Dialog>
  );
}

function CreateKeyForm({ onCreated, onCancel }: { onCreated: (key: ApiKeyWithSecret) => void; onCancel: () => void }) {
  const t = useT(apiKeysMessages);
  const create = useCreateApiKey();
  const [mode, setMode] = useState<ApiKeyMode>('live');
  const [name, setName] = useState('');
  const [permissions, setPermissions] = useState<ApiKeyPermission[]>(['api_read']);
  const [expiry, setExpiry] = useState<ExpiryChoice>('never');
  const [date, setDate] = useState('');
  const [errors, setErrors] = useState<{ name?: string; permissions?: string; expiry?: string }>({});

  const toggle = (p: ApiKeyPermission) =>
    setPermissions((ps) => (ps.includes(p) ? ps.filter((x) => x !== p) : API_KEY_PERMISSIONS.filter((x) => x === p || ps.includes(x))));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const at = expiryFrom(expiry, date);
    const parsed = CreateApiKeyRequest.safeParse({ mode, name, permissions, expiry: at ?? null });
    const next: typeof errors = {};
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if (field === 'name' || field === 'permissions') next[field] ??= localizeMessage(issue.message);
      }
    }
    if (expiry === 'date' && !at) next.expiry = t('createDialog.dateAfterToday');
    setErrors(next);
    if (!parsed.success || Object.keys(next).length > 0) return;
    create.mutate(parsed.data, { onSuccess: ({ apiKey }) => onCreated(apiKey) });
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      {/* asked first: live keys reach real money, test keys only the sandbox */}
      <fieldset>
        <legend className="text-sm font-medium">{t('createDialog.mode')}</legend>
        <div className="mt-2 grid gap-2 sm:grid-cols-2">
          {API_KEY_MODES.map((m) => (
            <label
              key={m}
              className={cn(
                'flex cursor-pointer items-start gap-3 rounded-lg border px-3 py-2.5',
                mode === m ? 'border-brand-700 bg-brand-50' : 'border-line bg-white',
              )}
            >
              <input
                type="radio"
                name="mode"
                value={m}
                className="mt-0.5 size-4 accent-brand-700"
                checked={mode === m}
                onChange={() => setMode(m)}
                autoFocus={m === 'live'}
              />
              <span>
                <span className="block text-sm font-medium">{t(`mode.${m}`)}</span>
                <span className="block text-xs text-muted">{t(`modeHelp.${m}`)}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <TextField
        label={t('createDialog.name')}
        placeholder={t('createDialog.namePlaceholder')}
        value={name}
        maxLength={80}
        onChange={(e) => setName(e.target.value)}
        error={errors.name}
        hint={t('createDialog.nameHint')}
      />
      <fieldset>
        <legend className="text-sm font-medium">{t('createDialog.permissions')}</legend>
        <div className="mt-2 space-y-2">
          {API_KEY_PERMISSIONS.map((p) => (
            <label
              key={p}
              className={cn(
                'flex cursor-pointer items-start gap-3 rounded-lg border px-3 py-2.5',
                permissions.includes(p) ? 'border-brand-700 bg-brand-50' : 'border-line bg-white',
              )}
            >
              <input type="checkbox" className="mt-0.5 size-4 accent-brand-700" checked={permissions.includes(p)} onChange={() => toggle(p)} />
              <span>
                <span className="block text-sm font-medium">{t(`permission.${p}`)}</span>
                <span className="block text-xs text-muted">{t(`permissionHelp.${p}`)}</span>
              </span>
            </label>
          ))}
        </div>
        {errors.permissions && (
          <p role="alert" className="mt-1.5 text-xs text-danger">
            {errors.permissions}
          </p>
        )}
      </fieldset>
      <fieldset>
        <legend className="text-sm font-medium">{t('createDialog.expires')}</legend>
        <div className="mt-2 flex flex-wrap gap-2">
          {expiryChoices.map((c) => (
            <label
              key={c}
              className={cn(
                'inline-flex cursor-pointer items-center gap-2 rounded-lg border px-3 py-1.5 text-sm',
                expiry === c ? 'border-brand-700 bg-brand-50' : 'border-line bg-white',
              )}
            >
              <input type="radio" name="expiry" className="size-4 accent-brand-700" checked={expiry === c} onChange={() => setExpiry(c)} />
              {t(`expiry.${c}`)}
            </label>
          ))}
        </div>
        {expiry === 'date' && (
          <label className="mt-3 block max-w-56 text-xs font-medium text-muted">
            {t('createDialog.lastDay')}
            <input
              type="date"
              className={cn(inputClass, 'mt-1')}
              value={date}
              onChange={(e) => setDate(e.target.value)}
              aria-invalid={errors.expiry ? true : undefined}
            />
          </label>
        )}
        {errors.expiry && (
          <p role="alert" className="mt-1.5 text-xs text-danger">
            {errors.expiry}
          </p>
        )}
      </fieldset>
      <ErrorAlert error={create.error} />
      <DialogButtons onCancel={onCancel} label={t('createDialog.submit')} busy={create.isPending} className="pt-1" />
    </form>
  );
}
