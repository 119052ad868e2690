import { Language } from '@portal/contract/i18n';
import {
  StartScreen,
  TEAM_MESSAGES,
  type InviteUserRequest,
  type UpdateUserPreferencesRequest,
  type UserPreferences,
  type TeamMember,
  type TeamMemberStatus,
} from '@portal/contract/team';
import type { Role } from '@portal/contract/domain';
import { auditChange } from '../../lib/audit.repository.ts';
import { AppError, conflict, forbidden, notFound } from '../../lib/errors.ts';
import type { LivePublisher } from '../../lib/live-bus.ts';
import { requireCan, type Auth } from '../../lib/access.ts';
import { can, refusal } from '@portal/contract/permissions';
import type { PasswordResetService } from '../auth/index.ts';
import type { SessionsService } from '../auth/index.ts';
import type { Notifier } from '../notifications/index.ts';
import type { InvitationService } from './invitations.service.ts';
import type { TeamRepository } from './team.repository.ts';

type Ctx = { ip: string | null };
export type TeamDeps = {
  repo: TeamRepository;
  invitations: InvitationService;
  sessions: SessionsService;
  passwordReset: PasswordResetService;
  now: () => number;
  /**
   * drops the user's cached row on every instance (embedded database: authenticate caches it for a few seconds), and
   * tells the user's open event streams to read their access again
   */
  invalidateUser: (partnerId: string, userId: string) => Promise<void>;
  /** announces each change of the team to the partner's open team screens */
  live: LivePublisher;
  /** tells a member whose role an admin changed (the notifications module's port) */
  notifier: Pick<Notifier, 'notify' | 'who'>;
};

type MemberFields = {
  id: string;
  name: string;
  email: string;
  role: string;
  status: string;
  password_reset_requested: boolean;
  last_sign_in_at: Date | null;
  created_at: Date;
  /** an invitation's; null for a member */
  expires_at: Date | null;
};

const toMember = (u: MemberFields, now: number): TeamMember => ({
  id: u.id,
  name: u.name,
  email: u.email,
  role: u.role as Role,
  status: (u.expires_at && u.expires_at.getTime() <= now ? 'expired' : u.status) as TeamMemberStatus,
  passwordResetRequested: u.password_reset_requested,
  lastSignInAt: u.last_sign_in_at ? u.last_sign_in_at.toISOString() : null,
  createdAt: u.created_at.toISOString(),
  invitationExpiresAt: u.expires_at ? u.expires_at.toISOString() : null,
});

const lastAdmin = () => new AppError(409, 'LastAdmin', TEAM_MESSAGES.lastAdmin);

/**
 * The team of the caller's partner (portal-core §6, §7): its members and its invitations (the invitations service
 * keeps those). Everyone may list it; only admins change it. A change names a member's or an invitation's id. The partner
 * and the acting admin always come from the verified token, and a user of another partner is simply not found.
 * The partner always keeps one active admin: every change that could remove one locks the partner's active admin
 * rows first, and checks there that the actor is still one of them and that an admin remains.
 */
export function createTeamService(deps: TeamDeps) {
  const { repo, invitations, sessions, passwordReset } = deps;
  const now = () => new Date(deps.now());
  const actor = (auth: Auth, ctx: Ctx) => ({ userId: auth.userId, email: auth.email, ip: ctx.ip });

  /** A listed user of the caller's partner (removed users are gone for the team). */
  async function target(auth: Auth, userId: string) {
    const user = await repo.member(auth.partnerId, userId);
    if (!user || user.status === 'deleted') throw notFound(TEAM_MESSAGES.notFound);
    return user;
  }

  /** One entry of the list as listed: a member or an invitation. */
  async function listed(partnerId: string, id: string) {
    const entry = (await repo.members(partnerId)).find((m) => m.id === id);
    if (!entry) throw notFound(TEAM_MESSAGES.notFound);
    return toMember(entry, deps.now());
  }

  return {
    async list(auth: Auth): Promise<TeamMember[]> {
      return (await repo.members(auth.partnerId)).map((m) => toMember(m, deps.now()));
    },

    /** The caller's own preferences (every role). */
    async preferences(auth: Auth): Promise<UserPreferences> {
      const row = await repo.preferences(auth.partnerId, auth.userId);
      if (!row) throw notFound(TEAM_MESSAGES.notFound);
      return {
        timeZone: row.time_zone,
        language: Language.safeParse(row.language).data ?? null,
        startScreen: StartScreen.safeParse(row.start_screen).data ?? 'transactions',
      };
    },

    /**
     * Sets the caller's time zone (null: back to UTC), language (null: the browser's) and/or first screen; each change
     * is audited, and nothing is written when nothing changes.
     */
    async setPreferences(auth: Auth, input: UpdateUserPreferencesRequest, ctx: Ctx): Promise<UserPreferences> {
      const before = await this.preferences(auth);
      const after: UserPreferences = {
        timeZone: input.timeZone === undefined ? before.timeZone : input.timeZone === 'UTC' ? null : input.timeZone,
        language: input.language === undefined ? before.language : input.language,
        startScreen: input.startScreen ?? before.startScreen,
      };
      const zoneChanged = after.timeZone !== before.timeZone;
      const languageChanged = after.language !== before.language;
      const startChanged = after.startScreen !== before.startScreen;
      if (!zoneChanged && !languageChanged && !startChanged) return before;
      await repo.transaction(async (trx) => {
        await repo.setPreferences(
          trx,
          auth.partnerId,
          auth.userId,
          {
            ...(zoneChanged && { time_zone: after.timeZone }),
            ...(languageChanged && { language: after.language }),
            ...(startChanged && { start_screen: after.startScreen === 'transactions' ? null : after.startScreen }),
          },
          now(),
        );
        const audit = { partnerId: auth.partnerId, actorUserId: auth.userId, actor: auth.email, target: auth.userId, ip: ctx.ip };
        if (zoneChanged)
          await auditChange(trx, { ...audit, action: 'user.time_zone_changed', details: { from: before.timeZone ?? 'UTC', to: after.timeZone ?? 'UTC' } });
        if (languageChanged) await auditChange(trx, { ...audit, action: 'user.language_changed', details: { from: before.language, to: after.language } });
        if (startChanged)
          await auditChange(trx, { ...audit, action: 'user.start_screen_changed', details: { from: before.startScreen, to: after.startScreen } });
      });
      return after;
    },

    async invite(auth: Auth, input: InviteUserRequest, ctx: Ctx): Promise<{ user: TeamMember; mailSent: boolean }> {
      requireCan(auth, 'manageTeam');
      const { id, mailSent } = await invitations.invite({ partnerId: auth.partnerId, ...input }, actor(auth, ctx));
      return { user: await listed(auth.partnerId, id), mailSent };
    },

    async changeRole(auth: Auth, input: { userId: string; role: Role }, ctx: Ctx): Promise<TeamMember> {
      requireCan(auth, 'manageTeam');
      if (await invitations.find(auth.partnerId, input.userId)) {
        await invitations.changeRole(auth.partnerId, input.userId, input.role, actor(auth, ctx));
        return listed(auth.partnerId, input.userId);
      }
      await repo.transaction(async (trx) => {
        const admins = await repo.lockActiveAdmins(trx, auth.partnerId);
        if (!admins.includes(auth.userId)) throw forbidden(refusal('manageTeam'));
        const user = await repo.member(auth.partnerId, input.userId, trx);
        if (!user || user.status === 'deleted') throw notFound(TEAM_MESSAGES.notFound);
        if (user.role === input.role) return;
        if (admins.includes(user.id) && !can(input.role, 'manageTeam') && admins.length === 1) throw lastAdmin();
        await repo.setRole(trx, auth.partnerId, user.id, input.role, now());
        await auditChange(trx, {
          partnerId: auth.partnerId,
          actorUserId: auth.userId,
          actor: auth.email,
          action: 'user.role_changed',
          target: user.id,
          details: { email: user.email, from: user.role, to: input.role },
          ip: ctx.ip,
        });
        // the member is told, in the bell and by e-mail: what they can see and do changed under them
        const by = await deps.notifier.who(trx, auth.partnerId, auth.userId);
        const partner = (await repo.partner(auth.partnerId, trx))?.name ?? '';
        const change = { from: user.role as Role, to: input.role };
        await deps.notifier.notify(trx, {
          partnerId: auth.partnerId,
          topic: 'account',
          to: { userIds: [user.id] },
          notice: (t) => t.notices.roleChanged({ actor: by, partner, ...change }),
          link: '/settings',
          at: now(),
        });
        await deps.live.publish(trx, {
          partnerId: auth.partnerId,
          table: 'team',
          kind: 'role_changed',
          id: user.id,
          status: input.role,
          at: now().toISOString(),
        });
      });
      // the role is read from the user's row on every request: drop any cached copy so it holds at once
      await deps.invalidateUser(auth.partnerId, input.userId);
      return listed(auth.partnerId, input.userId);
    },

    /**
     * Soft removal: status deleted, secrets dropped, every session ended at once. An admin may leave, not the last.
     * An invitation is withdrawn (the message says so).
     */
    async remove(auth: Auth, userId: string, ctx: Ctx): Promise<{ message: string }> {
      requireCan(auth, 'manageTeam');
      if (await invitations.find(auth.partnerId, userId))
        return { message: TEAM_MESSAGES.invitationWithdrawn((await invitations.withdraw(auth.partnerId, userId, actor(auth, ctx))).email) };
      const { email, ended } = await repo.transaction(async (trx) => {
        const admins = await repo.lockActiveAdmins(trx, auth.partnerId);
        if (!admins.includes(auth.userId)) throw forbidden(refusal('manageTeam'));
        const user = await repo.member(auth.partnerId, userId, trx);
        if (!user || user.status === 'deleted') throw notFound(TEAM_MESSAGES.notFound);
        if (admins.includes(user.id) && admins.length === 1) throw lastAdmin();
        await repo.markDeleted(trx, auth.partnerId, user.id, now());
        const ids = await sessions.endUserSessions(trx, user, 'removed');
        await auditChange(trx, {
          partnerId: auth.partnerId,
          actorUserId: auth.userId,
          actor: auth.email,
          action: 'user.deleted',
          target: user.id,
          details: { email: user.email, role: user.role, status: user.status, sessionsEnded: ids.length },
          ip: ctx.ip,
        });
        await deps.live.publish(trx, { partnerId: auth.partnerId, table: 'team', kind: 'removed', id: user.id, status: 'deleted', at: now().toISOString() });
        return { email: user.email, ended: ids };
      });
      await sessions.onSessionsEnded(ended);
      await deps.invalidateUser(auth.partnerId, userId);
      return { message: TEAM_MESSAGES.removed(email) };
    },

    /** A new link for an invitation; a member (who has used theirs) has none to resend. */
    async resendInvite(auth: Auth, userId: string, ctx: Ctx): Promise<{ email: string }> {
      requireCan(auth, 'manageTeam');
      if (await invitations.find(auth.partnerId, userId)) return invitations.resend(auth.partnerId, userId, actor(auth, ctx));
      await target(auth, userId);
      throw conflict(TEAM_MESSAGES.notInvited);
    },

    /** Locks a member out until a new password is set with the e-mailed code (shared with forgotten passwords). */
    async resetPassword(auth: Auth, userId: string, ctx: Ctx): Promise<{ email: string }> {
      requireCan(auth, 'manageTeam');
      if (await invitations.find(auth.partnerId, userId)) throw conflict(TEAM_MESSAGES.resetNeedsActive);
      const user = await target(auth, userId);
      if (user.status !== 'active' || !(await passwordReset.resetByAdmin(user, actor(auth, ctx), ctx))) throw conflict(TEAM_MESSAGES.resetNeedsActive);
      return { email: user.email };
    },

    /** A new reset code for a member whose password an admin reset (the earlier code stops working). */
    async resendCode(auth: Auth, userId: string, ctx: Ctx): Promise<{ email: string }> {
      requireCan(auth, 'manageTeam');
      if (await invitations.find(auth.partnerId, userId)) throw conflict(TEAM_MESSAGES.noPendingReset);
      const user = await target(auth, userId);
      if (user.status !== 'active' || !user.password_reset_requested) throw conflict(TEAM_MESSAGES.noPendingReset);
      await passwordReset.resendResetCode(user, actor(auth, ctx), ctx);
      return { email: user.email };
    },
  };
}

export type TeamService = ReturnType<typeof createTeamService>;
