import { useState, type FormEvent } from 'react';
import { LOW_BALANCE_MESSAGE } from '@portal/contract/payout';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { useProfile } from '../../../lib/partner/profile.ts';
import { useSaveLowBalanceLimit } from '../api/settings.ts';
import { Section } from './section.tsx';

/** The low-balance limit, starting from the partner's stored one (a new form when it changes). */
export function LowBalanceForm({ canEdit }: { canEdit: boolean }) {
  const stored = useProfile().data?.partner.lowBalanceLimit;
  const initial = stored ? String(Number(stored)) : '';
  return <LowBalanceFields key={initial} canEdit={canEdit} initial={initial} />;
}

function LowBalanceFields({ canEdit, initial }: { canEdit: boolean; initial: string }) {
  const save = useSaveLowBalanceLimit();
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<string>();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    if (!value.trim() || !(Number(value) > 0)) return setError(LOW_BALANCE_MESSAGE);
    save.mutate(value.trim(), {
      onSuccess: () => toast.show('Low balance limit saved'),
      onError: (err) => setError(err.message),
    });
  };
  return (
    <Section title="Low balance limit" description="We show a banner when your available USD balance falls below this amount (1,000 USD when none is set).">
      <form onSubmit={submit} className="flex flex-col gap-3 sm:flex-row sm:items-start" noValidate>
        <TextField
          className="sm:w-64"
          label="Limit (USD)"
          inputMode="decimal"
          value={value}
          disabled={!canEdit}
          onChange={(e) => setValue(e.target.value.replace(/[^\d.]/g, ''))}
          placeholder="1000"
          error={error}
        />
        {canEdit && (
          <Button type="submit" className="sm:mt-7" loading={save.isPending}>
            Save limit
          </Button>
        )}
      </form>
    </Section>
  );
}
