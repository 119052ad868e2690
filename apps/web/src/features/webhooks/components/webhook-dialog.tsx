import { useState, type FormEvent } from 'react';
import { WEBHOOK_DESCRIPTION_MAX, WEBHOOK_MESSAGES, WebhookUrl, type Webhook, type WebhookEventType } from '@portal/contract/webhooks';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { localizeMessage, useT } from '../../../lib/i18n.ts';
import { useCodeStep } from '../../../lib/otp.ts';
import { useCreateWebhook } from '../api/create-webhook.ts';
import { useUpdateWebhook } from '../api/update-webhook.ts';
import { CodeStepFooter, CodeStepForm, StepErrors } from './code-step.tsx';
import { webhooksMessages } from '../messages.ts';
import { EventPicker } from './event-picker.tsx';
import { SecretPanel } from './secret-panel.tsx';

type Step = 'form' | 'code' | 'secret';
const sameEvents = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((e) => b.includes(e));

/**
 * Adds an endpoint, or edits one (`webhook` given): the form, then the e-mailed code, then (new endpoints only) the
 * signing secret, shown once. A refused URL sends the user back to the form with the reason under the field.
 */
export function WebhookDialog({ open, onOpenChange, webhook }: { open: boolean; onOpenChange: (open: boolean) => void; webhook?: Webhook }) {
  return open ? <WebhookDialogBody onOpenChange={onOpenChange} webhook={webhook} /> : null;
}

function WebhookDialogBody({ onOpenChange, webhook }: { onOpenChange: (open: boolean) => void; webhook?: Webhook }) {
  const t = useT(webhooksMessages);
  const editing = webhook !== undefined;
  const [step, setStep] = useState<Step>('form');
  const [url, setUrl] = useState(webhook?.url ?? '');
  const [description, setDescription] = useState(webhook?.description ?? '');
  const [events, setEvents] = useState<WebhookEventType[]>(webhook?.events ?? []);
  const [active, setActive] = useState(webhook?.active ?? true);
  const [errors, setErrors] = useState<{ url?: string; events?: string; form?: string }>({});
  const [secret, setSecret] = useState<string>();
  const code = useCodeStep();
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const busy = create.isPending || update.isPending;

  const changes = () =>
    webhook
      ? {
          ...(url.trim() !== webhook.url ? { url: url.trim() } : {}),
          ...(!sameEvents(events, webhook.events) ? { events } : {}),
          ...(description.trim() !== (webhook.description ?? '') ? { description: description.trim() } : {}),
          ...(active !== webhook.active ? { active } : {}),
        }
      : {};

  const submitForm = async (e: FormEvent) => {
    e.preventDefault();
    const next: typeof errors = {};
    if (!WebhookUrl.safeParse(url).success) next.url = localizeMessage(WEBHOOK_MESSAGES.invalidUrl);
    if (events.length === 0) next.events = localizeMessage(WEBHOOK_MESSAGES.noEvents);
    if (editing && Object.keys(changes()).length === 0) next.form = t('dialog.nothingChanged');
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    const changed = changes();
    // the server checks the endpoint (the URL rules, the limit) before it spends a code on it
    const purpose = webhook
      ? { action: 'webhook.update' as const, target: { id: webhook.id, ...(changed.url !== undefined ? { url: changed.url } : {}) } }
      : { action: 'webhook.create' as const, target: { url: url.trim() } };
    if (
      await code.send(purpose, (err) =>
        setErrors(err.code === 'WebhookUrlRefused' || err.code === 'ValidationFailed' ? { url: err.message } : { form: err.message }),
      )
    )
      setStep('code');
  };

  const onFailure = (err: unknown) => {
    if (code.takeError(err)) return;
    if (err instanceof ApiError && (err.code === 'WebhookUrlRefused' || err.code === 'ValidationFailed')) {
      setErrors({ url: err.message });
      setStep('form');
      return;
    }
    setErrors({ form: err instanceof Error ? err.message : String(err) });
  };

  const submitCode = (e: FormEvent) => {
    e.preventDefault();
    setErrors({});
    if (webhook) {
      update.mutate(
        { id: webhook.id, ...changes(), otp: code.code },
        {
          onSuccess: () => {
            toast.show(t('dialog.updated'));
            onOpenChange(false);
          },
          onError: onFailure,
        },
      );
    } else {
      create.mutate(
        { url: url.trim(), events, ...(description.trim() ? { description: description.trim() } : {}), otp: code.code },
        {
          onSuccess: (reply) => {
            setSecret(reply.secret);
            setStep('secret');
          },
          onError: onFailure,
        },
      );
    }
  };

  const title = step === 'secret' ? t('dialog.titleAdded') : editing ? t('dialog.titleEdit') : t('dialog.titleAdd');
  const description_ = step === 'code' ? t('dialog.confirmChange') : step === 'secret' ? undefined : t('dialog.description');

  return (
    <Dialog
      open
      onOpenChange={(next) => {
        // the secret is shown once: closing by Esc or the cross is the same as Done
        if (!next) onOpenChange(false);
      }}
      title={title}
      description={description_}
      width={600}
      footer={
        step === 'form' ? (
          <>
            <Button variant="secondary" onClick={() => onOpenChange(false)}>
              {t('cancel')}
            </Button>
            <Button type="submit" form="webhook-form" loading={code.sending}>
              {t('continue')}
            </Button>
          </>
        ) : step === 'code' ? (
          <CodeStepFooter step={code} onBack={() => setStep('form')} confirmLabel={editing ? t('dialog.saveChanges') : t('endpoints.add')} busy={busy} />
        ) : (
          <Button onClick={() => onOpenChange(false)}>{t('done')}</Button>
        )
      }
    >
      {step === 'form' && (
        <form id="webhook-form" onSubmit={(e) => void submitForm(e)} className="space-y-4" noValidate>
          <TextField
            label={t('dialog.url')}
            type="url"
            inputMode="url"
            placeholder="https://api.example.com/webhooks/portal"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            error={errors.url}
            hint={t('dialog.urlHint')}
            autoFocus
          />
          <TextField
            label={t('dialog.descriptionLabel')}
            value={description}
            maxLength={WEBHOOK_DESCRIPTION_MAX}
            placeholder={t('dialog.descriptionPlaceholder')}
            onChange={(e) => setDescription(e.target.value)}
          />
          <EventPicker value={events} onChange={setEvents} error={errors.events} />
          {editing && (
            <label className="flex items-start gap-3 rounded-lg border border-line p-3 text-sm">
              <input type="checkbox" className="mt-0.5 size-4 accent-brand-700" checked={active} onChange={(e) => setActive(e.target.checked)} />
              <span>
                <span className="font-medium">{t('dialog.enabled')}</span>
                <span className="block text-muted">{t('dialog.enabledHelp')}</span>
              </span>
            </label>
          )}
          <StepErrors step={code} error={errors.form} />
        </form>
      )}
      {step === 'code' && <CodeStepForm step={code} error={errors.form} onSubmit={submitCode} />}
      {step === 'secret' && secret && <SecretPanel secret={secret} />}
    </Dialog>
  );
}
