import { z } from 'zod';
import { CSV_BOM, csvLine } from './csv.ts';
import type { Role } from './domain.ts';
import { LANGUAGE_NAMES, Language } from './i18n.ts';
import { ROLE_LABELS } from './team.ts';
import { TimeZoneName, wallTimeInZone } from './time-zone.ts';
import { CalendarDate } from './validation.ts';

/**
 * The security history (who did what, read from the audit rows) and a user's own sessions. Admins read the whole
 * team's history, everyone else their own; nothing in it can be changed. Each audit action belongs to one kind,
 * which the history filters by.
 */
export const SECURITY_KINDS = [
  'sign-in',
  'sessions',
  'password',
  'two-step',
  'team',
  'api-keys',
  'ip-addresses',
  'webhooks',
  'wallets',
  'withdrawals',
  'countries',
  'settings',
  'reports',
] as const;
export const SecurityKind = z.enum(SECURITY_KINDS);
export type SecurityKind = z.infer<typeof SecurityKind>;

export const SECURITY_KIND_LABELS: Record<SecurityKind, string> = {
  'sign-in': 'Sign-ins',
  sessions: 'Sessions',
  password: 'Passwords',
  'two-step': 'Two-step verification',
  team: 'Team',
  'api-keys': 'API keys',
  'ip-addresses': 'Allowed IP addresses',
  webhooks: 'Webhooks',
  wallets: 'Wallets',
  withdrawals: 'Withdrawals',
  countries: 'Countries',
  settings: 'Settings',
  reports: 'Reports',
};

/**
 * Which audit actions each kind holds: whole families by their prefix (`login.` holds `login.failed`), and single
 * actions by name. Every action the server writes falls in exactly one kind (a test holds it to that); the server
 * filters with the same lists.
 */
export const SECURITY_KIND_ACTIONS: Record<SecurityKind, { prefixes: readonly string[]; actions: readonly string[] }> = {
  'sign-in': { prefixes: ['login.'], actions: ['user.locked'] },
  sessions: { prefixes: ['session.'], actions: ['logout'] },
  password: { prefixes: ['password.'], actions: [] },
  'two-step': { prefixes: ['mfa.', 'passkey.'], actions: [] },
  team: { prefixes: [], actions: ['user.invited', 'user.invite_resent', 'user.invitation_withdrawn', 'user.role_changed', 'user.deleted', 'user.joined'] },
  'api-keys': { prefixes: ['api_key.'], actions: [] },
  'ip-addresses': { prefixes: ['ip_address.'], actions: [] },
  webhooks: { prefixes: ['webhook.'], actions: [] },
  wallets: { prefixes: ['settlement_wallet.', 'deposit_address.', 'fiat_wallet.'], actions: [] },
  withdrawals: { prefixes: ['settlement.'], actions: [] },
  countries: { prefixes: ['partner_rate.'], actions: [] },
  settings: { prefixes: ['partner.'], actions: ['user.time_zone_changed', 'user.language_changed', 'user.notification_preferences_changed'] },
  reports: { prefixes: ['report.'], actions: [] },
};

/** The kind of an audit action; an action of no kind reads as a change of settings. */
export function securityKindOf(action: string): SecurityKind {
  for (const kind of SECURITY_KINDS) {
    const { prefixes, actions } = SECURITY_KIND_ACTIONS[kind];
    if (actions.includes(action) || prefixes.some((p) => action.startsWith(p))) return kind;
  }
  return 'settings';
}

/** The most rows one read of the history returns, and the most an export collects (as the transaction exports). */
export const SECURITY_PAGE_MAX = 500;
export const SECURITY_PAGE_DEFAULT = 50;
export const SECURITY_EXPORT_MAX = 10_000;

export const SECURITY_MESSAGES = {
  ownOnly: 'You can only see your own security history. Ask an admin of your team for the rest.',
  badCursor: 'This page of the history can no longer be read. Start again from the first page.',
  sessionNotFound: 'This session is not one of yours, or it has ended already.',
  currentSession: 'This is the session you are using. Sign out to end it.',
} as const;

/** GET security-history: the newest first, a page at a time (`cursor`: the `nextCursor` of the page before). */
export const SecurityHistoryQuery = z
  .object({
    /** a member's user id; only admins may name someone other than themselves */
    person: z.uuid().optional(),
    kind: SecurityKind.optional(),
    /** calendar days, inclusive, in `timeZone` (UTC when absent) */
    from: CalendarDate.optional(),
    to: CalendarDate.optional(),
    timeZone: TimeZoneName.optional(),
    cursor: z.string().max(200).optional(),
    limit: z.coerce.number().int().min(1).max(SECURITY_PAGE_MAX).default(SECURITY_PAGE_DEFAULT),
  })
  .strict();
export type SecurityHistoryQuery = z.input<typeof SecurityHistoryQuery>;

export const SecurityEvent = z.object({
  id: z.string(),
  at: z.string(),
  kind: SecurityKind,
  action: z.string(),
  /** who acted: a member (their name and e-mail as they are now), or the provider's operator, the system, an API key */
  actor: z.object({ userId: z.string().nullable(), name: z.string().nullable(), email: z.string().nullable(), label: z.string() }),
  target: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  ip: z.string().nullable(),
  /** the browser of a sign-in or its failure, in words ("Chrome 131 on Windows") */
  browser: z.string().nullable(),
});
export type SecurityEvent = z.infer<typeof SecurityEvent>;

export const SecurityHistoryResponse = z.object({ items: z.array(SecurityEvent), nextCursor: z.string().nullable() });
export type SecurityHistoryResponse = z.infer<typeof SecurityHistoryResponse>;

/** A session of the caller that is still open. */
export const ActiveSession = z.object({
  id: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  browser: z.string().nullable(),
  ip: z.string().nullable(),
  /** the session this request comes from */
  current: z.boolean(),
});
export type ActiveSession = z.infer<typeof ActiveSession>;
export const ActiveSessionsResponse = z.object({ sessions: z.array(ActiveSession) });
export const SessionIdParams = z.object({ sessionId: z.uuid() });

// ── words ──

const BROWSERS: [RegExp, string][] = [
  [/Edg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
  [/OPR\/(\d+)/, 'Opera'],
  [/SamsungBrowser\/(\d+)/, 'Samsung Internet'],
  [/Firefox\/(\d+)|FxiOS\/(\d+)/, 'Firefox'],
  [/CriOS\/(\d+)/, 'Chrome'],
  [/HeadlessChrome\/(\d+)/, 'Headless Chrome'],
  [/Chrome\/(\d+)/, 'Chrome'],
  [/Version\/(\d+)[.\d]* (?:Mobile\/\S+ )?Safari\//, 'Safari'],
];
const SYSTEMS: [RegExp, string][] = [
  [/Windows NT/, 'Windows'],
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Android/, 'Android'],
  [/CrOS/, 'ChromeOS'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/Linux/, 'Linux'],
];

/**
 * A browser in words from its User-Agent: "Chrome 131 on Windows"; a program that is not a browser (curl, a
 * library) by the first word it gives; null when there is none.
 */
export function describeBrowser(userAgent: string | null | undefined): string | null {
  const ua = userAgent?.trim();
  if (!ua) return null;
  const system = SYSTEMS.find(([re]) => re.test(ua))?.[1];
  for (const [re, name] of BROWSERS) {
    const m = re.exec(ua);
    if (m) {
      const version = m.slice(1).find(Boolean);
      return `${name}${version ? ` ${version}` : ''}${system ? ` on ${system}` : ''}`;
    }
  }
  const program = /^[\w.-]+(?:\/[\w.-]+)?/.exec(ua)?.[0];
  return program ? program.slice(0, 60) : null;
}

const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
const roleText = (v: unknown) => (typeof v === 'string' && v in ROLE_LABELS ? ROLE_LABELS[v as Role] : text(v));
const quoted = (v: unknown) => (text(v) ? ` “${text(v)}”` : '');
const SIGN_IN_METHODS: Record<string, string> = {
  totp: 'with the authenticator app',
  recovery_code: 'with a recovery code',
  mfa_setup: 'and set up the authenticator app',
  passkey: 'with a passkey',
};

/** What happened, in a sentence without its actor (the history shows who beside it). */
export function describeSecurityEvent(e: Pick<SecurityEvent, 'action' | 'details' | 'target'>): string {
  const d = e.details;
  const who = text(d.email) ?? '';
  switch (e.action) {
    case 'login.succeeded':
      return `Signed in ${SIGN_IN_METHODS[text(d.method) ?? ''] ?? ''}`.trim();
    case 'login.failed':
      return 'Sign-in failed: wrong password';
    case 'login.otp_failed':
      return 'Sign-in failed: wrong verification code';
    case 'login.refused_inactive':
      return 'Sign-in refused: the account is not active';
    case 'user.locked':
      return `Sign-in locked for ${typeof d.minutes === 'number' ? d.minutes : 15} minutes after repeated failures`;
    case 'logout':
      return 'Signed out';
    case 'session.ended':
      return `Ended a session${text(d.browser) ? ` (${text(d.browser)})` : ''}`;
    case 'session.refresh_token_reused':
      return 'Session ended: it was used from two places at once';
    case 'password.changed':
      return d.reason === 'reset' ? 'Chose a new password with a reset code' : 'Changed the password';
    case 'password.reset_requested':
      return 'Asked for a password reset';
    case 'password.reset_by_admin':
      return `Reset the password of ${who || 'a member'}`;
    case 'password.reset_code_resent':
      return `Sent a new password reset code to ${who || 'a member'}`;
    case 'mfa.enrolled':
      return 'Set up the authenticator app';
    case 'mfa.recovery_code_used':
      return 'Used a recovery code';
    case 'passkey.added':
      return `Added the passkey${quoted(e.target)}`;
    case 'passkey.renamed':
      return `Renamed a passkey to${quoted(e.target)}`;
    case 'passkey.removed':
      return `Removed the passkey${quoted(e.target)}`;
    case 'passkey.disabled':
      return `Disabled the passkey${quoted(e.target)}: its authenticator reported an earlier use count, as a copied key would`;
    case 'user.invited':
      return `Invited ${who || 'someone'}${roleText(d.role) ? ` as ${roleText(d.role)}` : ''}`;
    case 'user.invite_resent':
      return `Sent the invitation again to ${who || 'someone'}`;
    case 'user.invitation_withdrawn':
      return `Withdrew the invitation of ${who || 'someone'}`;
    case 'user.joined':
      return 'Joined the team';
    case 'user.role_changed':
      return `Changed the role of ${who || 'a member'}${roleText(d.from) && roleText(d.to) ? ` from ${roleText(d.from)} to ${roleText(d.to)}` : ''}`;
    case 'user.deleted':
      return `Removed ${who || 'a member'} from the team`;
    case 'user.time_zone_changed':
      return `Changed the time zone${text(d.to) ? ` to ${text(d.to)}` : ''}`;
    case 'user.language_changed':
      return `Changed the language${Language.safeParse(d.to).success ? ` to ${LANGUAGE_NAMES[d.to as Language]}` : ' to the browser’s'}`;
    case 'user.notification_preferences_changed':
      return 'Changed the e-mail notifications';
    case 'api_key.created':
      return `Created the API key${quoted(d.name)}`;
    case 'api_key.deleted':
      return 'Deleted an API key';
    case 'api_key.disabled':
      return 'Disabled an API key';
    case 'api_key.enabled':
      return 'Enabled an API key';
    case 'api_key.rolled':
      return "Rolled an API key's secret";
    case 'ip_address.added':
      return `Allowed the IP address ${e.target ?? ''}`.trim();
    case 'ip_address.changed':
      return `Changed the allowed IP address ${text(d.from) ?? ''}${text(d.to) && d.to !== d.from ? ` to ${text(d.to)}` : ''}`.trim();
    case 'ip_address.deleted':
      return `Removed the allowed IP address ${e.target ?? ''}`.trim();
    case 'webhook.created':
      return `Added the webhook endpoint ${text(d.url) ?? ''}`.trim();
    case 'webhook.updated':
      return 'Changed a webhook endpoint';
    case 'webhook.deleted':
      return `Deleted the webhook endpoint ${text(d.url) ?? ''}`.trim();
    case 'webhook.secret_rolled':
      return "Rolled a webhook endpoint's signing secret";
    case 'webhook.test_sent':
      return 'Sent a test event to a webhook endpoint';
    case 'webhook.delivery_resent':
      return 'Sent a webhook delivery again';
    case 'settlement_wallet.created':
      return `Added the wallet ${text(d.address) ?? ''}`.trim();
    case 'settlement_wallet.approved':
      return `Approved the wallet ${text(d.address) ?? ''}`.trim();
    case 'settlement_wallet.denied':
      return `Declined the wallet ${text(d.address) ?? ''}`.trim();
    case 'settlement_wallet.screening_passed':
      return `Screening passed for the wallet ${text(d.address) ?? ''}`.trim();
    case 'settlement_wallet.screening_failed':
      return `Screening failed for the wallet ${text(d.address) ?? ''}`.trim();
    case 'settlement_wallet.deleted':
      return `Removed the wallet ${text(d.address) ?? ''}`.trim();
    case 'deposit_address.assigned':
      return 'A deposit address was assigned';
    case 'fiat_wallet.added':
      return `Added the fiat wallet ${e.target ?? ''}`.trim();
    case 'fiat_wallet.updated':
      return `Changed the fiat wallet ${e.target ?? ''}`.trim();
    case 'settlement.pending':
      return 'Requested a withdrawal';
    case 'settlement.processing':
      return 'A withdrawal is being processed';
    case 'settlement.complete':
      return 'A withdrawal completed';
    case 'settlement.failed':
      return `A withdrawal failed${text(d.reason) ? `: ${text(d.reason)}` : ''}`;
    case 'partner_rate.change_requested':
      return `Asked to change a country${text(d.code) ? ` (${text(d.code)})` : ''}`;
    case 'partner_rate.change_approved':
      return `Approved a country change${text(d.code) ? ` (${text(d.code)})` : ''}`;
    case 'partner_rate.change_denied':
      return `Declined a country change${text(d.code) ? ` (${text(d.code)})` : ''}`;
    case 'partner.created':
      return 'The account was opened';
    case 'partner.flags_changed':
      return 'The features of the account changed';
    case 'partner.low_balance_limit_changed':
      return `Changed the low balance limit${text(d.lowBalanceLimit) ? ` to ${text(d.lowBalanceLimit)} USD` : ''}`;
    case 'partner.payout_config_changed':
      return 'Changed the payout settings';
    case 'report.requested':
      return 'Requested a report';
    default: {
      const words = e.action.replace(/[._]/g, ' ');
      return words.charAt(0).toUpperCase() + words.slice(1);
    }
  }
}

/** The file of an export: RFC 4180 CSV with a byte-order mark, its times in `zone` (named in the header). */
export function securityHistoryCsv(events: readonly SecurityEvent[], zone = 'UTC'): string {
  const header = [`Time (${zone})`, 'Person', 'E-mail', 'Kind', 'Event', 'IP address', 'Browser', 'Action'];
  return (
    CSV_BOM +
    csvLine(header) +
    events
      .map((e) =>
        csvLine([
          wallTimeInZone(new Date(e.at), zone),
          e.actor.label,
          e.actor.email,
          SECURITY_KIND_LABELS[e.kind],
          describeSecurityEvent(e),
          e.ip,
          e.browser,
          e.action,
        ]),
      )
      .join('')
  );
}
