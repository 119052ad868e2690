import { PARTNER_MESSAGES } from '@portal/contract/partner';
import crypto from 'node:crypto';
import { passwordProblem } from '@portal/contract/auth';
import { isCommonPassword } from '@portal/contract/common-passwords';
import { INVITATION_DAYS, TEAM_MESSAGES, type InvitationLookupResponse } from '@portal/contract/team';
import type { Role } from '@portal/contract/domain';
import { auditChange } from '../../lib/audit.repository.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import type { LivePublisher } from '../../lib/live-bus.ts';
import { mailLanguage } from '../../lib/language.ts';
import { MAIL_TEXTS } from '../../lib/mail-texts/index.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { randomToken, sha256 } from '../../lib/tokens.ts';
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
type InvitationRow = NonNullable<Awaited<ReturnType<TeamRepository['invitation']>>>;

export const emailInUse = () => new AppError(409, 'EmailInUse', TEAM_MESSAGES.emailInUse);
const alreadyInvited = () => new AppError(409, 'AlreadyInvited', TEAM_MESSAGES.alreadyInvited);
const invitationInvalid = () => badRequest(TEAM_MESSAGES.invitationInvalid, 'InvitationInvalid');

const INVITATION_MS = INVITATION_DAYS * 24 * 60 * 60 * 1000;

/** A link's token: its partner's id, then 256 random bits; the partner keeps the lookup within that partner's rows. */
const newToken = (partnerId: string) => `${partnerId}.${randomToken()}`;
const TOKEN_PARTNER = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\./;

/**
 * Invitations, shared by the operator CLI (invite-admin) and the team screen (POST users/add). An invitation is kept
 * apart from users: a name, an address, a role and a one-time link that expires after INVITATION_DAYS (only its
 * hash is stored). Using the link makes the user, with the password chosen there; the first sign-in then sets up
 * the authenticator.
 *
 * Nobody learns through an invitation who has an account elsewhere: inviting an address that belongs to another
 * partner's user answers, lists and audits exactly as any invitation. Only the mail differs, and only its owner
 * reads it: it says that the address has an account already, and holds no link. Within its own team an admin
 * sees its members anyway, so a member's or a pending invitation's address is refused there.
 */
export function createInvitationService(deps: InvitationDeps) {
  const { repo, mailer } = deps;
  const now = () => new Date(deps.now());
  const link = (token: string) => `${deps.publicUrl}/accept-invitation#token=${token}`;

  /** The address belongs to a user who cannot take this invitation: another partner's, or a member already. */
  const heldElsewhere = (holder: { partner_id: string; status: string } | undefined, partnerId: string) =>
    holder !== undefined && !(holder.partner_id === partnerId && holder.status === 'deleted');

  /** Mails the invitation: its link, or (to the owner of an account elsewhere) a notice without one. */
  async function deliver(invitation: Pick<InvitationRow, 'partner_id' | 'name' | 'email' | 'role' | 'expires_at'>, token: string, by: Inviter, again: boolean) {
    const partner = await repo.partner(invitation.partner_id);
    if (!partner) throw notFound(PARTNER_MESSAGES.noPartner(invitation.partner_id));
    const holder = await repo.byEmail(invitation.email);
    // an invitee has no language of their own yet: the inviter's request decides; an address with an account, its own
    const texts = MAIL_TEXTS[mailLanguage(holder?.language)];
    const words = { name: invitation.name, partner: partner.name, invitedBy: by.userId ? by.email : undefined, role: invitation.role as Role };
    if (heldElsewhere(holder, invitation.partner_id)) return mailer.send({ to: invitation.email, ...texts.invitationHeldElsewhere(words) });
    return mailer.send({ to: invitation.email, ...texts.invitation({ ...words, again, link: link(token), expiresAt: invitation.expires_at }) });
  }

  /** Sends the mail; a mail server that is down undoes nothing (the invitation is kept to resend) and is told. */
  const sent = (mailing: Promise<unknown>) =>
    mailing.then(
      () => true,
      (err: unknown) => {
        if (err instanceof AppError && err.code === 'MailUnavailable') return false;
        throw err;
      },
    );

  type Trx = Parameters<LivePublisher['publish']>[0];
  const publish = (trx: Trx, partnerId: string, kind: string, id: string, status: string) =>
    deps.live.publish(trx, { partnerId, table: 'team', kind, id, status, at: now().toISOString() });
  /** An admin's (or the operator's) change of an invitation, in the audit trail. */
  const audit = (trx: Trx, partnerId: string, by: Inviter, action: string, target: string, details: Record<string, unknown>) =>
    auditChange(trx, { partnerId, actorUserId: by.userId, actor: by.email, action, target, details, ip: by.ip ?? null });

  /** The invitation of a link's token; undefined for a token that names no partner or opens nothing. */
  const byToken = async (token: string) => {
    const partnerId = TOKEN_PARTNER.exec(token)?.[1];
    return partnerId ? repo.invitationByToken(partnerId, sha256(token)) : undefined;
  };

  return {
    async invite(input: Invitation, by: Inviter): Promise<{ id: string; email: string; mailSent: boolean; link: string }> {
      const partner = await repo.partner(input.partnerId);
      if (!partner) throw notFound(PARTNER_MESSAGES.noPartner(input.partnerId));
      const token = newToken(partner.id);
      const expiresAt = new Date(deps.now() + INVITATION_MS);
      const id = await repo.transaction(async (trx) => {
        const holder = await repo.byEmail(input.email, trx);
        // the admin sees the team's members anyway: only they are refused; an address held elsewhere is not told
        if (holder && holder.partner_id === partner.id && holder.status !== 'deleted') throw emailInUse();
        const created = await repo.insertInvitation(trx, {
          partnerId: partner.id,
          id: crypto.randomUUID(),
          name: input.name,
          email: input.email,
          role: input.role,
          tokenHash: sha256(token),
          expiresAt,
          invitedBy: by.userId,
        });
        if (!created) throw alreadyInvited();
        await audit(trx, partner.id, by, 'user.invited', created, { email: input.email, role: input.role });
        await publish(trx, partner.id, 'invited', created, 'invited');
        return created;
      });
      const mailSent = await sent(
        deliver({ partner_id: partner.id, name: input.name, email: input.email, role: input.role, expires_at: expiresAt }, token, by, false),
      );
      return { id, email: input.email, mailSent, link: link(token) };
    },

    /** The partner's invitation with this id, or undefined (a member's id, or another partner's). */
    find: (partnerId: string, id: string) => repo.invitation(partnerId, id),

    /** A new link for an invitation, valid for INVITATION_DAYS again; the earlier link stops working. */
    async resend(partnerId: string, id: string, by: Inviter): Promise<{ email: string }> {
      const token = newToken(partnerId);
      const expiresAt = new Date(deps.now() + INVITATION_MS);
      const invitation = await repo.transaction(async (trx) => {
        const row = await repo.lockInvitation(trx, partnerId, id);
        if (!row) throw notFound(TEAM_MESSAGES.notFound);
        await repo.renewInvitation(trx, partnerId, id, { tokenHash: sha256(token), expiresAt, now: now() });
        await audit(trx, partnerId, by, 'user.invite_resent', id, { email: row.email });
        await publish(trx, partnerId, 'invite_resent', id, 'invited');
        return row;
      });
      await deliver({ ...invitation, expires_at: expiresAt }, token, by, true);
      return { email: invitation.email };
    },

    /** The role the invitation gives, changed before it is used. */
    async changeRole(partnerId: string, id: string, role: Role, by: Inviter): Promise<void> {
      await repo.transaction(async (trx) => {
        const row = await repo.lockInvitation(trx, partnerId, id);
        if (!row) throw notFound(TEAM_MESSAGES.notFound);
        if (row.role === role) return;
        await repo.setInvitationRole(trx, partnerId, id, role, now());
        await audit(trx, partnerId, by, 'user.role_changed', id, { email: row.email, from: row.role, to: role, invitation: true });
        await publish(trx, partnerId, 'role_changed', id, role);
      });
    },

    /** Withdraws an invitation: its link stops working and it leaves the list. */
    async withdraw(partnerId: string, id: string, by: Inviter): Promise<{ email: string }> {
      return repo.transaction(async (trx) => {
        const row = await repo.lockInvitation(trx, partnerId, id);
        if (!row) throw notFound(TEAM_MESSAGES.notFound);
        await repo.deleteInvitation(trx, partnerId, id);
        await audit(trx, partnerId, by, 'user.invitation_withdrawn', id, { email: row.email, role: row.role });
        await publish(trx, partnerId, 'removed', id, 'deleted');
        return { email: row.email };
      });
    },

    /** What a link invites to (POST users/invitation); the same refusal for an unknown, used or expired link. */
    async lookup(token: string): Promise<InvitationLookupResponse> {
      const row = await byToken(token);
      if (!row || row.expires_at.getTime() <= deps.now()) throw invitationInvalid();
      return { email: row.email, name: row.name, role: row.role as Role, partnerName: row.partner_name, expiresAt: row.expires_at.toISOString() };
    },

    /**
     * Uses a link (PUT users/password, portal-core's first-password call, the token in place of the temporary
     * password): the user is made with the chosen password, or a removed user of the same partner comes back, and
     * the invitation is gone. The invitee signs in next and sets up the authenticator.
     */
    async accept(input: { email: string; password: string; tempPassword: string }, ctx: { ip: string | null }): Promise<void> {
      const tokenHash = sha256(input.tempPassword);
      const found = await byToken(input.tempPassword);
      if (!found || found.email !== input.email || found.expires_at.getTime() <= deps.now()) throw invitationInvalid();
      const problem = passwordProblem(input.password, input.email, isCommonPassword);
      if (problem) throw badRequest(problem, 'InvalidPassword');
      const passwordHash = await hashPassword(input.password);
      await repo.transaction(async (trx) => {
        // one use: a second acceptance waits here, then finds the invitation gone (or renewed, with another token)
        const invitation = await repo.lockInvitation(trx, found.partner_id, found.id);
        if (!invitation || invitation.token_hash !== tokenHash || invitation.expires_at.getTime() <= deps.now()) throw invitationInvalid();
        const holder = await repo.byEmail(invitation.email, trx);
        const values = { name: invitation.name, role: invitation.role, passwordHash };
        const userId = !holder
          ? await repo.insertMember(trx, { partnerId: invitation.partner_id, id: invitation.id, email: invitation.email, ...values })
          : heldElsewhere(holder, invitation.partner_id)
            ? undefined
            : await repo.reviveMember(trx, invitation.partner_id, holder.id, { ...values, now: now() });
        // told only to the one holding the link: the address took an account since it was invited
        if (!userId) throw new AppError(409, 'EmailInUse', TEAM_MESSAGES.accountExists);
        await repo.deleteInvitation(trx, invitation.partner_id, invitation.id);
        await auditChange(trx, {
          partnerId: invitation.partner_id,
          actorUserId: userId,
          actor: invitation.email,
          action: 'user.joined',
          target: userId,
          details: { role: invitation.role, invitation: invitation.id },
          ip: ctx.ip,
        });
        await publish(trx, invitation.partner_id, 'joined', userId, 'active');
      });
    },
  };
}

export type InvitationService = ReturnType<typeof createInvitationService>;
