import { z } from 'zod';
import { OtpCode } from './auth.ts';

/** E-mailed one-time codes that authorise a change (wallets, webhooks, allowed IPs, country rates): portal-core §5. */
export const EMAIL_OTP_MINUTES = 10;
export const EMAIL_OTP_MAX_ATTEMPTS = 5;
/** Codes one user may ask for in EMAIL_OTP_SEND_WINDOW_MINUTES. */
export const EMAIL_OTP_SENDS_PER_WINDOW = 5;
export const EMAIL_OTP_SEND_WINDOW_MINUTES = 10;

export const OTP_MESSAGES = {
  invalid: 'The code you entered is incorrect. Try again.',
  tooManySends: 'Too many codes asked for. Wait a few minutes and try again.',
} as const;

export const SendOtpResponse = z.object({
  message: z.string(),
  /** where the code went, as the portal's code step says it */
  sentTo: z.string(),
  expiresInSeconds: z.number().int(),
});
export type SendOtpResponse = z.infer<typeof SendOtpResponse>;

export const VerifyOtpParams = z.object({ otp: OtpCode });
export const VerifyOtpResponse = z.object({ valid: z.literal(true) });
