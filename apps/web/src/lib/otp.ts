import { useMutation } from '@tanstack/react-query';
import { SendOtpResponse } from '@portal/contract/otp';
import { WALLET_MESSAGES } from '@portal/contract/wallets';
import { ApiError, api } from './api-client.ts';
import { useSession } from './session/session-store.ts';

/**
 * Asks the server to e-mail the signed-in user a six-digit code (PUT user/otp): the code step of wallet (and later
 * webhook and IP address) changes. The reply says where the code went.
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
