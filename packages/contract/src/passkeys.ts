import { z } from 'zod';
import { OtpCode, OtpOrRecoveryCode } from './auth.ts';
import { safeText } from './validation.ts';

/**
 * Passkeys (WebAuthn): a user adds them under Settings → Security (the e-mailed code confirms each), names them, sees
 * when each was last used and removes them with the authenticator app's code (or a recovery code). A passkey signs in
 * on its own: it is something the user has, unlocked by something the user is or knows, so both factors at once.
 */
export const PASSKEY_NAME_MAX = 60;
/** How many passkeys one user may keep (a platform one per device and a few security keys). */
export const PASSKEYS_PER_USER = 10;
/** How long the browser's ceremony may take, from the options to the answer. */
export const PASSKEY_CEREMONY_SECONDS = 5 * 60;

export const PASSKEY_MESSAGES = {
  nameRequired: 'Give the passkey a name, such as the device it is on.',
  nameTooLong: `A passkey's name is at most ${PASSKEY_NAME_MAX} characters.`,
  tooMany: `You have ${PASSKEYS_PER_USER} passkeys, the most one person may keep. Remove one before adding another.`,
  notAccepted: 'This passkey could not be checked. Try again, or sign in with your password.',
  expired: 'The passkey request took too long. Try again.',
  unknown: 'This passkey is not one of this portal’s. Sign in with your password, then add it under Settings.',
  cloned:
    'This passkey was refused: its authenticator reported an earlier use count than before, as a copied key would. It is disabled; sign in with your password and tell your administrator.',
  notFound: 'This passkey is not one of yours, or it has been removed already.',
  alreadyAdded: 'This passkey is added already.',
  cancelled: 'The passkey request was cancelled or timed out.',
  unsupported: 'This browser cannot use passkeys.',
  resetPending: 'Your administrator asked you to choose a new password. Sign in with your e-mail and password to choose it.',
} as const;

// text PostgreSQL can store (a NUL in a name was a 500): no control characters, no lone surrogates
const PasskeyName = safeText({
  trim: true,
  min: 1,
  minMessage: PASSKEY_MESSAGES.nameRequired,
  max: PASSKEY_NAME_MAX,
  maxMessage: PASSKEY_MESSAGES.nameTooLong,
});

export const Passkey = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  /** synced between the user's devices (a passkey manager), or bound to one authenticator (a security key) */
  synced: z.boolean(),
  /** the browser it was added in, in words */
  browser: z.string().nullable(),
  /** refused for good: its authenticator reported an earlier use count than before (a copied key) */
  disabled: z.boolean(),
});
export type Passkey = z.infer<typeof Passkey>;
export const PasskeysResponse = z.object({ passkeys: z.array(Passkey) });
export const PasskeyIdParams = z.object({ passkeyId: z.uuid() });

/**
 * The browser's answers are WebAuthn's JSON forms (base64url fields), passed to the verifier as they are: the shape is
 * checked here, the content by the verifier.
 */
const B64 = z
  .string()
  .max(16_384)
  .regex(/^[A-Za-z0-9_-]*$/, PASSKEY_MESSAGES.notAccepted);
export const RegistrationCredential = z.object({
  id: B64,
  rawId: B64,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: B64,
    attestationObject: B64,
    transports: z.array(z.string().max(32)).max(10).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
});
export const AuthenticationCredential = z.object({
  id: B64,
  rawId: B64,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: B64,
    authenticatorData: B64,
    signature: B64,
    userHandle: B64.optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
});

/** The options for navigator.credentials (WebAuthn's JSON form), with the ceremony they belong to. */
export const PasskeyOptionsResponse = z.object({ ceremony: z.string(), options: z.record(z.string(), z.unknown()) });
export type PasskeyOptionsResponse = z.infer<typeof PasskeyOptionsResponse>;

/** POST me/passkeys: the new passkey, its name, and the e-mailed code asked for it (action passkey.add). */
export const AddPasskeyRequest = z.object({ ceremony: z.string().max(100), name: PasskeyName, otp: OtpCode, credential: RegistrationCredential }).strict();
export type AddPasskeyRequest = z.input<typeof AddPasskeyRequest>;
export const RenamePasskeyRequest = z.object({ name: PasskeyName }).strict();
/** DELETE me/passkeys/{id}: the second factor, the authenticator app's code or a recovery code. */
export const RemovePasskeyRequest = z.object({ code: OtpOrRecoveryCode }).strict();

/** POST users/passkey-sign-in: the browser's answer to the sign-in options. */
export const PasskeySignInRequest = z.object({ ceremony: z.string().max(100), credential: AuthenticationCredential }).strict();
export type PasskeySignInRequest = z.input<typeof PasskeySignInRequest>;
