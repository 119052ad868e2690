import { useState } from 'react';
import { ROLL_OVERLAP_CHOICES, type ApiKey, type ApiKeyWithSecret } from '@portal/contract/api-keys';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { useRollApiKey } from '../api/roll-api-key.ts';
import { SecretReveal } from './secret-reveal.tsx';

/** Roll a key (a new secret, shown once); the current secret keeps working until the chosen time, as on Stripe. */
export function RollKeyDialog({ apiKey, onClose }: { apiKey: ApiKey | undefined; onClose: () => void }) {
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
      title={rolled ? 'Save the new secret key' : `Roll API key "${apiKey?.name ?? ''}"`}
      description={rolled ? undefined : 'A new secret replaces the current one. The key ID and permissions stay the same.'}
      width={540}
    >
      {rolled ? (
        <SecretReveal apiKey={rolled} onDone={close} rolled />
      ) : (
        <div className="space-y-5">
          <fieldset>
            <legend className="text-sm font-medium">The current secret stops working</legend>
            <div className="mt-2 grid grid-cols-2 gap-2 sm:grid-cols-3">
              {ROLL_OVERLAP_CHOICES.map((c) => (
                <label
                  key={c.minutes}
                  className={cn(
                    'flex cursor-pointer items-center gap-2 rounded-lg border px-3 py-2 text-sm',
                    minutes === c.minutes ? 'border-brand-700 bg-brand-50' : 'border-line bg-white',
                  )}
                >
                  <input
                    type="radio"
                    name="overlap"
                    className="size-4 accent-brand-700"
                    checked={minutes === c.minutes}
                    onChange={() => setMinutes(c.minutes)}
                  />
                  {c.label}
                </label>
              ))}
            </div>
            <p className="mt-2 text-xs text-muted">
              {minutes === 0
                ? 'Calls signed with the current secret are refused as soon as you roll.'
                : 'Until then both secrets work, so you can update your servers without an outage.'}
            </p>
          </fieldset>
          {roll.isError && <Alert tone="danger">{roll.error.message}</Alert>}
          <div className="flex justify-end gap-3">
            <Button variant="secondary" onClick={close}>
              Cancel
            </Button>
            <Button
              loading={roll.isPending}
              onClick={() => apiKey && roll.mutate({ apiKey: apiKey.apiKey, previousSecretMinutes: minutes }, { onSuccess: (r) => setRolled(r.apiKey) })}
            >
              Roll key
            </Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
