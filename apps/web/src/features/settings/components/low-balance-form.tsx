import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { LowBalanceLimitForm, type LowBalanceLimitFormInput } from '@portal/contract/payout';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { localizeMessage, translator, useT } from '../../../lib/i18n.ts';
import { useProfile } from '../../../lib/partner/profile.ts';
import { useSaveLowBalanceLimit } from '../api/settings.ts';
import { settingsMessages } from '../messages.ts';
import { SETTINGS_SECTIONS, Section } from './section.tsx';

/** A stored decimal ("1000.00000000") as a person would type it ("1000"), without going through a float. */
const plainDecimal = (stored: string) => (stored.includes('.') ? stored.replace(/\.?0+$/, '') : stored);

/** The low-balance limit, starting from the partner's stored one (a new form when it changes). */
export function LowBalanceForm({ canEdit }: { canEdit: boolean }) {
  const stored = useProfile().data?.partner.lowBalanceLimit;
  const initial = stored ? plainDecimal(stored) : '';
  return <LowBalanceFields key={initial} canEdit={canEdit} initial={initial} />;
}

/**
 * Checked with the contract's schema (the server's own rule) before anything is sent: "-5", "0.001" or "abc" are
 * refused with what to change, and the field keeps what was typed.
 */
function LowBalanceFields({ canEdit, initial }: { canEdit: boolean; initial: string }) {
  const t = useT(settingsMessages);
  const save = useSaveLowBalanceLimit();
  const form = useForm<LowBalanceLimitFormInput, unknown, z.output<typeof LowBalanceLimitForm>>({
    resolver: zodResolver(LowBalanceLimitForm),
    defaultValues: { lowBalanceLimit: initial },
  });
  const error = form.formState.errors.lowBalanceLimit?.message;
  const submit = form.handleSubmit(({ lowBalanceLimit }) =>
    save.mutate(lowBalanceLimit, {
      onSuccess: () => toast.show(translator(settingsMessages)('lowBalance.saved')),
      onError: (err) => form.setError('lowBalanceLimit', { message: err.message }),
    }),
  );
  return (
    <Section {...SETTINGS_SECTIONS.lowBalance()}>
      <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-3 sm:flex-row sm:items-start" noValidate>
        <TextField
          className="sm:w-72"
          label={t('lowBalance.label')}
          inputMode="decimal"
          autoComplete="off"
          disabled={!canEdit}
          placeholder="1000"
          hint={t('lowBalance.hint')}
          error={error && localizeMessage(error)}
          {...form.register('lowBalanceLimit')}
        />
        {canEdit && (
          <Button type="submit" className="sm:mt-7" loading={save.isPending}>
            {t('lowBalance.save')}
          </Button>
        )}
      </form>
    </Section>
  );
}
