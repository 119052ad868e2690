import crypto from 'node:crypto';
import type { Transaction } from 'kysely';
import {
  EMAIL_OTP_MAX_ATTEMPTS,
  EMAIL_OTP_MINUTES,
  EMAIL_OTP_SENDS_PER_WINDOW,
  EMAIL_OTP_SEND_WINDOW_MINUTES,
  OTP_MESSAGES,
  type SendOtpResponse,
} from '@portal/contract/otp';
import type { DB } from '../../db/schema.ts';
import type { RateLimitRepository } from '../../db/rate-limit.repository.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { safeEqual, sha256 } from '../../lib/tokens.ts';
import type { Auth } from '../../lib/access.ts';
import type { OtpRepository } from './otp.repository.ts';

export type OtpDeps = { repo: OtpRepository; rateLimits: RateLimitRepository; mailer: Mailer; now: () => number };

const invalidOtp = () => badRequest(OTP_MESSAGES.invalid, 'InvalidOtp');
const who = (auth: Auth) => ({ partnerId: auth.partnerId, userId: auth.userId });

/**
 * E-mailed six-digit codes: one live code per user, 10 minutes, five tries (a try is spent before the code is
 * compared, so parallel guesses get five comparisons in all), used up by the change it authorises.
 */
export function createOtpService(deps: OtpDeps) {
  const { repo, mailer } = deps;
  const now = () => new Date(deps.now());

  /** Spends a try and compares; the code's hash when right, else InvalidOtp. */
  async function check(auth: Auth, otp: string): Promise<string> {
    const live = await repo.spendTry(who(auth), now());
    if (!live || live.attempts > EMAIL_OTP_MAX_ATTEMPTS) throw invalidOtp();
    const hash = sha256(`${auth.userId}:${otp}`);
    if (!safeEqual(live.code_hash, hash)) throw invalidOtp();
    return hash;
  }

  return {
    async send(auth: Auth): Promise<SendOtpResponse> {
      const hit = await deps.rateLimits.hit(`otp-send:${auth.userId}`, EMAIL_OTP_SEND_WINDOW_MINUTES * 60_000, now());
      if (hit.hits > EMAIL_OTP_SENDS_PER_WINDOW) throw new AppError(429, 'OtpRateLimited', OTP_MESSAGES.tooManySends);
      const code = String(crypto.randomInt(0, 1_000_000)).padStart(6, '0');
      await repo.replace(who(auth), { codeHash: sha256(`${auth.userId}:${code}`), expiresAt: new Date(deps.now() + EMAIL_OTP_MINUTES * 60_000), now: now() });
      await mailer.send({
        to: auth.email,
        subject: 'Your Partner Dashboard verification code',
        text: [
          `Hello ${auth.name},`,
          '',
          `Your verification code is ${code}. It is valid for ${EMAIL_OTP_MINUTES} minutes and can be used once.`,
          '',
          'If you did not ask for it, someone may be signed in as you: change your password and tell your administrator.',
        ].join('\n'),
      });
      return { message: `We sent a six-digit code to ${auth.email}.`, sentTo: auth.email, expiresInSeconds: EMAIL_OTP_MINUTES * 60 };
    },

    /** Whether the code is right (the portal asks before it sends the change); it stays usable. */
    async verify(auth: Auth, otp: string) {
      await check(auth, otp);
      return { valid: true as const };
    },

    /** Runs a change that the code authorises, in one transaction with using the code up. */
    async authorise<T>(auth: Auth, otp: string, change: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
      const codeHash = await check(auth, otp);
      return repo.transaction(async (trx) => {
        if (!(await repo.markUsed(trx, who(auth), { codeHash, now: now() }))) throw invalidOtp();
        return change(trx);
      });
    },
  };
}

export type OtpService = ReturnType<typeof createOtpService>;
