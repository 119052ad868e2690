import { z } from 'zod';
import { Email } from './auth.ts';
import { Role } from './domain.ts';
import { TimeZoneName } from './time-zone.ts';
import { safeText } from './validation.ts';

/**
 * The team (portal-core §6, §7): who may sign in for the partner. Everyone may list it; only admins change it.
 * Removed members are kept (status deleted) for the audit trail but are not listed.
 */
export const TEAM_MEMBER_STATUSES = ['active', 'invited', 'inactive'] as const;
export const TeamMemberStatus = z.enum(TEAM_MEMBER_STATUSES);
export type TeamMemberStatus = z.infer<typeof TeamMemberStatus>;

export const TeamMember = z.object({
  id: z.string().uuid(),
  name: z.string(),
  email: z.string(),
  role: Role,
  status: TeamMemberStatus,
  /** an admin reset the password: the member must set a new one with the e-mailed code before signing in */
  passwordResetRequested: z.boolean(),
  lastSignInAt: z.string().nullable(),
  createdAt: z.string(),
});
export type TeamMember = z.infer<typeof TeamMember>;

export const TeamResponse = z.object({ users: z.array(TeamMember) });
export type TeamResponse = z.infer<typeof TeamResponse>;

const UserId = z.string().uuid('Unknown user');

export const InviteUserRequest = z.object({
  name: safeText({ max: 200 }).trim().min(1, 'Enter a name'),
  email: Email,
  role: Role,
});
export type InviteUserRequest = z.infer<typeof InviteUserRequest>;

export const UpdateUserRequest = z.object({ userId: UserId, role: Role });
export type UpdateUserRequest = z.infer<typeof UpdateUserRequest>;

export const UserIdRequest = z.object({ userId: UserId });
export type UserIdRequest = z.infer<typeof UserIdRequest>;
export const UserIdParams = z.object({ userId: UserId });

export const TeamMemberResponse = z.object({ user: TeamMember });
export type TeamMemberResponse = z.infer<typeof TeamMemberResponse>;
/** POST users/add: the invited member, and whether the invitation e-mail left (when not, the member stays invited). */
export const InviteUserResponse = z.object({ user: TeamMember, mailSent: z.boolean() });
export type InviteUserResponse = z.infer<typeof InviteUserResponse>;
export const TeamMessageResponse = z.object({ message: z.string() });

export const ROLE_LABELS: Record<Role, string> = { admin: 'Admin', treasury: 'Treasury', view: 'View only' };
export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  admin: 'Everything, including the team, API keys and approvals.',
  treasury: 'Balances, withdrawals and settlement wallets.',
  view: 'Sees the dashboard; changes nothing.',
};

export const TEAM_MESSAGES = {
  emailInUse: 'A user with this e-mail address exists already.',
  lastAdmin: 'Your team must keep at least one active admin. Make someone else an admin first.',
  notFound: 'No such user in your team.',
  notInvited: 'This user has already accepted the invitation.',
  noPendingReset: 'This user has no password reset waiting for a code.',
  resetNeedsActive: 'Only an active user can have the password reset. Resend the invitation instead.',
  invited: (email: string) => `Invitation sent to ${email}`,
  invitedMailFailed: (email: string) =>
    `${email} was added to your team as invited, but the invitation e-mail could not be sent just now. Use Resend invitation in a few minutes.`,
  inviteResent: (email: string) => `A new invitation was sent to ${email}`,
  codeResent: (email: string) => `A new code was sent to ${email}`,
  passwordReset: (email: string) => `${email} is signed out and must choose a new password with the code we e-mailed`,
  removed: (email: string) => `${email} was removed from the team`,
  roleChanged: (email: string, role: Role) => `${email} is now ${ROLE_LABELS[role]}`,
} as const;

/**
 * The signed-in user's own preferences: the zone the portal shows times and reads date filters in (null: UTC, the
 * default). Every role may change its own.
 */
export const UserPreferences = z.object({ timeZone: z.string().nullable() });
export type UserPreferences = z.infer<typeof UserPreferences>;
export const UpdateUserPreferencesRequest = z.object({ timeZone: TimeZoneName.nullable() }).strict();
