import { z } from 'zod';
import { ChallengeName, Role, UserStatus } from './domain.ts';
import { safeText } from './validation.ts';

/** What the portal shows for each refusal the sign-in calls can give (portal-core §8, and our own codes). */
/** A new password must differ from this many of the user's passwords: the current one and the ones before it. */
export const PASSWORD_HISTORY = 5;

export const AUTH_MESSAGES = {
  invalidLogin: 'Incorrect email or password.',
  accountLocked: 'Too many failed sign-in attempts. Your account is locked for 15 minutes.',
  accountInactive: "You don't have access to this dashboard currently. Contact your administrator if this is an error.",
  invalidOtp: 'The code you entered is incorrect. Try again.',
  recoveryCodesLeft: (left: number) =>
    left === 0
      ? 'You signed in with your last recovery code: none are left.'
      : `You signed in with a recovery code: ${left} recovery code${left === 1 ? '' : 's'} left.`,
  tooManyOtp: 'Too many invalid codes. Sign in again.',
  challengeExpired: 'Your sign-in session has expired. Sign in again.',
  invalidResetCode: 'The code is wrong or has expired.',
  tooManyResetTries: 'Too many wrong codes. Ask for a new code.',
  passwordReused: `Choose a password you have not used before: it must differ from your last ${PASSWORD_HISTORY} passwords.`,
  tooManyLogins: 'Too many sign-in attempts from your network. Wait a minute and try again.',
  invalidToken: 'Your session is not valid. Sign in again.',
  tokenExpired: 'Your session has expired.',
  invalidRefresh: 'Your session has ended. Sign in again.',
  csrf: 'The request-forgery token is missing or does not match. Reload the page and try again.',
  forgotPasswordSent: 'If an account exists for this e-mail, a six-digit code is on its way. It is valid for 15 minutes.',
} as const;

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;

/** The rules a new password must meet, in the order the portal lists them (and ticks them as the user types). */
export const PASSWORD_RULES = [
  { id: 'length', label: `At least ${PASSWORD_MIN_LENGTH} characters` },
  { id: 'mix', label: 'Three of: lower-case letters, capitals, digits, symbols' },
  { id: 'notEmail', label: 'Not your e-mail address' },
  { id: 'notCommon', label: 'Not a common password' },
] as const;
export type PasswordRuleId = (typeof PASSWORD_RULES)[number]['id'];

/** Tells whether a text (lower case) is a known common password: the list lives in `common-passwords.ts`. */
export type CommonPasswordList = (candidate: string) => boolean;

const LEET: Record<string, string> = { '@': 'a', '4': 'a', '8': 'b', '3': 'e', '6': 'g', '1': 'i', '!': 'i', '0': 'o', $: 's', '5': 's', '7': 't', '2': 'z' };

/**
 * The texts a password is looked up as in the common-password list: itself in lower case, with its l33t spelling
 * undone (p@ssw0rd), and its core without the digits and symbols around it (Password123! -> password), since a
 * common word with a year and a symbol stuck on is the first thing a guesser tries.
 */
export function commonPasswordCandidates(password: string): string[] {
  const lower = password.toLowerCase();
  const core = lower.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '');
  const unleet = (t: string) => t.replace(/[@48361!0$572]/g, (c) => LEET[c] ?? c);
  const candidates = [lower, unleet(lower), lower.replace(/[^\p{L}\p{N}]+$/u, '')];
  if (core.length >= 4) candidates.push(core);
  const leetCore = unleet(lower).replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '');
  if (leetCore.length >= 4) candidates.push(leetCore);
  return [...new Set(candidates)];
}

const isRepetitive = (password: string) => /^(.)\1+$/.test(password) || /^(0123456789|1234567890)/.test(password);

/**
 * Each rule of PASSWORD_RULES for this password: met (true), broken (false), or not known yet (undefined: the
 * common-password list is not loaded; the portal loads it only on the screens that set a password).
 */
export function passwordChecks(password: string, email: string, isCommon?: CommonPasswordList): Record<PasswordRuleId, boolean | undefined> {
  const lower = password.toLowerCase();
  const mail = email.trim().toLowerCase();
  const local = mail.split('@')[0] ?? '';
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((r) => r.test(password)).length;
  const common =
    password.length > 0 && isRepetitive(password) ? true : isCommon && password.length > 0 ? commonPasswordCandidates(password).some(isCommon) : undefined;
  return {
    length: password.length >= PASSWORD_MIN_LENGTH && password.length <= PASSWORD_MAX_LENGTH,
    mix: classes >= 3,
    notEmail: password.length > 0 && !(mail && lower === mail) && !(local.length >= 4 && lower.includes(local)),
    notCommon: common === undefined ? undefined : !common,
  };
}

/**
 * The password rules; the message says what is wrong, or undefined when the password is fine. The server always
 * passes the common-password list; without one only the built-in patterns (one character repeated, a run of digits)
 * count as common.
 */
export function passwordProblem(password: string, email: string, isCommon?: CommonPasswordList): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH) return `Use at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (password.length > PASSWORD_MAX_LENGTH) return `Use at most ${PASSWORD_MAX_LENGTH} characters.`;
  const checks = passwordChecks(password, email, isCommon);
  if (!checks.notEmail) return 'The password must not contain your e-mail address.';
  if (checks.notCommon === false) return 'This password is too common. Choose one that is harder to guess.';
  if (!checks.mix) return 'Mix at least three of: lower-case letters, capitals, digits and symbols.';
  return undefined;
}

export const Email = z.string().trim().toLowerCase().email('Enter a valid e-mail address').max(254);
export const OtpCode = z
  .string()
  .trim()
  .regex(/^\d{6}$/, AUTH_MESSAGES.invalidOtp);
/** An authenticator code, or one of the recovery codes (xxxxx-xxxxx). */
export const OtpOrRecoveryCode = z
  .string()
  .trim()
  .regex(/^(\d{6}|[a-z0-9]{5}-[a-z0-9]{5})$/i, AUTH_MESSAGES.invalidOtp);

/** An opaque token the server handed out (challenge session, refresh token). */
const TokenText = safeText({ max: 512 });

export const LoginRequest = z.object({ email: Email, password: safeText({ min: 1, minMessage: 'Enter your password', max: PASSWORD_MAX_LENGTH }) });
export const LoginResponse = z.object({
  challengeName: ChallengeName,
  userName: z.string(),
  session: z.string().optional(),
  mfaSecret: z.string().optional(),
  otpauthUri: z.string().optional(),
});
export type LoginResponse = z.infer<typeof LoginResponse>;

export const VerifyTokenRequest = z.object({ session: TokenText.min(1), userCode: OtpCode, username: Email });
export const ChallengeResponseRequest = z.object({
  session: TokenText.min(1),
  challengeName: z.literal('SOFTWARE_TOKEN_MFA'),
  username: Email,
  userCode: OtpOrRecoveryCode,
});

export const SessionUser = z.object({
  id: z.string().uuid(),
  name: z.string(),
  email: z.string(),
  role: Role,
  partnerId: z.string().uuid(),
  status: UserStatus,
});
export type SessionUser = z.infer<typeof SessionUser>;

export const AuthResult = z.object({
  user: SessionUser,
  accessToken: z.string(),
  /** seconds until the access token expires */
  expiresIn: z.number().int(),
  /** also set as an httpOnly cookie for the portal; here for non-browser clients */
  refreshToken: z.string(),
  /** shown once, at authenticator setup */
  recoveryCodes: z.array(z.string()).optional(),
  /** after a sign-in with a recovery code: how many unused ones are left */
  recoveryCodesLeft: z.number().int().min(0).optional(),
});
export type AuthResult = z.infer<typeof AuthResult>;

export const SetPasswordRequest = z.object({
  password: safeText({ max: PASSWORD_MAX_LENGTH }),
  email: Email,
  tempPassword: safeText({ min: 1, max: PASSWORD_MAX_LENGTH }),
});
export const RefreshRequest = z.object({ refreshToken: TokenText.optional() }).default({});
/** A refresh answers the user as it is now (its role may have changed since the sign-in): a new tab signs in with it. */
export const RefreshResponse = z.object({ accessToken: z.string(), expiresIn: z.number().int(), refreshToken: z.string(), user: SessionUser });
export type RefreshResponse = z.infer<typeof RefreshResponse>;
export const ForgotPasswordRequest = z.object({ email: Email });
export const ConfirmPasswordResetRequest = z.object({
  email: Email,
  password: safeText({ max: PASSWORD_MAX_LENGTH }),
  confirmationCode: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'Enter the six-digit code from the e-mail'),
});
export const MessageResponse = z.object({ message: z.string() });
export const CsrfResponse = z.object({ csrf: z.string() });

/** Claims of an access token. */
/** `sid` is the session the token belongs to: when the session ends, the token stops working. */
export type AccessClaims = { sub: string; pid: string; role: Role; email: string; name: string; sid: string; exp: number; iat: number };
