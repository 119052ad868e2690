import { useState } from 'react';
import { ROLL_OVERLAP_CHOICES, type ApiKey, type ApiKeyWithSecret } from '@portal/contract/api-keys';
import { OverlapChoices } from '../../../components/overlap-choices.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
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
          <OverlapChoices
            legend="The current secret stops working"
            choices={ROLL_OVERLAP_CHOICES}
            minutes={minutes}
            onChange={setMinutes}
            columns="grid-cols-2 sm:grid-cols-3"
            meaning={{
              now: 'Calls signed with the current secret are refused as soon as you roll.',
              overlap: 'Until then both secrets work, so you can update your servers without an outage.',
            }}
          />
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
