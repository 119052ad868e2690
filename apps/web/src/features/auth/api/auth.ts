import {
  AuthResult,
  LoginResponse,
  MessageResponse,
  RefreshResponse,
} from '@portal/contract/auth';
import { api } from '../../../lib/api-client.ts';

/** The sign-in calls (portal-core §7). None sends the access token: they are how one is obtained. */
export const authApi = {
  login: (body: { email: string; password: string }) => api.post('users/login', body, { schema: LoginResponse, auth: false }),
  verifyToken: (body: { session: string; userCode: string; username: string }) =>
    api.post('users/verify-token', body, { schema: AuthResult, auth: false }),
  challengeResponse: (body: { session: string; challengeName: 'SOFTWARE_TOKEN_MFA'; username: string; userCode: string }) =>
    api.post('users/challenge-response', body, { schema: AuthResult, auth: false }),
  setPassword: (body: { password: string; email: string; tempPassword: string }) =>
    api.put('users/password', body, { schema: MessageResponse, auth: false }),
  /** the refresh token travels as an httpOnly cookie the page cannot read */
  refresh: () => api.post('users/refresh', {}, { schema: RefreshResponse, auth: false }),
  logout: () => api.post('users/logout', {}, { schema: MessageResponse, auth: false }),
  forgotPassword: (body: { email: string }) => api.post('users/forgot-password', body, { schema: MessageResponse, auth: false }),
  confirmPasswordReset: (body: { email: string; password: string; confirmationCode: string }) =>
    api.post('users/confirm-password-reset', body, { schema: MessageResponse, auth: false }),
};
