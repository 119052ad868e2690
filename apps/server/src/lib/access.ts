import { API_KEY_MESSAGES, type ApiKeyMode, type ApiKeyPermission } from '@portal/contract/api-keys';
import type { Role } from '@portal/contract/domain';
import { can, refusal, type Action } from '@portal/contract/permissions';
import { forbidden } from './errors.ts';

/**
 * Who is calling and what they may do: plain rules over the caller, with nothing of Fastify (plugins/auth.ts reads
 * the caller from the request) and nothing of any module, so that every service may use them.
 */

/** Who is calling, from the verified token and the user's current row: never from the request body. */
export type Auth = {
  userId: string;
  /** the partner whose data the call reaches: the user's, or in the portal's test view its test partner */
  partnerId: string;
  role: Role;
  email: string;
  name: string;
  sessionId: string;
  /**
   * Set in the portal's test view only (X-Portal-Mode: test on a route that serves test data, plugins/auth.ts): the
   * user's own partner, the account, while `partnerId` is its test partner (migration 0044). What is the user's or
   * the account's (codes, notifications, preferences) goes by accountOf.
   */
  accountId?: string;
};

/** The account of the caller: the user's own partner, also in the test view. */
export const accountOf = (auth: { partnerId: string; accountId?: string | undefined }): string => auth.accountId ?? auth.partnerId;

/** The caller as the account's live side: for the reads of a test-view call that are the account's (the start data's). */
export function liveSideOf(auth: Auth): Auth {
  const { accountId, ...user } = auth;
  return accountId === undefined ? auth : { ...user, partnerId: accountId };
}

/**
 * A partner's server calling with an API key (plugins/api-key-auth.ts): no user; the key is the actor. Only routes
 * of the partner API (route config `apiKey`) ever see one.
 */
export type ApiKeyAuth = {
  kind: 'apiKey';
  /** the partner whose data the key reaches: a test key's is its account's test partner (migration 0044) */
  partnerId: string;
  mode: ApiKeyMode;
  keyId: string;
  apiKey: string;
  name: string;
  permissions: ApiKeyPermission[];
};

/** Either kind of caller of a partner-API route. */
export type Caller = Auth | ApiKeyAuth;

export const isApiKeyCaller = (caller: Caller): caller is ApiKeyAuth => 'kind' in caller && caller.kind === 'apiKey';

/** Whether the caller reaches a partner's test data (a key made for test, the portal's test view): made-up addresses, sandbox only. */
export const isTestCaller = (caller: Caller): boolean => (isApiKeyCaller(caller) ? caller.mode === 'test' : caller.accountId !== undefined);

/** Who made a change, for the audit trail: the user, or the API key (no user). */
export function actorOf(caller: Caller): { actorUserId: string | null; actor: string } {
  return isApiKeyCaller(caller) ? { actorUserId: null, actor: `api key ${caller.apiKey}` } : { actorUserId: caller.userId, actor: caller.email };
}

/**
 * A change that users of some roles, or API keys with a permission, may make. The key's permission was checked
 * when the call was verified; it is checked again here so that the rule does not rest on the route's declaration.
 */
export function requireAccess(caller: Caller, rule: AccessRule): void {
  if (hasAccess(caller, rule)) return;
  throw isApiKeyCaller(caller) ? forbidden(API_KEY_MESSAGES.permission(rule.permission), 'ApiKeyPermissionDenied') : forbidden(refusal(rule.action));
}

/** A change that users allowed `action`, or API keys with `permission`, may make. */
export type AccessRule = { action: Action; permission: ApiKeyPermission };

/** Whether the caller may make the change (requireAccess's rule, for a reply that only says what the caller may do). */
export const hasAccess = (caller: Caller, rule: AccessRule): boolean =>
  isApiKeyCaller(caller) ? caller.permissions.includes(rule.permission) : can(caller.role, rule.action);

/** A user may do `action` by the permission table of the contract (permissions.ts), from their verified role. */
export function requireCan(auth: Auth, action: Action): void {
  if (!can(auth.role, action)) throw forbidden(refusal(action));
}
