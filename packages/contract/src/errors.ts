import { z } from 'zod';
import { SessionEndReason } from './live.ts';

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
  'MailUnavailable',
  // sign-in and sessions
  'InvalidLogin',
  'AccountLocked',
  'AccountInactive',
  'InvalidOtp',
  'OtpForAnotherChange',
  'ChallengeExpired',
  'InvalidPassword',
  'PasswordReused',
  'InvalidResetCode',
  'InvalidToken',
  'TokenExpired',
  'InvalidRefreshToken',
  // the session ended (logout, removal, password reset, ...): the message says why, in words
  'SessionEnded',
  'CsrfTokenInvalid',
  // the security screen: ending one's own sessions, reading the history
  'CurrentSession',
  'SessionNotFound',
  'InvalidCursor',
  // passkeys: adding, signing in, removing
  'PasskeyUnknown',
  'PasskeyRefused',
  'PasskeyCloned',
  'PasskeyExpired',
  'PasskeyNotFound',
  'PasskeyExists',
  'TooManyPasskeys',
  'PasswordResetRequested',
  // e-mailed one-time codes
  'OtpRateLimited',
  // transaction search: text that cannot be an id the table shows
  'InvalidIdSearch',
  'ReversedRange',
  // reports
  'TooManyActiveReports',
  // webhooks
  'TooManyWebhooks',
  'WebhookUrlRefused',
  // settlement wallets and withdrawals
  'FeatureDisabled',
  'InvalidWalletAddress',
  'WalletAddressTaken',
  'WalletLimitReached',
  'OwnWalletReview',
  'WalletNotEnabled',
  'InsufficientBalance',
  'SequenceIdReused',
  'TravelRuleRequired',
  // team
  'EmailInUse',
  'AlreadyInvited',
  'InvitationInvalid',
  'LastAdmin',
  // fiat wallets
  'FiatWalletsDisabled',
  // partner rates (enabled countries): a change needs a second admin
  'FourEyesRequired',
  // API keys, allowed IP addresses and the partner API
  'ApiKeyInvalid',
  'ApiKeySignatureInvalid',
  'ApiKeyTimestampInvalid',
  'ApiKeyDisabled',
  'ApiKeyExpired',
  'ApiKeyPermissionDenied',
  'IpAddressNotAllowed',
  'IdempotencyKeyReused',
  'IdempotencyKeyInProgress',
  // collections and disbursements
  'ChannelUnavailable',
  'CountryNotEnabled',
  'AmountOutOfRange',
] as const;
export const ErrorCode = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const ErrorBody = z.object({
  code: ErrorCode,
  message: z.string(),
  requestId: z.string(),
  /** `SessionEnded` only: why the session ended (the message says it in words) */
  reason: SessionEndReason.optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** 429 on a money-moving or heavy call while the partner has its fair share of the server running (Retry-After says when). */
export const FAIR_SHARE_MESSAGE = 'Your organisation has many requests running at once. Please try again in a few seconds.';

/** What the server says to a caller without a session, or to a scraper without the metrics token. */
export const ACCESS_MESSAGES = {
  signIn: 'Sign in to continue.',
  metricsToken: 'Send the metrics token as Authorization: Bearer <token>.',
  nothingToChange: 'Nothing to change.',
} as const;
