import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { OTP_MESSAGES, SendOtpResponse } from '@portal/contract/otp';
import { WALLET_MESSAGES } from '@portal/contract/wallets';
import { ApiError, api } from './api-client.ts';
import { useSession } from './session/session-store.ts';

/**
 * Asks the server to e-mail the signed-in user a six-digit code (PUT user/otp): the code step of wallet, webhook and
 * IP address changes. The reply says where the code went.
 */
export function useSendOtp() {
  const signedIn = useSession((s) => s.user !== undefined);
  return useMutation({
    mutationFn: async () => {
      if (!signedIn) throw new Error('cannot send otp without user and partner data');
      try {
        return await api.put('user/otp', {}, { schema: SendOtpResponse });
      } catch (err) {
        if (err instanceof ApiError) throw new ApiError(err.status, err.code, `${WALLET_MESSAGES.otpFailed}${err.message}`, err.requestId);
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
    /** mails a code; resolves true once it went */
    async send(): Promise<boolean> {
      setCode('');
      setCodeError(undefined);
      try {
        await send.mutateAsync();
        return true;
      } catch {
        return false;
      }
    },
    /** true when the change's error was about the code (then shown under the field) */
    takeError(err: unknown): boolean {
      if (err instanceof ApiError && err.code === 'InvalidOtp') {
        setCodeError(OTP_MESSAGES.invalid);
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
