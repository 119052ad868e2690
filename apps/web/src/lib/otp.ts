import { useRef, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { OTP_MESSAGES, OTP_PURPOSE_MESSAGES, SendOtpResponse, type OtpPurpose } from '@portal/contract/otp';
import { WALLET_MESSAGES } from '@portal/contract/wallets';
import { ApiError, api } from './api-client.ts';
import { useSession } from './session/session-store.ts';
import { commonMessages } from './common-messages.ts';
import { localizeMessage, translator } from './i18n.ts';

/** The server refused the change itself before sending a code (the same answer the change would get): shown at its field. */
class RefusedChange extends Error {
  constructor(readonly error: ApiError) {
    super(error.message);
  }
}

/**
 * Asks the server to e-mail the signed-in user a six-digit code for a change (PUT user/otp with its action and
 * target): the code step of wallet, webhook and IP address changes. The server checks the change first; the reply
 * says where the code went.
 */
function useSendOtp() {
  const signedIn = useSession((s) => s.user !== undefined);
  return useMutation({
    mutationFn: async (purpose?: OtpPurpose) => {
      if (!signedIn) throw new Error(translator(commonMessages)('errors.otpNoUser'));
      try {
        return await api.put('user/otp', purpose ?? {}, { schema: SendOtpResponse });
      } catch (err) {
        if (err instanceof ApiError && purpose && [400, 403, 404, 409].includes(err.status)) throw new RefusedChange(err);
        if (err instanceof ApiError) throw new ApiError(err.status, err.code, `${localizeMessage(WALLET_MESSAGES.otpFailed)}${err.message}`, err.requestId);
        throw err;
      }
    },
  });
}

/**
 * The e-mailed code of a change (portal-core §5), one for every dialog that needs it: `send()` mails a code (again on
 * request), `code` is what was typed, `codeError` what shows under the field (a wrong code, taken from the change's
 * error by `takeError`), `sentTo` where the code went.
 */
export function useCodeStep() {
  const send = useSendOtp();
  // what the code is for, kept for "Send a new code"
  const purpose = useRef<OtpPurpose>(undefined);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string>();
  return {
    code,
    setCode: (value: string) => {
      setCode(value);
      setCodeError(undefined);
    },
    codeError,
    /** shows a message under the code field */
    showCodeError: setCodeError,
    sentTo: send.data?.sentTo,
    sending: send.isPending,
    sendError: send.isError ? send.error.message : undefined,
    /**
     * Mails a code for the change `forChange` (the last one when not given); resolves true once it went. When the
     * server refuses the change itself (a bad address, a duplicate, ...), `onRefused` gets its error and no code step
     * follows.
     */
    async send(forChange?: OtpPurpose, onRefused?: (err: ApiError) => void): Promise<boolean> {
      if (forChange) purpose.current = forChange;
      setCode('');
      setCodeError(undefined);
      try {
        await send.mutateAsync(purpose.current);
        return true;
      } catch (err) {
        if (err instanceof RefusedChange && onRefused) {
          send.reset();
          onRefused(err.error);
        }
        return false;
      }
    },
    /** true when the change's error was about the code (then shown under the field) */
    takeError(err: unknown): boolean {
      if (err instanceof ApiError && err.code === 'InvalidOtp') {
        setCodeError(OTP_MESSAGES.invalid);
        return true;
      }
      if (err instanceof ApiError && err.code === 'OtpForAnotherChange') {
        setCodeError(OTP_PURPOSE_MESSAGES.otherChange);
        return true;
      }
      return false;
    },
    reset() {
      setCode('');
      setCodeError(undefined);
      send.reset();
    },
  };
}
export type CodeStepState = ReturnType<typeof useCodeStep>;
