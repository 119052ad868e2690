import crypto from 'node:crypto';
import type { Transaction } from 'kysely';
import {
  EMAIL_OTP_MAX_ATTEMPTS,
  EMAIL_OTP_MINUTES,
  EMAIL_OTP_SENDS_PER_WINDOW,
  EMAIL_OTP_SEND_WINDOW_MINUTES,
  OTP_MESSAGES,
  OTP_PURPOSE_MESSAGES,
  type OtpAction,
  type OtpPurpose,
  type SendOtpRequest,
  type SendOtpResponse,
} from '@portal/contract/otp';
import type { DB } from '../../db/schema.ts';
import type { RateLimitRepository } from '../../db/rate-limit.repository.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import { mailLanguage } from '../../lib/language.ts';
import { MAIL_TEXTS, type MailTexts } from '../../lib/mail-texts/index.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { safeEqual, sha256 } from '../../lib/tokens.ts';
import { accountOf, type Auth } from '../../lib/access.ts';
import type { OtpRepository } from './otp.repository.ts';

/** A change's target as the change will see it (canonical), the part of it the code is bound to. */
export type BoundTarget = Record<string, string | null>;
/** words: what the code is for, in the mail's language ("to allow the IP address 203.0.113.7") */
type Checked = Promise<{ target: BoundTarget; words: (texts: MailTexts) => string }>;
/** The change a code is asked for: the change's own checks run first, then it is said in words for the mail. */
export type OtpChecks = { [A in OtpAction]?: (auth: Auth, target: Extract<OtpPurpose, { action: A }>['target']) => Checked };

export type OtpDeps = {
  repo: OtpRepository;
  rateLimits: RateLimitRepository;
  mailer: Mailer;
  now: () => number;
  /** each change's check before a code is sent for it (the modules' own rules, wired in the composition root) */
  checks: () => OtpChecks;
};

/** The text stored with a code and compared by the change: its action and its canonical target, keys sorted. */
export function purposeKey(action: OtpAction, target: BoundTarget): string {
  const keys = Object.keys(target).sort();
  return JSON.stringify([action, ...keys.map((k) => [k, target[k] ?? null])]);
}

const invalidOtp = () => badRequest(OTP_MESSAGES.invalid, 'InvalidOtp');
/** The user's code: the account's, also in the portal's test view (where `partnerId` is the test partner). */
const who = (auth: Auth) => ({ partnerId: accountOf(auth), userId: auth.userId });

/**
 * E-mailed six-digit codes: one live code per user, 10 minutes, five tries (a try is spent before the code is
 * compared, so parallel guesses get five comparisons in all), used up by the change it authorises.
 */
export function createOtpService(deps: OtpDeps) {
  const { repo, mailer } = deps;
  const now = () => new Date(deps.now());

  /** Spends a try and compares; the code's hash when right (with what it was sent for), else InvalidOtp. */
  async function check(auth: Auth, otp: string): Promise<{ hash: string; purpose: string | null }> {
    const live = await repo.spendTry(who(auth), now());
    if (!live || live.attempts > EMAIL_OTP_MAX_ATTEMPTS) throw invalidOtp();
    const hash = sha256(`${auth.userId}:${otp}`);
    if (!safeEqual(live.code_hash, hash)) throw invalidOtp();
    return { hash, purpose: live.purpose };
  }

  /** Runs the change's own checks on the target the code is asked for; the stored purpose and the mail's words. */
  async function checkPurpose(auth: Auth, request: SendOtpRequest): Promise<{ key: string; words: (texts: MailTexts) => string } | undefined> {
    if (!request || !('action' in request)) return undefined;
    const checkOf = deps.checks()[request.action] as ((auth: Auth, target: unknown) => Checked) | undefined;
    if (!checkOf) throw badRequest(OTP_MESSAGES.notForAction(request.action), 'ValidationFailed');
    const { target, words } = await checkOf(auth, request.target);
    return { key: purposeKey(request.action, target), words };
  }

  return {
    async send(auth: Auth, request?: SendOtpRequest): Promise<SendOtpResponse> {
      // the change is checked before a code is spent on it: a refused target never gets a mail
      const purpose = await checkPurpose(auth, request);
      const hit = await deps.rateLimits.hit(`otp-send:${auth.userId}`, EMAIL_OTP_SEND_WINDOW_MINUTES * 60_000, now());
      if (hit.hits > EMAIL_OTP_SENDS_PER_WINDOW) throw new AppError(429, 'OtpRateLimited', OTP_MESSAGES.tooManySends);
      const code = String(crypto.randomInt(0, 1_000_000)).padStart(6, '0');
      await repo.replace(who(auth), {
        codeHash: sha256(`${auth.userId}:${code}`),
        expiresAt: new Date(deps.now() + EMAIL_OTP_MINUTES * 60_000),
        now: now(),
        purpose: purpose?.key ?? null,
      });
      const texts = MAIL_TEXTS[mailLanguage(await repo.language(who(auth)))];
      await mailer.send({
        to: auth.email,
        ...texts.otp({ name: auth.name, code, minutes: EMAIL_OTP_MINUTES, purpose: purpose?.words(texts) }),
      });
      return { message: `We sent a six-digit code to ${auth.email}.`, sentTo: auth.email, expiresInSeconds: EMAIL_OTP_MINUTES * 60 };
    },

    /** Whether the code is right (the portal asks before it sends the change); it stays usable. */
    async verify(auth: Auth, otp: string) {
      await check(auth, otp);
      return { valid: true as const };
    },

    /**
     * Runs a change that the code authorises, in one transaction with using the code up. A code confirms only the
     * change (action and target) it was sent for; one asked for without a change confirms none.
     */
    async authorise<T>(auth: Auth, otp: string, purpose: { action: OtpAction; target: BoundTarget }, change: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
      const { hash: codeHash, purpose: sentFor } = await check(auth, otp);
      if (sentFor !== purposeKey(purpose.action, purpose.target)) throw badRequest(OTP_PURPOSE_MESSAGES.otherChange, 'OtpForAnotherChange');
      return repo.transaction(async (trx) => {
        if (!(await repo.markUsed(trx, who(auth), { codeHash, now: now() }))) throw invalidOtp();
        return change(trx);
      });
    },
  };
}

export type OtpService = ReturnType<typeof createOtpService>;
