import type { Role } from './domain.ts';

/**
 * Who may do what (portal-core §6): the one table the server's checks (lib/access.ts `requireCan`) and the portal's
 * screens (`can`) both read. The server decides from the verified session; the portal only hides what would be
 * refused. View users read what their partner's flags show and change nothing of the partner's.
 *
 * The spec's deliberate differences, written here once:
 * - `openWallets` and `walletsInNav`: treasury may open wallet management (the guard's rule 3) and reviews wallets,
 *   but the business partner's navigation lists it for admins only (portal-core §2, "feature on and admin").
 * - `editSettings`: a non-admin still sees the settings, read-only, with "You do not have edit access because you
 *   are not an admin".
 * - `readTeamSecurity`: every user reads their own security history; an admin reads the whole team's.
 */
export const PERMISSIONS = {
  /** invite, remove, change a role, reset a password, resend an invitation or a code */
  manageTeam: ['admin'],
  /** the low-balance limit and the balance-payout setting */
  editSettings: ['admin'],
  /** ask for a change of enabled countries, approve or deny another admin's */
  changeCountries: ['admin'],
  /** the API keys screen (the guard's rule 2): keys and the IP addresses they may call from */
  manageApiKeys: ['admin'],
  /** add, change, test and remove webhook endpoints; the others read them */
  manageWebhooks: ['admin'],
  /** the whole team's security history */
  readTeamSecurity: ['admin'],
  /** open wallet management (the guard's rule 3) */
  openWallets: ['admin', 'treasury'],
  /** wallet management in the business partner's navigation */
  walletsInNav: ['admin'],
  /** add, review (another user's), enable, disable and remove settlement wallets; the wallet-review banners */
  manageWallets: ['admin', 'treasury'],
  /** add, change and remove fiat wallets */
  manageFiatWallets: ['admin', 'treasury'],
  /** withdraw from the balance to an approved wallet */
  withdraw: ['admin', 'treasury'],
  /** read payments and their documents */
  readPayments: ['admin', 'treasury', 'view'],
  /** initiate a payment (commercial partners) */
  initiatePayments: ['admin', 'treasury'],
  /** give a customer a deposit address */
  assignDepositAddresses: ['admin', 'treasury'],
  /** add test money to the test side's balance (test mode) */
  addTestFunds: ['admin', 'treasury'],
} as const satisfies Record<string, readonly Role[]>;

export type Action = keyof typeof PERMISSIONS;

/** Whether a user of `role` may do `action`; no role (not signed in) may do nothing. */
export const can = (role: Role | null | undefined, action: Action): boolean => role != null && (PERMISSIONS[action] as readonly Role[]).includes(role);

/** The roles that may do `action`, for a rule that also names them (a message, a notice's recipients). */
export const rolesFor = (action: Action): readonly Role[] => PERMISSIONS[action];

/** What a user is told when the permission table refuses them. */
export const PERMISSION_MESSAGES = {
  adminOnly: 'Only an admin can do this.',
  rolesOnly: (roles: readonly Role[]) => `Only ${roles.join(' or ')} users can do this.`,
} as const;

/** Why a user may not do `action`: who may. */
export const refusal = (action: Action): string => {
  const roles = rolesFor(action);
  return roles.length === 1 && roles[0] === 'admin' ? PERMISSION_MESSAGES.adminOnly : PERMISSION_MESSAGES.rolesOnly(roles);
};
