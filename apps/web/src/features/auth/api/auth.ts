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
};
