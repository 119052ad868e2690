import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { AUTH_MESSAGES, PASSWORD_HISTORY, passwordProblem } from '@portal/contract/auth';
import { isCommonPassword } from '@portal/contract/common-passwords';
import { badRequest } from '../../lib/errors.ts';
import type { UserRow } from '../../db/schema.ts';
import type { LivePublisher } from '../../lib/live-bus.ts';
import { mailLanguage } from '../../lib/language.ts';
import { MAIL_TEXTS } from '../../lib/mail-texts/index.ts';
import type { Mailer } from '../../lib/mailer.ts';
import type { MailQueue } from '../../lib/mail-relay.ts';
import { logFailure } from '../../db/outage.ts';
import { hashPassword, verifyPassword } from '../../lib/passwords.ts';
import { safeEqual, sha256 } from '../../lib/tokens.ts';
import type { PasswordResetRepository } from './password-reset.repository.ts';
import type { SessionsService } from './sessions.service.ts';
import { throttleKey } from './sign-in.service.ts';

export const RESET_CODE_MINUTES = 15;
export const MAX_RESET_ATTEMPTS = 5;

export type PasswordResetDeps = {
  repo: PasswordResetRepository;
  sessions: SessionsService;
  mailer: Mailer;
  now: () => number;
  publicUrl: string;
  /** announces an admin's reset of a member (the team lists it) to the partner's open team screens */
  live: LivePublisher;
  /** a forgotten password's code mail, written with the code and sent once it commits */
  mailQueue: MailQueue;
  log: FastifyBaseLogger;
};
type Ctx = { ip: string | null };
/** Who asked for a change on someone else's account (an admin of the same partner). */
export type Actor = { userId: string; email: string };

const newCode = () => String(crypto.randomInt(0, 1_000_000)).padStart(6, '0');

/** Forgotten passwords: a six-digit code by e-mail, then a new password that ends every session of the user. */
export function createPasswordResetService(deps: PasswordResetDeps) {
  const { repo, mailer, sessions } = deps;
  const now = () => new Date(deps.now());

  const expiry = () => new Date(deps.now() + RESET_CODE_MINUTES * 60_000);
  /** The code's mail, in the user's language (else the request's). */
  const codeMail = (user: UserRow, code: string) => ({ name: user.name, code, minutes: RESET_CODE_MINUTES, publicUrl: deps.publicUrl });
  /** the forgotten-password requests still being worked on after their answer */
  const pending = new Set<Promise<void>>();
  async function mailResetCode(email: string, ip: string | null) {
    const user = await repo.userByEmail(email);
    if (!user || user.status !== 'active') return;
    const code = newCode();
    await repo.transaction(async (trx) => {
      await repo.replaceResetCode(trx, user, { codeHash: sha256(code), expiresAt: expiry() });
      await repo.audit({ partnerId: user.partner_id, actorUserId: user.id, actor: user.email, action: 'password.reset_requested', ip }, trx);
      await deps.mailQueue.enqueue(trx, [{ to: user.email, ...MAIL_TEXTS[mailLanguage(user.language)].passwordResetCode(codeMail(user, code)) }]);
    });
  }
  const sendAdminCode = (user: UserRow, code: string, actor: Actor, first: boolean) =>
    mailer.send({
      to: user.email,
      ...MAIL_TEXTS[mailLanguage(user.language)].passwordResetByAdmin({ ...codeMail(user, code), admin: actor.email, first }),
    });

  return {
    /**
     * An admin locks a member out (portal-core §6: "password reset"): every session ends at once, the next sign-in
     * answers PASSWORD_RESET_REQUESTED, and a six-digit code is e-mailed for /requested-password-reset (the same code
     * and confirmation as a forgotten password). False when the user is not active (any more).
     */
    async resetByAdmin(user: UserRow, actor: Actor, { ip }: Ctx): Promise<boolean> {
      const code = newCode();
      const ended = await repo.transaction(async (trx) => {
        if (!(await repo.requirePasswordReset(trx, user, now()))) return undefined;
        await repo.replaceResetCode(trx, user, { codeHash: sha256(code), expiresAt: expiry() });
        await repo.deleteUserChallenges(trx, user.partner_id, user.id);
        const ids = await sessions.endUserSessions(trx, user, 'password-reset');
        await repo.audit(
          {
            partnerId: user.partner_id,
            actorUserId: actor.userId,
            actor: actor.email,
            action: 'password.reset_by_admin',
            target: user.id,
            details: { email: user.email, sessionsEnded: ids.length },
            ip,
          },
          trx,
        );
        await deps.live.publish(trx, {
          partnerId: user.partner_id,
          table: 'team',
          kind: 'password_reset',
          id: user.id,
          status: user.status,
          at: now().toISOString(),
        });
        return ids;
      });
      if (!ended) return false;
      await sessions.onSessionsEnded(ended);
      await sendAdminCode(user, code, actor, true);
      return true;
    },

    /** A new code for a member whose password an admin reset (PUT users/resend-code): the earlier code stops working. */
    async resendResetCode(user: UserRow, actor: Actor, { ip }: Ctx) {
      const code = newCode();
      await repo.transaction(async (trx) => {
        await repo.replaceResetCode(trx, user, { codeHash: sha256(code), expiresAt: expiry() });
        await repo.audit(
          {
            partnerId: user.partner_id,
            actorUserId: actor.userId,
            actor: actor.email,
            action: 'password.reset_code_resent',
            target: user.id,
            details: { email: user.email },
            ip,
          },
          trx,
        );
      });
      await sendAdminCode(user, code, actor, false);
    },

    /**
     * POST users/forgot-password. The request is answered at once, the same way for any address: the lookup, the
     * code and its mail come after the answer. Done before it, they took time only for an address with an account
     * (some 300 ms against 50), and a failing mail server answered 503 only for one: both told who has an account.
     * The code, its audit entry and its mail are written in one transaction; the mail relay sends the mail after.
     */
    forgotPassword(email: string, { ip }: Ctx): void {
      const work = mailResetCode(email, ip)
        .catch((err: unknown) => logFailure(deps.log, err, 'a password reset code could not be made; the person can ask again'))
        .finally(() => pending.delete(work));
      pending.add(work);
    },

    /**
     * Resolves once the reset codes asked for so far are written (their mails queued): for tests. A server that stops
     * meanwhile drops a code not yet written; the person asks again.
     */
    async settled() {
      await Promise.all([...pending]);
    },

    async confirmPasswordReset(input: { email: string; password: string; confirmationCode: string }, { ip }: Ctx) {
      const refuse = (message: string = AUTH_MESSAGES.invalidResetCode) => badRequest(message, 'InvalidResetCode');
      const user = await repo.userByEmail(input.email);
      const row = user ? await repo.resetCode(user) : undefined;
      if (!user || !row || row.used_at || row.expires_at.getTime() <= deps.now()) throw refuse();
      // the try is spent before the code is compared, so parallel guesses get five comparisons in all
      const attempts = await repo.spendResetAttempt(user);
      if (attempts > MAX_RESET_ATTEMPTS) throw refuse(AUTH_MESSAGES.tooManyResetTries);
      if (!safeEqual(row.code_hash, sha256(input.confirmationCode))) {
        throw refuse(attempts >= MAX_RESET_ATTEMPTS ? AUTH_MESSAGES.tooManyResetTries : AUTH_MESSAGES.invalidResetCode);
      }
      const problem = passwordProblem(input.password, input.email, isCommonPassword);
      if (problem) throw badRequest(problem, 'InvalidPassword');
      // not the current password, nor one of the ones before it (an admin's reset must end a password that leaked)
      const used = await repo.recentPasswordHashes(user, PASSWORD_HISTORY);
      if ((await Promise.all(used.map((h) => verifyPassword(h, input.password)))).some(Boolean)) {
        throw badRequest(AUTH_MESSAGES.passwordReused, 'PasswordReused');
      }
      const hash = await hashPassword(input.password);
      const ended = await repo.transaction(async (trx) => {
        if (!(await repo.claimResetCode(trx, user, now()))) throw refuse();
        await repo.setResetPassword(trx, user, { hash, now: now(), keep: PASSWORD_HISTORY - 1 });
        await repo.clearFailures(throttleKey(user.email), trx);
        const ids = await sessions.endUserSessions(trx, user, 'password-changed');
        await repo.audit(
          { partnerId: user.partner_id, actorUserId: user.id, actor: user.email, action: 'password.changed', details: { reason: 'reset' }, ip },
          trx,
        );
        return ids;
      });
      await sessions.onSessionsEnded(ended);
    },
  };
}

export type PasswordResetService = ReturnType<typeof createPasswordResetService>;
