import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { MAX_TEST_FUNDS, TestFundsRequest } from '@portal/contract/test-mode';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { formatCount, formatMoney } from '../../../lib/format.ts';
import { localizeMessage, useT } from '../../../lib/i18n.ts';
import { newId } from '../../../lib/ids.ts';
import { useAddTestFunds } from '../api/test-funds.ts';
import { balanceMessages } from '../messages.ts';

/** The amount as the contract checks it (the reference is made at each sending). */
const TestFundsForm = z.object({ amount: TestFundsRequest.shape.amount });

/** What the field holds when the dialog opens. */
const DEFAULT_AMOUNT = '1000';

/**
 * Add test funds (the test view): test money on the test side's USD balance, never real money. The amount is checked
 * as the server checks it; each sending is a top-up of its own (a fresh reference), which the client sends again
 * through an outage without adding it twice. Done: closed, a toast, the balance read again.
 */
export function TestFundsDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const t = useT(balanceMessages);
  const add = useAddTestFunds();
  const [formError, setFormError] = useState<string>();
  const form = useForm<z.input<typeof TestFundsForm>, unknown, z.output<typeof TestFundsForm>>({
    resolver: zodResolver(TestFundsForm),
    defaultValues: { amount: DEFAULT_AMOUNT },
  });
  const { errors } = form.formState;

  const submit = form.handleSubmit(({ amount }) => {
    setFormError(undefined);
    add.mutate(
      { amount, reference: newId() },
      {
        onSuccess: (res) => {
          toast.show(t('testFunds.added', { amount: formatMoney(res.amount, res.currency) }));
          onOpenChange(false);
        },
        onError: (err) => {
          // the server's word on the amount goes under the field; any other failure above the form
          if (err instanceof ApiError && err.code === 'ValidationFailed') form.setError('amount', { message: err.message }, { shouldFocus: true });
          else setFormError(localizeMessage(err.message));
        },
      },
    );
  });

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={t('testFunds.title')} description={t('testFunds.description')} width={440}>
      <form onSubmit={(e) => void submit(e)} className="space-y-4" noValidate>
        {formError && <Alert tone="danger">{formError}</Alert>}
        <TextField
          label={t('testFunds.amount')}
          inputMode="decimal"
          autoComplete="off"
          autoFocus
          hint={t('testFunds.hint', { max: formatCount(Number(MAX_TEST_FUNDS)) })}
          error={errors.amount?.message}
          {...form.register('amount')}
        />
        <div className="flex flex-col-reverse gap-3 pt-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            {t('cancel')}
          </Button>
          <Button type="submit" loading={add.isPending}>
            {t('testFunds.submit')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
