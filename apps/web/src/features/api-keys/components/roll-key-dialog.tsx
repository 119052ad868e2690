import { useState } from 'react';
import { ROLL_OVERLAP_CHOICES, type ApiKey, type ApiKeyWithSecret } from '@portal/contract/api-keys';
import { OverlapChoices } from '../../../components/overlap-choices.tsx';
import { ErrorAlert } from '../../../components/ui/alert.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { useT, type Translate } from '../../../lib/i18n.ts';
import { useRollApiKey } from '../api/roll-api-key.ts';
import { apiKeysMessages } from '../messages.ts';
import { DialogButtons } from './dialog-buttons.tsx';
import { SecretReveal } from './secret-reveal.tsx';

/** A choice of how long the current secret keeps working, in words: "Now", "In 1 hour", "In 3 days". */
function overlapLabel(t: Translate<typeof apiKeysMessages.en>, minutes: number): string {
  if (minutes === 0) return t('rollDialog.now');
  const duration = minutes < 2 * 24 * 60 ? t('rollDialog.hours', { count: minutes / 60 }) : t('rollDialog.days', { count: minutes / (24 * 60) });
  return t('rollDialog.in', { duration });
}

/** Roll a key (a new secret, shown once); the current secret keeps working until the chosen time, as on Stripe. */
export function RollKeyDialog({ apiKey, onClose }: { apiKey: ApiKey | undefined; onClose: () => void }) {
  const t = useT(apiKeysMessages);
  const roll = useRollApiKey();
  const [minutes, setMinutes] = useState(60);
  const [rolled, setRolled] = useState<ApiKeyWithSecret>();
  const close = () => {
    setRolled(undefined);
    setMinutes(60);
    roll.reset();
    onClose();
  };
  return (
    <Dialog
      open={apiKey !== undefined}
      onOpenChange={(open) => !open && close()}
      title={rolled ? t('rollDialog.savedTitle') : t('rollDialog.title', { name: apiKey?.name ?? '' })}
      description={rolled ? undefined : t('rollDialog.description')}
      width={540}
    >
      {rolled ? (
        <SecretReveal apiKey={rolled} onDone={close} rolled />
      ) : (
        <div className="space-y-5">
          <OverlapChoices
            legend={t('rollDialog.legend')}
            choices={ROLL_OVERLAP_CHOICES}
            minutes={minutes}
            onChange={setMinutes}
            label={(c) => overlapLabel(t, c.minutes)}
            columns="grid-cols-2 sm:grid-cols-3"
            meaning={{
              now: t('rollDialog.meaningNow'),
              overlap: t('rollDialog.meaningOverlap'),
            }}
          />
          <ErrorAlert error={roll.error} />
          <DialogButtons
            onCancel={close}
            label={t('rollDialog.submit')}
            busy={roll.isPending}
            onAct={() => apiKey && roll.mutate({ apiKey: apiKey.apiKey, previousSecretMinutes: minutes }, { onSuccess: (r) => setRolled(r.apiKey) })}
          />
        </div>
      )}
    </Dialog>
  );
}
