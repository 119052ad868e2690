import { z } from 'zod';

/** Stable error codes. The portal maps a code to the message it shows; the server's message is for people. */
export const ERROR_CODES = [
  'BadRequest',
  'ValidationFailed',
  'MalformedJson',
  'UnsupportedMediaType',
  'PayloadTooLarge',
  'NotFound',
  'MethodNotAllowed',
  'Unauthorized',
  'Forbidden',
  'Conflict',
  'TooManyRequests',
  'InternalError',
  'ServiceUnavailable',
  // sign-in and sessions
  'InvalidLogin',
  'AccountLocked',
  'AccountInactive',
  'InvalidOtp',
  'ChallengeExpired',
  'InvalidPassword',
  'InvalidResetCode',
  'InvalidToken',
  'TokenExpired',
  'InvalidRefreshToken',
  'CsrfTokenInvalid',
] as const;
export const ErrorCode = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const ErrorBody = z.object({
  code: ErrorCode,
  message: z.string(),
  requestId: z.string(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
