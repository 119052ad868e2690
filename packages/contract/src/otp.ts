import { z } from 'zod';
import { OtpCode } from './auth.ts';
import { addressText } from './validation.ts';
import { RateChangeRequest } from './rates.ts';
import { WALLET_MESSAGES } from './wallets.ts';

/** E-mailed one-time codes that authorise a change (wallets, webhooks, allowed IPs, country rates): portal-core §5. */
export const EMAIL_OTP_MINUTES = 10;
export const EMAIL_OTP_MAX_ATTEMPTS = 5;
/** Codes one user may ask for in EMAIL_OTP_SEND_WINDOW_MINUTES. */
export const EMAIL_OTP_SENDS_PER_WINDOW = 5;
export const EMAIL_OTP_SEND_WINDOW_MINUTES = 10;

export const OTP_MESSAGES = {
  invalid: 'The code you entered is incorrect. Try again.',
  tooManySends: 'Too many codes asked for. Wait a few minutes and try again.',
  notForAction: (action: string) => `A code cannot be asked for ${action}.`,
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

/**
 * What an e-mailed code is for: the change and its target. The code is asked for with it (PUT user/otp), the server
 * checks the target first (the same refusal the change itself would give, before any mail goes), says it in the mail,
 * and the change accepts the code only for the same action and target.
 */
export const OTP_ACTIONS = [
  'wallet.add',
  'wallet.enable',
  'wallet.delete',
  'ip.add',
  'ip.update',
  'ip.delete',
  'webhook.create',
  'webhook.update',
  'webhook.delete',
  'country.status',
  'webhook.roll',
  'passkey.add',
] as const;
export type OtpAction = (typeof OTP_ACTIONS)[number];

const TargetText = z.string().max(2048);
/** a wallet address with the final call's rule (no control characters), checked further by the wallets module */
const WalletTarget = z.object({ address: addressText(WALLET_MESSAGES.invalidAddress), network: TargetText.optional() }).strict();
const IpTarget = z.object({ ipAddress: TargetText }).strict();

export const OtpPurpose = z.discriminatedUnion('action', [
  z
    .object({
      action: z.literal('wallet.add'),
      target: WalletTarget.extend({ network: TargetText, tag: TargetText.nullish(), currencies: z.array(TargetText).max(10).optional() }).strict(),
    })
    .strict(),
  z.object({ action: z.literal('wallet.enable'), target: WalletTarget }).strict(),
  z.object({ action: z.literal('wallet.delete'), target: WalletTarget }).strict(),
  z.object({ action: z.literal('ip.add'), target: IpTarget }).strict(),
  z.object({ action: z.literal('ip.update'), target: IpTarget.extend({ newIpAddress: TargetText, label: TargetText.optional() }).strict() }).strict(),
  z.object({ action: z.literal('ip.delete'), target: IpTarget }).strict(),
  z.object({ action: z.literal('webhook.create'), target: z.object({ url: TargetText }).strict() }).strict(),
  z.object({ action: z.literal('webhook.update'), target: z.object({ id: TargetText, url: TargetText.optional() }).strict() }).strict(),
  z.object({ action: z.literal('webhook.delete'), target: z.object({ id: TargetText }).strict() }).strict(),
  z.object({ action: z.literal('webhook.roll'), target: z.object({ id: TargetText }).strict() }).strict(),
  z.object({ action: z.literal('passkey.add'), target: z.object({ name: TargetText }).strict() }).strict(),
  z.object({ action: z.literal('country.status'), target: z.object({ rates: RateChangeRequest.shape.rates }).strict() }).strict(),
]);
export type OtpPurpose = z.infer<typeof OtpPurpose>;

/** PUT user/otp: what the code is for (a code asked for without it confirms no change). */
export const SendOtpRequest = z.union([OtpPurpose, z.object({}).strict()]).optional();

/** The changes a country code confirms, as one text: each rate's id and where it goes, sorted. */
export const rateChangesKey = (rates: readonly { partnerRateId: string; status: string }[]) =>
  rates
    .map((r) => `${r.partnerRateId}=${r.status}`)
    .sort()
    .join(',');
export type SendOtpRequest = z.input<typeof SendOtpRequest>;

export const OTP_PURPOSE_MESSAGES = {
  otherChange: 'This code was not sent for this change. Ask for a new code for this one.',
} as const;
