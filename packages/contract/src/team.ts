import { z } from 'zod';
import { Email } from './auth.ts';
import { Role } from './domain.ts';
import { TimeZoneName } from './time-zone.ts';
import { Language } from './i18n.ts';
import { safeText } from './validation.ts';

/**
 * The team (portal-core §6, §7): who may sign in for the partner, and who is invited. Everyone may list it; only
 * admins change it. Removed members are kept (status deleted) for the audit trail but are not listed. An invitation
 * is `invited` until its link expires, then `expired` until it is resent or withdrawn.
 */
export const TEAM_MEMBER_STATUSES = ['active', 'invited', 'expired', 'inactive'] as const;
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
  /** an invitation's link stops working at this time; null for a member */
  invitationExpiresAt: z.string().nullable(),
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
/** POST users/add: the invitation as listed, and whether its e-mail left (when not, it stays listed to resend). */
export const InviteUserResponse = z.object({ user: TeamMember, mailSent: z.boolean() });
export type InviteUserResponse = z.infer<typeof InviteUserResponse>;
export const TeamMessageResponse = z.object({ message: z.string() });

/** An invitation link holds one token (in the link's fragment, so it reaches no server log). */
export const InvitationToken = safeText({ min: 1, max: 200 });
/** POST users/invitation: what the link invites to, before the invitee chooses a password. */
export const InvitationLookupRequest = z.object({ token: InvitationToken });
export const InvitationLookupResponse = z.object({ email: z.string(), name: z.string(), role: Role, partnerName: z.string(), expiresAt: z.string() });
export type InvitationLookupResponse = z.infer<typeof InvitationLookupResponse>;
/** How long an invitation link works. */
export const INVITATION_DAYS = 7;

export const ROLE_LABELS: Record<Role, string> = { admin: 'Admin', treasury: 'Treasury', view: 'View only' };
export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  admin: 'Everything, including the team, API keys and approvals.',
  treasury: 'Balances, withdrawals and settlement wallets.',
  view: 'Sees the dashboard; changes nothing.',
};

export const TEAM_MESSAGES = {
  emailInUse: 'Someone in your team has this e-mail address already.',
  alreadyInvited: 'This address has an invitation waiting already. Use Resend invitation to send a new link.',
  invitationInvalid: 'This invitation link has expired or was already used. Ask an admin of your team to send a new invitation.',
  accountExists:
    'This e-mail address already has a Partner Dashboard account, and an address can belong to one account only. Ask the admin who invited you to invite another address.',
  lastAdmin: 'Your team must keep at least one active admin. Make someone else an admin first.',
  notFound: 'No such user in your team.',
  notInvited: 'This user has already accepted the invitation.',
  notAMember: 'This invitation has not been accepted yet: there is no password to reset.',
  noPendingReset: 'This user has no password reset waiting for a code.',
  resetNeedsActive: 'Only an active user can have the password reset. Resend the invitation instead.',
  invited: (email: string) => `Invitation sent to ${email}`,
  invitedMailFailed: (email: string) =>
    `${email} is listed as invited, but the invitation e-mail could not be sent just now. Use Resend invitation in a few minutes.`,
  inviteResent: (email: string) => `A new invitation was sent to ${email}`,
  codeResent: (email: string) => `A new code was sent to ${email}`,
  passwordReset: (email: string) => `${email} is signed out and must choose a new password with the code we e-mailed`,
  removed: (email: string) => `${email} was removed from the team`,
  invitationWithdrawn: (email: string) => `The invitation to ${email} was withdrawn: its link no longer works`,
  roleChanged: (email: string, role: Role) => `${email} is now ${ROLE_LABELS[role]}`,
  tooManyAttempts: 'Too many attempts from your network. Wait a minute and try again.',
  tooManyMails: 'Too many e-mails sent from your network. Wait a minute and try again.',
} as const;

/**
 * The signed-in user's own preferences: the zone the portal shows times and reads date filters in (null: UTC, the
 * default), and the language of the portal and of the e-mails sent to them (null: not chosen; the browser's
 * language decides on screen, and the language of the request that sends an e-mail decides there). Every role may
 * change its own; a change sends only what changes.
 */
/** The screen the portal opens on after sign-in: the transaction tables (the spec's default) or the Overview. */
export const START_SCREENS = ['transactions', 'overview'] as const;
export const StartScreen = z.enum(START_SCREENS);
export type StartScreen = z.infer<typeof StartScreen>;
export const UserPreferences = z.object({ timeZone: z.string().nullable(), language: Language.nullable(), startScreen: StartScreen });
export type UserPreferences = z.infer<typeof UserPreferences>;
export const UpdateUserPreferencesRequest = z
  .object({ timeZone: TimeZoneName.nullable().optional(), language: Language.nullable().optional(), startScreen: StartScreen.optional() })
  .strict()
  .refine((r) => r.timeZone !== undefined || r.language !== undefined || r.startScreen !== undefined, {
    message: 'Send a time zone, a language or a first screen',
  });
export type UpdateUserPreferencesRequest = z.infer<typeof UpdateUserPreferencesRequest>;
