import { useState, type FormEvent } from 'react';
import {
  API_KEY_PERMISSIONS,
  API_KEY_PERMISSION_HELP,
  API_KEY_PERMISSION_LABELS,
  CreateApiKeyRequest,
  type ApiKeyPermission,
  type ApiKeyWithSecret,
} from '@portal/contract/api-keys';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { TextField, inputClass } from '../../../components/ui/field.tsx';
import { useCreateApiKey } from '../api/create-api-key.ts';
import { expiryChoices, expiryFrom, type ExpiryChoice } from '../expiry.ts';
import { SecretReveal } from './secret-reveal.tsx';

/** Create a key (name, permissions, expiry), then show its secret once. */
export function CreateKeyDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const [created, setCreated] = useState<ApiKeyWithSecret>();
  const close = () => {
    setCreated(undefined);
    onOpenChange(false);
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : close())}
      title={created ? 'Save your secret key' : 'Create API key'}
      description={created ? `Key "${created.name}" is active.` : 'Your servers use the key to call the partner API.'}
      width={540}
    >
      {created ? <SecretReveal apiKey={created} onDone={close} /> : <CreateKeyForm onCreated={setCreated} onCancel={close} />}
    </Dialog>
  );
}

function CreateKeyForm({ onCreated, onCancel }: { onCreated: (key: ApiKeyWithSecret) => void; onCancel: () => void }) {
  const create = useCreateApiKey();
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
    const parsed = CreateApiKeyRequest.safeParse({ name, permissions, expiry: at ?? null });
    const next: typeof errors = {};
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if (field === 'name' || field === 'permissions') next[field] ??= issue.message;
      }
    }
    if (expiry === 'date' && !at) next.expiry = 'Choose a date after today';
    setErrors(next);
    if (!parsed.success || Object.keys(next).length > 0) return;
    create.mutate(parsed.data, { onSuccess: ({ apiKey }) => onCreated(apiKey) });
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <TextField
        label="Name"
        placeholder="e.g. Payouts server"
        value={name}
        maxLength={80}
        onChange={(e) => setName(e.target.value)}
        error={errors.name}
        hint="So that you can tell your keys apart."
        autoFocus
      />
      <fieldset>
        <legend className="text-sm font-medium">Permissions</legend>
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
                <span className="block text-sm font-medium">{API_KEY_PERMISSION_LABELS[p]}</span>
                <span className="block text-xs text-muted">{API_KEY_PERMISSION_HELP[p]}</span>
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
        <legend className="text-sm font-medium">Expires</legend>
        <div className="mt-2 flex flex-wrap gap-2">
          {expiryChoices.map((c) => (
            <label
              key={c.value}
              className={cn(
                'inline-flex cursor-pointer items-center gap-2 rounded-lg border px-3 py-1.5 text-sm',
                expiry === c.value ? 'border-brand-700 bg-brand-50' : 'border-line bg-white',
              )}
            >
              <input type="radio" name="expiry" className="size-4 accent-brand-700" checked={expiry === c.value} onChange={() => setExpiry(c.value)} />
              {c.label}
            </label>
          ))}
        </div>
        {expiry === 'date' && (
          <label className="mt-3 block max-w-56 text-xs font-medium text-muted">
            Last day the key works
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
      {create.isError && <Alert tone="danger">{create.error.message}</Alert>}
      <div className="flex justify-end gap-3 pt-1">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" loading={create.isPending}>
          Create key
        </Button>
      </div>
    </form>
  );
}
