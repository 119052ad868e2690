import { z } from 'zod';
import { ChallengeName, Role, UserStatus } from './domain.ts';
import { safeText } from './validation.ts';

/** What the portal shows for each refusal the sign-in calls can give (portal-core §8, and our own codes). */
export const AUTH_MESSAGES = {
  invalidLogin: 'Incorrect email or password.',
  accountLocked: 'Too many failed sign-in attempts. Your account is locked for 15 minutes.',
  accountInactive: "You don't have access to this dashboard currently. Contact your administrator if this is an error.",
  invalidOtp: 'Invalid OTP',
  tooManyOtp: 'Too many invalid codes. Sign in again.',
  challengeExpired: 'Your sign-in session has expired. Sign in again.',
  invalidResetCode: 'The code is wrong or has expired.',
  tooManyResetTries: 'Too many wrong codes. Ask for a new code.',
  tooManyLogins: 'Too many sign-in attempts from your network. Wait a minute and try again.',
  invalidToken: 'Your session is not valid. Sign in again.',
  tokenExpired: 'Your session has expired.',
  invalidRefresh: 'Your session has ended. Sign in again.',
  csrf: 'The request-forgery token is missing or does not match. Reload the page and try again.',
  forgotPasswordSent: 'If an account exists for this e-mail, a six-digit code is on its way. It is valid for 15 minutes.',
} as const;

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;

const COMMON_PASSWORDS = new Set([
  'password', 'password1', 'password123', 'passw0rd', '123456789012', '1234567890ab', 'qwertyuiop', 'qwertyuiopas',
  'qwerty123456', 'iloveyou1234', 'letmein12345', 'welcome12345', 'administrator', 'admin1234567', 'changeme1234',
  'aaaaaaaaaaaa', 'abc123456789', 'abcdefghijkl', 'football1234', 'baseball1234', 'sunshine1234', 'princess1234',
  'trustno1trustno1', 'monkey123456', 'dragon123456', 'master123456', 'superman1234', 'starwars1234',
  'p@ssw0rd1234', 'p@ssword1234', 'password1234', 'password12345', 'password!234', 'correcthorsebatterystaple',
]);

/** The password rules; the message says what is wrong, or undefined when the password is fine. */
export function passwordProblem(password: string, email: string): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH) return `Use at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (password.length > PASSWORD_MAX_LENGTH) return `Use at most ${PASSWORD_MAX_LENGTH} characters.`;
  const lower = password.toLowerCase();
  const mail = email.trim().toLowerCase();
  const local = mail.split('@')[0] ?? '';
  if (lower === mail || (local.length >= 4 && lower.includes(local))) return 'The password must not contain your e-mail address.';
  if (COMMON_PASSWORDS.has(lower) || /^(.)\1+$/.test(password) || /^(0123456789|1234567890)/.test(password)) {
    return 'This password is too common. Choose one that is harder to guess.';
  }
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((r) => r.test(password)).length;
  if (classes < 3) return 'Mix at least three of: lower-case letters, capitals, digits and symbols.';
  return undefined;
}

export const Email = z.string().trim().toLowerCase().email('Enter a valid e-mail address').max(254);
export const OtpCode = z.string().trim().regex(/^\d{6}$/, 'Invalid OTP');
/** An authenticator code, or one of the recovery codes (xxxxx-xxxxx). */
export const OtpOrRecoveryCode = z.string().trim().regex(/^(\d{6}|[a-z0-9]{5}-[a-z0-9]{5})$/i, 'Invalid OTP');

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
});
export type AuthResult = z.infer<typeof AuthResult>;

export const SetPasswordRequest = z.object({ password: safeText({ max: PASSWORD_MAX_LENGTH }), email: Email, tempPassword: safeText({ min: 1, max: PASSWORD_MAX_LENGTH }) });
export const RefreshRequest = z.object({ refreshToken: TokenText.optional() }).default({});
export const RefreshResponse = z.object({ accessToken: z.string(), expiresIn: z.number().int(), refreshToken: z.string() });
export const ForgotPasswordRequest = z.object({ email: Email });
export const ConfirmPasswordResetRequest = z.object({
  email: Email,
  password: safeText({ max: PASSWORD_MAX_LENGTH }),
  confirmationCode: z.string().trim().regex(/^\d{6}$/, 'Enter the six-digit code from the e-mail'),
});
export const MessageResponse = z.object({ message: z.string() });
export const CsrfResponse = z.object({ csrf: z.string() });

/** Claims of an access token. */
/** `sid` is the session the token belongs to: when the session ends, the token stops working. */
export type AccessClaims = { sub: string; pid: string; role: Role; email: string; name: string; sid: string; exp: number; iat: number };
