import { useMutation } from '@tanstack/react-query';
import { SendOtpResponse } from '@portal/contract/otp';
import { api } from '../../../lib/api-client.ts';

/** E-mails the signed-in user the six-digit code a webhook change needs (PUT user/otp). */
export const useSendCode = () => useMutation({ mutationFn: () => api.put('user/otp', {}, { schema: SendOtpResponse }) });
