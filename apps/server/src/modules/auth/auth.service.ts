import crypto from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { AUTH_MESSAGES, passwordProblem, type AuthResult, type LoginResponse, type SessionUser } from '@portal/contract/auth';
import type { Role, UserStatus } from '@portal/contract/domain';
import type { DB, UserRow } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { AppError, badRequest, unauthorized } from '../../lib/errors.ts';
import { decrypt, encrypt, type Keys } from '../../lib/keys.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { hashPassword, verifyPassword } from '../../lib/passwords.ts';
import { ACCESS_TOKEN_SECONDS, randomToken, safeEqual, sha256, signAccessToken } from '../../lib/tokens.ts';
import { matchTotp, newTotpSecret, totpUri } from '../../lib/totp.ts';

export const MAX_FAILED_LOGINS = 5;
export const LOCK_MINUTES = 15;
export const MAX_OTP_ATTEMPTS = 5;
export const CHALLENGE_SECONDS = 3 * 60;
export const REFRESH_TOKEN_HOURS = 12;
export const RESET_CODE_MINUTES = 15;
export const MAX_RESET_ATTEMPTS = 5;
export const RECOVERY_CODE_COUNT = 10;

// a real argon2id hash of a random password: unknown e-mails cost as much time as known ones
const DUMMY_HASH = hashPassword(randomToken());

export type AuthDeps = { db: Kysely<DB>; keys: Keys; mailer: Mailer; now: () => number; publicUrl: string };
type Ctx = { ip: string | null };
type Exec = Kysely<DB> | Transaction<DB>;

const invalidLogin = () => unauthorized(AUTH_MESSAGES.invalidLogin, 'InvalidLogin');
const challengeExpired = (message: string = AUTH_MESSAGES.challengeExpired) => unauthorized(message, 'ChallengeExpired');
const invalidRefresh = () => unauthorized(AUTH_MESSAGES.invalidRefresh, 'InvalidRefreshToken');

const normaliseRecovery = (code: string) => code.trim().toLowerCase();

function toSessionUser(user: UserRow): SessionUser {
  return { id: user.id, name: user.name, email: user.email, role: user.role as Role, partnerId: user.partner_id, status: user.status as UserStatus };
}

function recoveryCode(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  const chars = Array.from(crypto.randomBytes(10), (b) => alphabet[b % alphabet.length]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

export function createAuthService(deps: AuthDeps) {
  const { db, keys, mailer } = deps;
  const now = () => new Date(deps.now());
  const later = (seconds: number) => new Date(deps.now() + seconds * 1000);

  const userByEmail = (exec: Exec, email: string) => exec.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();

  async function createChallenge(user: UserRow, challengeName: 'MFA_SETUP' | 'SOFTWARE_TOKEN_MFA', mfaSecret?: string) {
    const session = randomToken();
    await db
      .insertInto('auth_challenges')
      .values({
        partner_id: user.partner_id,
        user_id: user.id,
        session_hash: sha256(session),
        challenge_name: challengeName,
        mfa_secret_enc: mfaSecret ? encrypt(keys.encryptionKey, mfaSecret) : null,
        expires_at: later(CHALLENGE_SECONDS),
      })
      .execute();
    return session;
  }

  /** The live challenge for this session and user, or ChallengeExpired (unknown, expired, other user, other kind). */
  async function openChallenge(session: string, username: string, challengeName: string) {
    const challenge = await db.selectFrom('auth_challenges').selectAll().where('session_hash', '=', sha256(session)).executeTakeFirst();
    if (!challenge || challenge.challenge_name !== challengeName) throw challengeExpired();
    if (challenge.expires_at.getTime() <= deps.now()) {
      await db.deleteFrom('auth_challenges').where('partner_id', '=', challenge.partner_id).where('id', '=', challenge.id).execute();
      throw challengeExpired();
    }
    const user = await db
      .selectFrom('users')
      .selectAll()
      .where('partner_id', '=', challenge.partner_id)
      .where('id', '=', challenge.user_id)
      .executeTakeFirst();
    if (!user || user.email !== username) throw challengeExpired();
    if (user.status === 'inactive') throw new AppError(403, 'AccountInactive', AUTH_MESSAGES.accountInactive);
    return { challenge, user };
  }

  /** Counts a wrong code; the fifth ends the challenge. */
  async function wrongCode(challenge: { partner_id: string; id: string; attempts: number }, user: UserRow, ip: string | null): Promise<never> {
    const attempts = challenge.attempts + 1;
    await audit(db, { partnerId: user.partner_id, actorUserId: user.id, actor: user.email, action: 'login.otp_failed', details: { attempts }, ip });
    if (attempts >= MAX_OTP_ATTEMPTS) {
      await db.deleteFrom('auth_challenges').where('partner_id', '=', challenge.partner_id).where('id', '=', challenge.id).execute();
      throw challengeExpired(AUTH_MESSAGES.tooManyOtp);
    }
    await db.updateTable('auth_challenges').set({ attempts }).where('partner_id', '=', challenge.partner_id).where('id', '=', challenge.id).execute();
    throw badRequest(AUTH_MESSAGES.invalidOtp, 'InvalidOtp');
  }

  async function issueRefreshToken(exec: Exec, user: UserRow, familyId: string = crypto.randomUUID()) {
    const id = crypto.randomUUID();
    const secret = randomToken();
    await exec
      .insertInto('refresh_tokens')
      .values({ partner_id: user.partner_id, id, user_id: user.id, family_id: familyId, token_hash: sha256(secret), expires_at: later(REFRESH_TOKEN_HOURS * 3600) })
      .execute();
    return `${id}.${secret}`;
  }

  async function signedIn(trx: Transaction<DB>, user: UserRow, ip: string | null, method: string): Promise<Omit<AuthResult, 'recoveryCodes'>> {
    await trx.deleteFrom('auth_challenges').where('partner_id', '=', user.partner_id).where('user_id', '=', user.id).execute();
    const refreshToken = await issueRefreshToken(trx, user);
    await audit(trx, { partnerId: user.partner_id, actorUserId: user.id, actor: user.email, action: 'login.succeeded', details: { method }, ip });
    const accessToken = await signAccessToken(keys.jwtSecret, { sub: user.id, pid: user.partner_id, role: user.role as Role, email: user.email, name: user.name });
    return { user: toSessionUser(user), accessToken, expiresIn: ACCESS_TOKEN_SECONDS, refreshToken };
  }

  async function revokeFamily(exec: Exec, partnerId: string, familyId: string) {
    await exec
      .updateTable('refresh_tokens')
      .set({ revoked_at: now() })
      .where('partner_id', '=', partnerId)
      .where('family_id', '=', familyId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  function parseRefreshToken(token: string | undefined) {
    const match = token ? /^([0-9a-f-]{36})\.([A-Za-z0-9_-]{43})$/.exec(token) : null;
    return match ? { id: match[1]!, secret: match[2]! } : undefined;
  }

  return {
    async login(input: { email: string; password: string }, { ip }: Ctx): Promise<LoginResponse> {
      const user = await userByEmail(db, input.email);
      if (!user) {
        await verifyPassword(await DUMMY_HASH, input.password);
        throw invalidLogin();
      }
      if (user.locked_until && user.locked_until.getTime() > deps.now()) {
        throw new AppError(423, 'AccountLocked', AUTH_MESSAGES.accountLocked);
      }
      const invited = user.status === 'invited';
      const ok = await verifyPassword(invited ? user.temp_password_hash : user.password_hash, input.password);
      if (!ok) {
        const failures = user.failed_logins + 1;
        const lock = failures >= MAX_FAILED_LOGINS;
        await db.transaction().execute(async (trx) => {
          await trx
            .updateTable('users')
            .set(lock ? { failed_logins: 0, locked_until: later(LOCK_MINUTES * 60) } : { failed_logins: failures })
            .where('partner_id', '=', user.partner_id)
            .where('id', '=', user.id)
            .execute();
          await audit(trx, { partnerId: user.partner_id, actorUserId: user.id, actor: user.email, action: 'login.failed', details: { failures }, ip });
          if (lock) await audit(trx, { partnerId: user.partner_id, actorUserId: user.id, actor: user.email, action: 'user.locked', details: { minutes: LOCK_MINUTES }, ip });
        });
        if (lock) throw new AppError(423, 'AccountLocked', AUTH_MESSAGES.accountLocked);
        throw invalidLogin();
      }
      if (user.failed_logins > 0 || user.locked_until) {
        await db.updateTable('users').set({ failed_logins: 0, locked_until: null }).where('partner_id', '=', user.partner_id).where('id', '=', user.id).execute();
      }
      if (user.status === 'inactive') {
        await audit(db, { partnerId: user.partner_id, actorUserId: user.id, actor: user.email, action: 'login.refused_inactive', ip });
        throw new AppError(403, 'AccountInactive', AUTH_MESSAGES.accountInactive);
      }
      if (invited) return { challengeName: 'NEW_PASSWORD_REQUIRED', userName: user.email };
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
    async verifyToken(input: { session: string; userCode: string; username: string }, { ip }: Ctx): Promise<AuthResult> {
      const { challenge, user } = await openChallenge(input.session, input.username, 'MFA_SETUP');
      const secret = decrypt(keys.encryptionKey, challenge.mfa_secret_enc!);
      const step = matchTotp(secret, input.userCode, deps.now());
      if (step === undefined) return wrongCode(challenge, user, ip);
      const codes = Array.from({ length: RECOVERY_CODE_COUNT }, recoveryCode);
      const result = await db.transaction().execute(async (trx) => {
        const updated = await trx
          .updateTable('users')
          .set({ totp_secret_enc: challenge.mfa_secret_enc, totp_last_step: step, status: 'active', updated_at: now() })
          .where('partner_id', '=', user.partner_id)
          .where('id', '=', user.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        await trx.deleteFrom('recovery_codes').where('partner_id', '=', user.partner_id).where('user_id', '=', user.id).execute();
        await trx
          .insertInto('recovery_codes')
          .values(codes.map((c) => ({ partner_id: user.partner_id, user_id: user.id, code_hash: sha256(c) })))
          .execute();
        await audit(trx, { partnerId: user.partner_id, actorUserId: user.id, actor: user.email, action: 'mfa.enrolled', ip });
        return signedIn(trx, updated, ip, 'mfa_setup');
      });
      return { ...result, recoveryCodes: codes };
    },

    /** SOFTWARE_TOKEN_MFA: an authenticator code (once only, one step of drift either side) or a recovery code. */
    async challengeResponse(input: { session: string; username: string; userCode: string }, { ip }: Ctx): Promise<AuthResult> {
      const { challenge, user } = await openChallenge(input.session, input.username, 'SOFTWARE_TOKEN_MFA');
      if (/^\d{6}$/.test(input.userCode)) {
        const secret = decrypt(keys.encryptionKey, user.totp_secret_enc!);
        const step = matchTotp(secret, input.userCode, deps.now());
        if (step === undefined) return wrongCode(challenge, user, ip);
        return db.transaction().execute(async (trx) => {
          // the step moves forward only: a code already used (or an older one) is refused
          const claimed = await trx
            .updateTable('users')
            .set({ totp_last_step: step })
            .where('partner_id', '=', user.partner_id)
            .where('id', '=', user.id)
            .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
            .returningAll()
            .executeTakeFirst();
          if (!claimed) return undefined;
          return signedIn(trx, claimed, ip, 'totp');
        }).then((r) => r ?? wrongCode(challenge, user, ip));
      }
      return db.transaction().execute(async (trx) => {
        const used = await trx
          .updateTable('recovery_codes')
          .set({ used_at: now() })
          .where('partner_id', '=', user.partner_id)
          .where('user_id', '=', user.id)
          .where('code_hash', '=', sha256(normaliseRecovery(input.userCode)))
          .where('used_at', 'is', null)
          .returning('code_hash')
          .executeTakeFirst();
        if (!used) return undefined;
        await audit(trx, { partnerId: user.partner_id, actorUserId: user.id, actor: user.email, action: 'mfa.recovery_code_used', ip });
        return signedIn(trx, user, ip, 'recovery_code');
      }).then((r) => r ?? wrongCode(challenge, user, ip));
    },

    async refresh(token: string | undefined, { ip }: Ctx) {
      const parsed = parseRefreshToken(token);
      if (!parsed) throw invalidRefresh();
      const row = await db.selectFrom('refresh_tokens').selectAll().where('id', '=', parsed.id).executeTakeFirst();
      if (!row || !safeEqual(row.token_hash, sha256(parsed.secret)) || row.revoked_at) throw invalidRefresh();
      if (row.used_at) {
        // a rotated token came back: someone holds a copy. End the whole session, for both holders.
        await db.transaction().execute(async (trx) => {
          await revokeFamily(trx, row.partner_id, row.family_id);
          await audit(trx, { partnerId: row.partner_id, actorUserId: row.user_id, actor: 'system', action: 'session.refresh_token_reused', details: { familyId: row.family_id }, ip });
        });
        throw invalidRefresh();
      }
      if (row.expires_at.getTime() <= deps.now()) throw invalidRefresh();
      const user = await db.selectFrom('users').selectAll().where('partner_id', '=', row.partner_id).where('id', '=', row.user_id).executeTakeFirst();
      if (!user || user.status !== 'active') throw invalidRefresh();
      const refreshToken = await db.transaction().execute(async (trx) => {
        const claimed = await trx
          .updateTable('refresh_tokens')
          .set({ used_at: now() })
          .where('partner_id', '=', row.partner_id)
          .where('id', '=', row.id)
          .where('used_at', 'is', null)
          .returning('id')
          .executeTakeFirst();
        if (!claimed) return undefined;
        return issueRefreshToken(trx, user, row.family_id);
      });
      if (!refreshToken) throw invalidRefresh();
      const accessToken = await signAccessToken(keys.jwtSecret, { sub: user.id, pid: user.partner_id, role: user.role as Role, email: user.email, name: user.name });
      return { accessToken, expiresIn: ACCESS_TOKEN_SECONDS, refreshToken };
    },

    async logout(token: string | undefined, { ip }: Ctx) {
      const parsed = parseRefreshToken(token);
      if (!parsed) return;
      const row = await db.selectFrom('refresh_tokens').selectAll().where('id', '=', parsed.id).executeTakeFirst();
      if (!row || !safeEqual(row.token_hash, sha256(parsed.secret))) return;
      await db.transaction().execute(async (trx) => {
        await revokeFamily(trx, row.partner_id, row.family_id);
        await audit(trx, { partnerId: row.partner_id, actorUserId: row.user_id, actor: 'user', action: 'logout', ip });
      });
    },

    /** An invited user's first password, proven by the temporary one. */
    async setPassword(input: { email: string; password: string; tempPassword: string }, { ip }: Ctx) {
      const user = await userByEmail(db, input.email);
      if (!user || user.status !== 'invited' || !(await verifyPassword(user.temp_password_hash, input.tempPassword))) throw invalidLogin();
      const problem = passwordProblem(input.password, input.email);
      if (problem) throw badRequest(problem, 'InvalidPassword');
      if (input.password === input.tempPassword) throw badRequest('Choose a password other than the temporary one.', 'InvalidPassword');
      const hash = await hashPassword(input.password);
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('users')
          .set({ password_hash: hash, temp_password_hash: null, status: 'active', updated_at: now() })
          .where('partner_id', '=', user.partner_id)
          .where('id', '=', user.id)
          .execute();
        await audit(trx, { partnerId: user.partner_id, actorUserId: user.id, actor: user.email, action: 'password.changed', details: { reason: 'first_password' }, ip });
      });
    },

    async forgotPassword(email: string, { ip }: Ctx) {
      const user = await userByEmail(db, email);
      if (!user || user.status !== 'active') return;
      const code = String(crypto.randomInt(0, 1_000_000)).padStart(6, '0');
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('password_reset_codes').where('partner_id', '=', user.partner_id).where('user_id', '=', user.id).execute();
        await trx
          .insertInto('password_reset_codes')
          .values({ partner_id: user.partner_id, user_id: user.id, code_hash: sha256(code), expires_at: later(RESET_CODE_MINUTES * 60) })
          .execute();
        await audit(trx, { partnerId: user.partner_id, actorUserId: user.id, actor: user.email, action: 'password.reset_requested', ip });
      });
      await mailer.send({
        to: user.email,
        subject: 'Your Partner Dashboard password reset code',
        text: [
          `Hello ${user.name},`,
          '',
          `Your code to reset your password is ${code}. It is valid for ${RESET_CODE_MINUTES} minutes and can be used once.`,
          `Enter it at ${deps.publicUrl}/requested-password-reset.`,
          '',
          'If you did not ask for this, ignore this e-mail: your password stays as it is.',
        ].join('\n'),
      });
    },

    async confirmPasswordReset(input: { email: string; password: string; confirmationCode: string }, { ip }: Ctx) {
      const refuse = (message: string = AUTH_MESSAGES.invalidResetCode) => badRequest(message, 'InvalidResetCode');
      const user = await userByEmail(db, input.email);
      const row = user
        ? await db.selectFrom('password_reset_codes').selectAll().where('partner_id', '=', user.partner_id).where('user_id', '=', user.id).executeTakeFirst()
        : undefined;
      if (!user || !row || row.used_at || row.expires_at.getTime() <= deps.now()) throw refuse();
      if (row.attempts >= MAX_RESET_ATTEMPTS) throw refuse(AUTH_MESSAGES.tooManyResetTries);
      if (!safeEqual(row.code_hash, sha256(input.confirmationCode))) {
        const attempts = row.attempts + 1;
        await db.updateTable('password_reset_codes').set({ attempts }).where('partner_id', '=', user.partner_id).where('user_id', '=', user.id).execute();
        throw refuse(attempts >= MAX_RESET_ATTEMPTS ? AUTH_MESSAGES.tooManyResetTries : AUTH_MESSAGES.invalidResetCode);
      }
      const problem = passwordProblem(input.password, input.email);
      if (problem) throw badRequest(problem, 'InvalidPassword');
      const hash = await hashPassword(input.password);
      await db.transaction().execute(async (trx) => {
        const claimed = await trx
          .updateTable('password_reset_codes')
          .set({ used_at: now() })
          .where('partner_id', '=', user.partner_id)
          .where('user_id', '=', user.id)
          .where('used_at', 'is', null)
          .returning('user_id')
          .executeTakeFirst();
        if (!claimed) throw refuse();
        await trx
          .updateTable('users')
          .set({ password_hash: hash, password_reset_requested: false, failed_logins: 0, locked_until: null, updated_at: now() })
          .where('partner_id', '=', user.partner_id)
          .where('id', '=', user.id)
          .execute();
        await trx
          .updateTable('refresh_tokens')
          .set({ revoked_at: now() })
          .where('partner_id', '=', user.partner_id)
          .where('user_id', '=', user.id)
          .where('revoked_at', 'is', null)
          .execute();
        await audit(trx, { partnerId: user.partner_id, actorUserId: user.id, actor: user.email, action: 'password.changed', details: { reason: 'reset' }, ip });
      });
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
