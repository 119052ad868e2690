import crypto from 'node:crypto';
import type { Transaction } from 'kysely';
import { AUTH_MESSAGES, type AuthResult, type LoginResponse, type SessionUser } from '@portal/contract/auth';
import type { Role, UserStatus } from '@portal/contract/domain';
import { PASSKEY_MESSAGES } from '@portal/contract/passkeys';
import type { DB, UserRow } from '../../db/schema.ts';
import type { RequestCtx } from '../../lib/audit.repository.ts';
import { AppError, badRequest, unauthorized } from '../../lib/errors.ts';
import { decrypt, encrypt, type Keys } from '../../lib/keys.ts';
import { hashPassword, verifyPassword } from '../../lib/passwords.ts';
import { randomToken, sha256 } from '../../lib/tokens.ts';
import { matchTotp, newTotpSecret, totpUri } from '../../lib/totp.ts';
import type { SignInRepository } from './sign-in.repository.ts';
import type { SessionsService } from './sessions.service.ts';

export const MAX_FAILED_ATTEMPTS = 5;
export const LOCK_MINUTES = 15;
export const MAX_OTP_ATTEMPTS = 5;
export const CHALLENGE_SECONDS = 3 * 60;
export const RECOVERY_CODE_COUNT = 10;

// a real argon2id hash of a random password: unknown e-mails cost as much time as known ones
const DUMMY_HASH = hashPassword(randomToken());

export type SignInDeps = { repo: SignInRepository; sessions: SessionsService; keys: Keys; now: () => number };
type Ctx = RequestCtx;

const invalidLogin = () => unauthorized(AUTH_MESSAGES.invalidLogin, 'InvalidLogin');
const accountLocked = () => new AppError(423, 'AccountLocked', AUTH_MESSAGES.accountLocked);
const challengeExpired = (message: string = AUTH_MESSAGES.challengeExpired) => unauthorized(message, 'ChallengeExpired');
const invalidOtp = () => badRequest(AUTH_MESSAGES.invalidOtp, 'InvalidOtp');

/** The failure counter of an e-mail: the same for a user and for an e-mail that has none, so the two look alike. */
export const throttleKey = (email: string) => sha256(`sign-in:${email.trim().toLowerCase()}`);

const normaliseRecovery = (code: string) => code.trim().toLowerCase();

function toSessionUser(user: UserRow): SessionUser {
  return { id: user.id, name: user.name, email: user.email, role: user.role as Role, partnerId: user.partner_id, status: user.status as UserStatus };
}

function recoveryCode(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  const chars = Array.from(crypto.randomBytes(10), (b) => alphabet[b % alphabet.length]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/**
 * Sign-in: password and the authenticator challenges (portal-core §4). An invited user's first password is chosen
 * through the invitation's link (modules/team), before the first sign-in.
 */
export function createSignInService(deps: SignInDeps) {
  const { repo, keys, sessions } = deps;
  const now = () => new Date(deps.now());
  const later = (seconds: number) => new Date(deps.now() + seconds * 1000);

  /**
   * Wrong passwords and wrong codes of one e-mail share one counter: an attempt is spent before the secret is
   * checked (so parallel guesses cannot outrun the count), the fifth failure locks for 15 minutes, and a right
   * answer gives its attempt back. A complete sign-in clears the counter.
   */
  async function attempt<T>(email: string, ctx: Ctx, check: () => Promise<T | undefined>, who?: UserRow): Promise<T> {
    const key = throttleKey(email);
    const spent = await repo.spendAttempt(key, { now: now(), max: MAX_FAILED_ATTEMPTS, lockUntil: later(LOCK_MINUTES * 60) });
    if (spent.locked_until && spent.locked_until.getTime() > deps.now()) throw accountLocked();
    const result = await check();
    if (result !== undefined) {
      await repo.refundAttempt(key, now());
      return result;
    }
    // the attempt was spent on its own before the check; the failure's record and the lock land together
    const lockedOut = spent.failures >= MAX_FAILED_ATTEMPTS;
    await repo.transaction(async (trx) => {
      if (who)
        await repo.audit(
          { partnerId: who.partner_id, actorUserId: who.id, actor: who.email, action: 'login.failed', details: { failures: spent.failures }, ...ctx },
          trx,
        );
      if (!lockedOut) return;
      const locked = await repo.lock(key, { now: now(), lockUntil: later(LOCK_MINUTES * 60) }, trx);
      if (locked && who)
        await repo.audit(
          { partnerId: who.partner_id, actorUserId: who.id, actor: who.email, action: 'user.locked', details: { minutes: LOCK_MINUTES }, ...ctx },
          trx,
        );
    });
    throw lockedOut ? accountLocked() : invalidLogin();
  }

  /** The user behind an e-mail when the password is right; the same cost and answer for an unknown e-mail. */
  async function checkPassword(email: string, password: string, ctx: Ctx, hashOf: (user: UserRow) => string | null) {
    const user = await repo.userByEmail(email);
    return attempt(
      email,
      ctx,
      async () => {
        const hash = user ? hashOf(user) : null;
        const ok = await verifyPassword(hash ?? (await DUMMY_HASH), password);
        return ok && user && hash ? user : undefined;
      },
      user,
    );
  }

  async function createChallenge(user: UserRow, challengeName: 'MFA_SETUP' | 'SOFTWARE_TOKEN_MFA', mfaSecret?: string) {
    const session = randomToken();
    await repo.createChallenge({
      partnerId: user.partner_id,
      userId: user.id,
      sessionHash: sha256(session),
      challengeName,
      mfaSecretEnc: mfaSecret ? encrypt(keys.encryptionKey, mfaSecret) : null,
      expiresAt: later(CHALLENGE_SECONDS),
    });
    return session;
  }

  /**
   * The live challenge for this session and user, with one code attempt spent on it (before the code is checked, so
   * that parallel codes cannot outrun the count); ChallengeExpired when unknown, expired, another user's, another
   * kind, or out of attempts.
   */
  async function openChallenge(session: string, username: string, challengeName: string) {
    const challenge = await repo.challengeBySession(sha256(session));
    if (!challenge || challenge.challenge_name !== challengeName) throw challengeExpired();
    if (challenge.expires_at.getTime() <= deps.now()) {
      await repo.deleteChallenge(challenge.partner_id, challenge.id);
      throw challengeExpired();
    }
    const user = await repo.userById(challenge.partner_id, challenge.user_id);
    if (!user || user.email !== username || user.status === 'deleted') throw challengeExpired();
    if (user.status === 'inactive') throw new AppError(403, 'AccountInactive', AUTH_MESSAGES.accountInactive);
    const attempts = await repo.spendCodeAttempt(challenge.partner_id, challenge.id);
    if (attempts === undefined) throw challengeExpired();
    if (attempts > MAX_OTP_ATTEMPTS) {
      await repo.deleteChallenge(challenge.partner_id, challenge.id);
      throw challengeExpired(AUTH_MESSAGES.tooManyOtp);
    }
    return { challenge, user, attempts };
  }

  /** Checks a code through the user's counter; a wrong one also counts on the challenge, whose fifth ends it. */
  async function withCode<T>(opened: Awaited<ReturnType<typeof openChallenge>>, ctx: Ctx, check: () => Promise<T | undefined>): Promise<T> {
    const { challenge, user, attempts } = opened;
    try {
      return await attempt(user.email, ctx, check);
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== 'InvalidLogin') throw err;
      await repo.transaction((trx) =>
        repo.audit({ partnerId: user.partner_id, actorUserId: user.id, actor: user.email, action: 'login.otp_failed', details: { attempts }, ...ctx }, trx),
      );
      if (attempts >= MAX_OTP_ATTEMPTS) {
        await repo.deleteChallenge(challenge.partner_id, challenge.id);
        throw challengeExpired(AUTH_MESSAGES.tooManyOtp);
      }
      throw invalidOtp();
    }
  }

  /** The end of every sign-in: challenges closed, counter cleared, a session opened, all in one transaction. */
  async function signedIn(trx: Transaction<DB>, user: UserRow, ctx: Ctx, method: string): Promise<Omit<AuthResult, 'recoveryCodes'>> {
    await repo.deleteUserChallenges(trx, user.partner_id, user.id);
    await repo.clearFailures(throttleKey(user.email), trx);
    await repo.recordSignIn(trx, user, now());
    await repo.audit({ partnerId: user.partner_id, actorUserId: user.id, actor: user.email, action: 'login.succeeded', details: { method }, ...ctx }, trx);
    return { user: toSessionUser(user), ...(await sessions.start(trx, user, ctx)) };
  }

  /** A user's authenticator code or recovery code, spent like a sign-in's (the same counter, the same lock). */
  async function secondFactor(user: UserRow, code: string, ctx: Ctx): Promise<UserRow | undefined> {
    if (/^\d{6}$/.test(code)) {
      const step = matchTotp(decrypt(keys.encryptionKey, user.totp_secret_enc!), code, deps.now());
      if (step === undefined) return undefined;
      return repo.transaction((trx) => repo.claimTotpStep(trx, user, step));
    }
    return repo.transaction(async (trx) => {
      const used = await repo.useRecoveryCode(trx, user, sha256(normaliseRecovery(code)), now());
      if (!used) return undefined;
      await repo.audit({ partnerId: user.partner_id, actorUserId: user.id, actor: user.email, action: 'mfa.recovery_code_used', ...ctx }, trx);
      return user;
    });
  }

  return {
    /**
     * Confirms a sensitive change of the signed-in user's own account with the second factor (removing a passkey):
     * an authenticator code not used before, or a recovery code (then used up). A wrong one counts as a failed sign-in
     * of the e-mail (the fifth locks it); it answers InvalidOtp, never a 401 that would end the session.
     */
    async confirmSecondFactor(owner: { partnerId: string; userId: string }, code: string, ctx: Ctx): Promise<void> {
      const user = await repo.userById(owner.partnerId, owner.userId);
      if (!user?.totp_secret_enc) throw invalidOtp();
      try {
        await attempt(user.email, ctx, () => secondFactor(user, code.trim(), ctx));
      } catch (err) {
        if (err instanceof AppError && err.code === 'InvalidLogin') throw invalidOtp();
        throw err;
      }
    },

    /**
     * The end of a passkey's sign-in, its answer verified: the user as it is now must be active and not asked to
     * choose a new password; `use` records the passkey's use in the transaction that opens the session (false: the
     * use was refused, and nothing is opened).
     */
    async withPasskey(owner: { partnerId: string; userId: string }, ctx: Ctx, use: (trx: Transaction<DB>) => Promise<boolean>): Promise<AuthResult> {
      const user = await repo.userById(owner.partnerId, owner.userId);
      if (!user || user.status === 'deleted') throw unauthorized(PASSKEY_MESSAGES.unknown, 'PasskeyUnknown');
      if (user.status === 'inactive') {
        await repo.transaction((trx) =>
          repo.audit({ partnerId: user.partner_id, actorUserId: user.id, actor: user.email, action: 'login.refused_inactive', ...ctx }, trx),
        );
        throw new AppError(403, 'AccountInactive', AUTH_MESSAGES.accountInactive);
      }
      if (user.password_reset_requested) throw new AppError(403, 'PasswordResetRequested', PASSKEY_MESSAGES.resetPending);
      return repo.transaction(async (trx) => {
        if (!(await use(trx))) throw unauthorized(PASSKEY_MESSAGES.notAccepted, 'PasskeyRefused');
        return signedIn(trx, user, ctx, 'passkey');
      });
    },

    async login(input: { email: string; password: string }, ctx: Ctx): Promise<LoginResponse> {
      // a removed (deleted) user answers exactly as an unknown e-mail: no password of theirs is checked
      const user = await checkPassword(input.email, input.password, ctx, (u) => (u.status === 'deleted' ? null : u.password_hash));
      if (user.status === 'inactive') {
        await repo.transaction((trx) =>
          repo.audit({ partnerId: user.partner_id, actorUserId: user.id, actor: user.email, action: 'login.refused_inactive', ...ctx }, trx),
        );
        throw new AppError(403, 'AccountInactive', AUTH_MESSAGES.accountInactive);
      }
      if (user.password_reset_requested) return { challengeName: 'PASSWORD_RESET_REQUESTED', userName: user.email };
      if (!user.totp_secret_enc) {
        const secret = newTotpSecret();
        const session = await createChallenge(user, 'MFA_SETUP', secret);
        return { challengeName: 'MFA_SETUP', userName: user.email, session, mfaSecret: secret, otpauthUri: totpUri(secret, user.email) };
      }
      const session = await createChallenge(user, 'SOFTWARE_TOKEN_MFA');
      return { challengeName: 'SOFTWARE_TOKEN_MFA', userName: user.email, session };
    },

    /** Finishes MFA_SETUP: the first code proves the app holds the secret; ten recovery codes are returned once. */
    async verifyToken(input: { session: string; userCode: string; username: string }, ctx: Ctx): Promise<AuthResult> {
      const opened = await openChallenge(input.session, input.username, 'MFA_SETUP');
      const { challenge, user } = opened;
      const secret = decrypt(keys.encryptionKey, challenge.mfa_secret_enc!);
      const step = await withCode(opened, ctx, () => Promise.resolve(matchTotp(secret, input.userCode, deps.now())));
      const codes = Array.from({ length: RECOVERY_CODE_COUNT }, recoveryCode);
      const result = await repo.transaction(async (trx) => {
        const updated = await repo.enrolAuthenticator(trx, user, { secretEnc: challenge.mfa_secret_enc!, step, now: now() });
        await repo.replaceRecoveryCodes(trx, user, codes.map(sha256));
        await repo.audit({ partnerId: user.partner_id, actorUserId: user.id, actor: user.email, action: 'mfa.enrolled', ...ctx }, trx);
        return signedIn(trx, updated, ctx, 'mfa_setup');
      });
      return { ...result, recoveryCodes: codes };
    },

    /** SOFTWARE_TOKEN_MFA: an authenticator code (once only, one step of drift either side) or a recovery code. */
    async challengeResponse(input: { session: string; username: string; userCode: string }, ctx: Ctx): Promise<AuthResult> {
      const opened = await openChallenge(input.session, input.username, 'SOFTWARE_TOKEN_MFA');
      const { user } = opened;
      if (/^\d{6}$/.test(input.userCode)) {
        const secret = decrypt(keys.encryptionKey, user.totp_secret_enc!);
        return withCode(opened, ctx, async () => {
          const step = matchTotp(secret, input.userCode, deps.now());
          if (step === undefined) return undefined;
          // the step moves forward only: a code already used (or an older one) is refused
          return repo.transaction(async (trx) => {
            const claimed = await repo.claimTotpStep(trx, user, step);
            return claimed ? signedIn(trx, claimed, ctx, 'totp') : undefined;
          });
        });
      }
      return withCode(opened, ctx, () =>
        repo.transaction(async (trx) => {
          const used = await repo.useRecoveryCode(trx, user, sha256(normaliseRecovery(input.userCode)), now());
          if (!used) return undefined;
          await repo.audit({ partnerId: user.partner_id, actorUserId: user.id, actor: user.email, action: 'mfa.recovery_code_used', ...ctx }, trx);
          return { ...(await signedIn(trx, user, ctx, 'recovery_code')), recoveryCodesLeft: await repo.recoveryCodesLeft(trx, user) };
        }),
      );
    },
  };
}

export type SignInService = ReturnType<typeof createSignInService>;
