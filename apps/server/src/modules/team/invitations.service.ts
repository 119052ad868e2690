import crypto from 'node:crypto';
import { TEAM_MESSAGES } from '@portal/contract/team';
import type { Role } from '@portal/contract/domain';
import { auditChange } from '../../lib/audit.repository.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import type { LivePublisher } from '../../lib/live-bus.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { hashPassword, temporaryPassword } from '../../lib/passwords.ts';
import type { TeamRepository } from './team.repository.ts';

export type InvitationDeps = {
  repo: TeamRepository;
  mailer: Mailer;
  publicUrl: string;
  now: () => number;
  /** announces an invitation to the partner's open team screens */
  live: LivePublisher;
};
/** Who invites: an admin of the partner (from the verified token) or the operator (CLI). */
export type Inviter = { userId: string | null; email: string; ip?: string | null };
export type Invitation = { partnerId: string; name: string; email: string; role: Role };

export const emailInUse = () => new AppError(409, 'EmailInUse', TEAM_MESSAGES.emailInUse);

/**
 * Invitations, shared by the operator CLI (invite-admin) and the team screen (POST users/add): the user is created
 * invited with a temporary password that is e-mailed; the first sign-in answers NEW_PASSWORD_REQUIRED, then
 * MFA_SETUP. Only the temporary password's hash is stored. An e-mail address belongs to one user across all
 * partners; a removed user of the same partner may be invited again (a fresh start).
 */
export function createInvitationService(deps: InvitationDeps) {
  const { repo, mailer } = deps;

  const mail = (to: { name: string; email: string; role: string }, partnerName: string, tempPassword: string, again: boolean) =>
    mailer.send({
      to: to.email,
      subject: again ? `Your new invitation to the ${partnerName} Partner Dashboard` : `You are invited to the ${partnerName} Partner Dashboard`,
      text: [
        `Hello ${to.name},`,
        '',
        `You have been invited to the Partner Dashboard of ${partnerName} as ${to.role}.`,
        ...(again ? ['This invitation replaces the earlier one: its temporary password no longer works.'] : []),
        `Sign in at ${deps.publicUrl}/login with this e-mail address and the temporary password below.`,
        'You will choose your own password and set up an authenticator app.',
        '',
        `Temporary password: ${tempPassword}`,
      ].join('\n'),
    });

  return {
    async invite(input: Invitation, by: Inviter): Promise<{ id: string; email: string; tempPassword: string; mailSent: boolean }> {
      const partner = await repo.partner(input.partnerId);
      if (!partner) throw notFound(`No partner ${input.partnerId}`);
      const existing = await repo.byEmail(input.email);
      // a removed user of this partner comes back; anyone else keeps the address
      if (existing && !(existing.partner_id === partner.id && existing.status === 'deleted')) throw emailInUse();
      const tempPassword = temporaryPassword();
      const tempHash = await hashPassword(tempPassword);
      const now = new Date(deps.now());
      const id = await repo.transaction(async (trx) => {
        const created = existing
          ? await repo.reinvite(trx, partner.id, existing.id, { name: input.name, role: input.role, tempHash, now })
          : await repo.insertInvited(trx, { partnerId: partner.id, id: crypto.randomUUID(), name: input.name, email: input.email, role: input.role, tempHash });
        if (!created) throw emailInUse(); // taken (or changed) between the check and the write
        await auditChange(trx, {
          partnerId: partner.id,
          actorUserId: by.userId,
          actor: by.email,
          action: 'user.invited',
          target: created,
          details: { email: input.email, role: input.role, ...(existing ? { again: true } : {}) },
          ip: by.ip ?? null,
        });
        await deps.live.publish(trx, { partnerId: partner.id, table: 'team', kind: 'invited', id: created, status: 'invited', at: now.toISOString() });
        return created;
      });
      // the member is saved: a mail server that is down does not undo it; the admin is told, and resends later
      const mailSent = await mail(input, partner.name, tempPassword, false).then(
        () => true,
        (err: unknown) => {
          if (err instanceof AppError && err.code === 'MailUnavailable') return false;
          throw err;
        },
      );
      return { id, email: input.email, tempPassword, mailSent };
    },

    /** A new temporary password for an invited user (POST users/resend-invite); false when the user is not invited. */
    async resend(user: { partner_id: string; id: string; name: string; email: string; role: string }, by: Inviter): Promise<boolean> {
      const partner = await repo.partner(user.partner_id);
      if (!partner) throw notFound(`No partner ${user.partner_id}`);
      const tempPassword = temporaryPassword();
      const tempHash = await hashPassword(tempPassword);
      const done = await repo.transaction(async (trx) => {
        if (!(await repo.replaceTempPassword(trx, user.partner_id, user.id, tempHash, new Date(deps.now())))) return false;
        await auditChange(trx, {
          partnerId: user.partner_id,
          actorUserId: by.userId,
          actor: by.email,
          action: 'user.invite_resent',
          target: user.id,
          details: { email: user.email },
          ip: by.ip ?? null,
        });
        await deps.live.publish(trx, {
          partnerId: user.partner_id,
          table: 'team',
          kind: 'invite_resent',
          id: user.id,
          status: 'invited',
          at: new Date(deps.now()).toISOString(),
        });
        return true;
      });
      if (done) await mail(user, partner.name, tempPassword, true);
      return done;
    },
  };
}

export type InvitationService = ReturnType<typeof createInvitationService>;
