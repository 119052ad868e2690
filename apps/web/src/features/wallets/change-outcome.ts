import { toast } from '../../components/ui/toast-store.ts';
import { localizeMessage } from '../../lib/i18n.ts';
import type { CodeStepState } from '../../lib/otp.ts';

/**
 * What a wallet change confirmed with the e-mailed code does with the server's answer: on success a toast (`done`)
 * and the dialog closed; a wrong code shows under the code field, any other refusal as the dialog's error.
 */
export function changeOutcome(otp: CodeStepState, done: string, close: () => void, showError: (message: string) => void) {
  return {
    onSuccess: () => {
      toast.show(done);
      close();
    },
    onError: (err: Error) => {
      if (!otp.takeError(err)) showError(localizeMessage(err.message));
    },
  };
}
