import type { z } from 'zod';
import {
  AuthResult,
  LoginResponse,
  MessageResponse,
  type ChallengeResponseRequest,
  type ConfirmPasswordResetRequest,
  type ForgotPasswordRequest,
  type LoginRequest,
  type SetPasswordRequest,
  type VerifyTokenRequest,
} from '@portal/contract/auth';
import { PasskeyOptionsResponse, type PasskeySignInRequest } from '@portal/contract/passkeys';
import { api } from '../../../lib/api-client.ts';

/** The sign-in calls (portal-core §7). None sends the access token: they are how one is obtained. */
export const authApi = {
  login: (body: z.input<typeof LoginRequest>) => api.post('users/login', body, { schema: LoginResponse, auth: false }),
  verifyToken: (body: z.input<typeof VerifyTokenRequest>) => api.post('users/verify-token', body, { schema: AuthResult, auth: false }),
  challengeResponse: (body: z.input<typeof ChallengeResponseRequest>) => api.post('users/challenge-response', body, { schema: AuthResult, auth: false }),
  setPassword: (body: z.input<typeof SetPasswordRequest>) => api.put('users/password', body, { schema: MessageResponse, auth: false }),
  forgotPassword: (body: z.input<typeof ForgotPasswordRequest>) => api.post('users/forgot-password', body, { schema: MessageResponse, auth: false }),
  confirmPasswordReset: (body: z.input<typeof ConfirmPasswordResetRequest>) =>
    api.post('users/confirm-password-reset', body, { schema: MessageResponse, auth: false }),
  passkeyOptions: () => api.post('users/passkey-options', {}, { schema: PasskeyOptionsResponse, auth: false }),
  passkeySignIn: (body: PasskeySignInRequest) => api.post('users/passkey-sign-in', body, { schema: AuthResult, auth: false }),
};

/**
 * A sign-in with a passkey: the server's options, the browser's prompt (the device's screen lock, fingerprint or
 * face, or a security key), the answer. WebAuthn's browser code loads only when it is asked for: the sign-in page
 * keeps its budget.
 */
export async function signInWithPasskey() {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const { ceremony, options } = await authApi.passkeyOptions();
  const credential = await startAuthentication({ optionsJSON: options as never });
  return authApi.passkeySignIn({ ceremony, credential: credential as PasskeySignInRequest['credential'] });
}
