import { z } from 'zod';
import { CSV_BOM, csvLine } from './csv.ts';
import type { Role } from './domain.ts';
import { LANGUAGE_NAMES, Language } from './i18n.ts';
import { localDecimal } from './written.ts';
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
  settings: {
    prefixes: ['partner.'],
    actions: ['user.time_zone_changed', 'user.language_changed', 'user.start_screen_changed', 'user.notification_preferences_changed'],
  },
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

// ── what happened, in words: the event's details are read once (decode), then said in each language ──

const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

/** The parts of an event its sentence is made of, read from its details whatever their shape (older rows too). */
function decode(e: Pick<SecurityEvent, 'action' | 'details' | 'target'>) {
  const d = e.details;
  const role = (v: unknown) => (typeof v === 'string' && v in ROLE_LABELS ? (v as Role) : text(v));
  return {
    email: text(d.email),
    method: text(d.method),
    minutes: typeof d.minutes === 'number' ? d.minutes : 15,
    browser: text(d.browser),
    reason: text(d.reason),
    role: role(d.role),
    from: text(d.from),
    to: text(d.to),
    fromRole: role(d.from),
    toRole: role(d.to),
    language: Language.safeParse(d.to).data,
    name: text(d.name),
    url: text(d.url),
    address: text(d.address),
    code: text(d.code),
    lowBalanceLimit: text(d.lowBalanceLimit),
    target: text(e.target),
  };
}
type Facts = ReturnType<typeof decode>;

/** A sentence with its optional tail: `${head}${tail}` trimmed where the tail's value is missing. */
const joined = (head: string, value: string | undefined, tail = (v: string) => ` ${v}`) => (value ? `${head}${tail(value)}` : head);

// English: the sentence of each action, without its actor (the history shows who beside it)
const roleEn = (r: string | undefined) => (r && r in ROLE_LABELS ? ROLE_LABELS[r as Role] : r);
const quotedEn = (v: string | undefined) => (v ? ` “${v}”` : '');
const SIGN_IN_METHODS: Record<string, string> = {
  totp: 'with the authenticator app',
  recovery_code: 'with a recovery code',
  mfa_setup: 'and set up the authenticator app',
  passkey: 'with a passkey',
};
const ENGLISH = {
  'login.succeeded': (f: Facts) => `Signed in ${SIGN_IN_METHODS[f.method ?? ''] ?? ''}`.trim(),
  'login.failed': () => 'Sign-in failed: wrong password',
  'login.otp_failed': () => 'Sign-in failed: wrong verification code',
  'login.refused_inactive': () => 'Sign-in refused: the account is not active',
  'user.locked': (f: Facts) => `Sign-in locked for ${f.minutes} minutes after repeated failures`,
  logout: () => 'Signed out',
  'session.ended': (f: Facts) => joined('Ended a session', f.browser, (b) => ` (${b})`),
  'session.refresh_token_reused': () => 'Session ended: it was used from two places at once',
  'password.changed': (f: Facts) => (f.reason === 'reset' ? 'Chose a new password with a reset code' : 'Changed the password'),
  'password.reset_requested': () => 'Asked for a password reset',
  'password.reset_by_admin': (f: Facts) => `Reset the password of ${f.email ?? 'a member'}`,
  'password.reset_code_resent': (f: Facts) => `Sent a new password reset code to ${f.email ?? 'a member'}`,
  'mfa.enrolled': () => 'Set up the authenticator app',
  'mfa.recovery_code_used': () => 'Used a recovery code',
  'passkey.added': (f: Facts) => `Added the passkey${quotedEn(f.target)}`,
  'passkey.renamed': (f: Facts) => `Renamed a passkey to${quotedEn(f.target)}`,
  'passkey.removed': (f: Facts) => `Removed the passkey${quotedEn(f.target)}`,
  'passkey.disabled': (f: Facts) => `Disabled the passkey${quotedEn(f.target)}: its authenticator reported an earlier use count, as a copied key would`,
  'user.invited': (f: Facts) => `Invited ${f.email ?? 'someone'}${roleEn(f.role) ? ` as ${roleEn(f.role)}` : ''}`,
  'user.invite_resent': (f: Facts) => `Sent the invitation again to ${f.email ?? 'someone'}`,
  'user.invitation_withdrawn': (f: Facts) => `Withdrew the invitation of ${f.email ?? 'someone'}`,
  'user.joined': () => 'Joined the team',
  'user.role_changed': (f: Facts) =>
    `Changed the role of ${f.email ?? 'a member'}${roleEn(f.fromRole) && roleEn(f.toRole) ? ` from ${roleEn(f.fromRole)} to ${roleEn(f.toRole)}` : ''}`,
  'user.deleted': (f: Facts) => `Removed ${f.email ?? 'a member'} from the team`,
  'user.time_zone_changed': (f: Facts) => joined('Changed the time zone', f.to, (z) => ` to ${z}`),
  'user.language_changed': (f: Facts) => `Changed the language${f.language ? ` to ${LANGUAGE_NAMES[f.language]}` : ' to the browser’s'}`,
  'user.start_screen_changed': (f: Facts) => `Changed the first screen after sign-in${f.to === 'overview' ? ' to the Overview' : ' to Transactions'}`,
  'user.notification_preferences_changed': () => 'Changed the e-mail notifications',
  'api_key.created': (f: Facts) => `Created the API key${quotedEn(f.name)}`,
  'api_key.deleted': () => 'Deleted an API key',
  'api_key.disabled': () => 'Disabled an API key',
  'api_key.enabled': () => 'Enabled an API key',
  'api_key.rolled': () => "Rolled an API key's secret",
  'ip_address.added': (f: Facts) => joined('Allowed the IP address', f.target),
  'ip_address.changed': (f: Facts) => joined('Changed the allowed IP address', `${f.from ?? ''}${f.to && f.to !== f.from ? ` to ${f.to}` : ''}`.trim()),
  'ip_address.deleted': (f: Facts) => joined('Removed the allowed IP address', f.target),
  'webhook.created': (f: Facts) => joined('Added the webhook endpoint', f.url),
  'webhook.updated': () => 'Changed a webhook endpoint',
  'webhook.deleted': (f: Facts) => joined('Deleted the webhook endpoint', f.url),
  'webhook.secret_rolled': () => "Rolled a webhook endpoint's signing secret",
  'webhook.test_sent': () => 'Sent a test event to a webhook endpoint',
  'webhook.delivery_resent': () => 'Sent a webhook delivery again',
  'settlement_wallet.created': (f: Facts) => joined('Added the wallet', f.address),
  'settlement_wallet.approved': (f: Facts) => joined('Approved the wallet', f.address),
  'settlement_wallet.denied': (f: Facts) => joined('Declined the wallet', f.address),
  'settlement_wallet.screening_passed': (f: Facts) => joined('Screening passed for the wallet', f.address),
  'settlement_wallet.screening_failed': (f: Facts) => joined('Screening failed for the wallet', f.address),
  'settlement_wallet.deleted': (f: Facts) => joined('Removed the wallet', f.address),
  'deposit_address.assigned': () => 'A deposit address was assigned',
  'fiat_wallet.added': (f: Facts) => joined('Added the fiat wallet', f.target),
  'fiat_wallet.updated': (f: Facts) => joined('Changed the fiat wallet', f.target),
  'settlement.pending': () => 'Requested a withdrawal',
  'settlement.processing': () => 'A withdrawal is being processed',
  'settlement.complete': () => 'A withdrawal completed',
  'settlement.failed': (f: Facts) => joined('A withdrawal failed', f.reason, (r) => `: ${r}`),
  'partner_rate.change_requested': (f: Facts) => joined('Asked to change a country', f.code, (c) => ` (${c})`),
  'partner_rate.change_approved': (f: Facts) => joined('Approved a country change', f.code, (c) => ` (${c})`),
  'partner_rate.change_denied': (f: Facts) => joined('Declined a country change', f.code, (c) => ` (${c})`),
  'partner.created': () => 'The account was opened',
  'partner.flags_changed': () => 'The features of the account changed',
  'partner.low_balance_limit_changed': (f: Facts) => joined('Changed the low balance limit', f.lowBalanceLimit, (l) => ` to ${l} USD`),
  'partner.payout_config_changed': () => 'Changed the payout settings',
  'report.requested': () => 'Requested a report',
};
type SecurityAction = keyof typeof ENGLISH;

// French: the same sentences (formal, no actor), with French typesetting (a no-break space before a colon)
const FRENCH_ROLES: Record<Role, string> = { admin: 'Administrateur', treasury: 'Trésorerie', view: 'Lecture seule' };
const roleFr = (r: string | undefined) => (r && r in FRENCH_ROLES ? FRENCH_ROLES[r as Role] : r);
const quotedFr = (v: string | undefined) => (v ? ` «\u00a0${v}\u00a0»` : '');
const SIGN_IN_METHODS_FR: Record<string, string> = {
  totp: 'avec l’application d’authentification',
  recovery_code: 'avec un code de récupération',
  mfa_setup: 'et configuration de l’application d’authentification',
  passkey: 'avec une clé d’accès',
};
/** describeBrowser's words in French: "Chrome 131 on Windows" -> "Chrome 131 sous Windows". */
export const frenchBrowser = (browser: string) => browser.replace(new RegExp(` on (${SYSTEMS.map(([, name]) => name).join('|')})$`), ' sous $1');
const FRENCH: Record<SecurityAction, (f: Facts) => string> = {
  'login.succeeded': (f) => `Connexion ${SIGN_IN_METHODS_FR[f.method ?? ''] ?? ''}`.trim(),
  'login.failed': () => 'Échec de connexion\u00a0: mot de passe incorrect',
  'login.otp_failed': () => 'Échec de connexion\u00a0: code de vérification incorrect',
  'login.refused_inactive': () => 'Connexion refusée\u00a0: le compte n’est pas actif',
  'user.locked': (f) => `Connexion bloquée pendant ${f.minutes} minutes après plusieurs échecs`,
  logout: () => 'Déconnexion',
  'session.ended': (f) => joined('Fin d’une session', f.browser, (b) => ` (${frenchBrowser(b)})`),
  'session.refresh_token_reused': () => 'Session fermée\u00a0: elle était utilisée depuis deux endroits à la fois',
  'password.changed': (f) => (f.reason === 'reset' ? 'Nouveau mot de passe choisi avec un code de réinitialisation' : 'Mot de passe modifié'),
  'password.reset_requested': () => 'Demande de réinitialisation du mot de passe',
  'password.reset_by_admin': (f) => `Réinitialisation du mot de passe de ${f.email ?? 'un membre'}`,
  'password.reset_code_resent': (f) => `Nouveau code de réinitialisation envoyé à ${f.email ?? 'un membre'}`,
  'mfa.enrolled': () => 'Configuration de l’application d’authentification',
  'mfa.recovery_code_used': () => 'Utilisation d’un code de récupération',
  'passkey.added': (f) => `Ajout de la clé d’accès${quotedFr(f.target)}`,
  'passkey.renamed': (f) => `Clé d’accès renommée en${quotedFr(f.target)}`,
  'passkey.removed': (f) => `Retrait de la clé d’accès${quotedFr(f.target)}`,
  'passkey.disabled': (f) =>
    `Clé d’accès${quotedFr(f.target)} désactivée\u00a0: son authentificateur a indiqué un nombre d’utilisations antérieur, comme le ferait une clé copiée`,
  'user.invited': (f) => `Invitation de ${f.email ?? 'quelqu’un'}${roleFr(f.role) ? ` comme ${roleFr(f.role)}` : ''}`,
  'user.invite_resent': (f) => `Invitation renvoyée à ${f.email ?? 'quelqu’un'}`,
  'user.invitation_withdrawn': (f) => `Invitation de ${f.email ?? 'quelqu’un'} retirée`,
  'user.joined': () => 'Arrivée dans l’équipe',
  'user.role_changed': (f) =>
    `Changement du rôle de ${f.email ?? 'un membre'}${roleFr(f.fromRole) && roleFr(f.toRole) ? ` de ${roleFr(f.fromRole)} à ${roleFr(f.toRole)}` : ''}`,
  'user.deleted': (f) => `Retrait de ${f.email ?? 'un membre'} de l’équipe`,
  'user.time_zone_changed': (f) => joined('Fuseau horaire changé', f.to, (z) => `\u00a0: ${z}`),
  'user.language_changed': (f) => `Langue changée${f.language ? `\u00a0: ${LANGUAGE_NAMES[f.language]}` : ' pour celle du navigateur'}`,
  'user.start_screen_changed': (f) => `Premier écran après la connexion\u00a0: ${f.to === 'overview' ? 'la vue d’ensemble' : 'les transactions'}`,
  'user.notification_preferences_changed': () => 'Modification des notifications par e-mail',
  'api_key.created': (f) => `Création de la clé API${quotedFr(f.name)}`,
  'api_key.deleted': () => 'Suppression d’une clé API',
  'api_key.disabled': () => 'Désactivation d’une clé API',
  'api_key.enabled': () => 'Activation d’une clé API',
  'api_key.rolled': () => 'Renouvellement du secret d’une clé API',
  'ip_address.added': (f) => joined('Autorisation de l’adresse IP', f.target),
  'ip_address.changed': (f) => joined('Modification de l’adresse IP autorisée', `${f.from ?? ''}${f.to && f.to !== f.from ? ` en ${f.to}` : ''}`.trim()),
  'ip_address.deleted': (f) => joined('Retrait de l’adresse IP autorisée', f.target),
  'webhook.created': (f) => joined('Ajout du point de terminaison webhook', f.url),
  'webhook.updated': () => 'Modification d’un point de terminaison webhook',
  'webhook.deleted': (f) => joined('Suppression du point de terminaison webhook', f.url),
  'webhook.secret_rolled': () => 'Renouvellement du secret de signature d’un point de terminaison webhook',
  'webhook.test_sent': () => 'Envoi d’un événement de test à un point de terminaison webhook',
  'webhook.delivery_resent': () => 'Nouvel envoi d’une livraison webhook',
  'settlement_wallet.created': (f) => joined('Ajout du portefeuille', f.address),
  'settlement_wallet.approved': (f) => joined('Approbation du portefeuille', f.address),
  'settlement_wallet.denied': (f) => joined('Refus du portefeuille', f.address),
  'settlement_wallet.screening_passed': (f) => joined('Contrôle de conformité réussi pour le portefeuille', f.address),
  'settlement_wallet.screening_failed': (f) => joined('Contrôle de conformité échoué pour le portefeuille', f.address),
  'settlement_wallet.deleted': (f) => joined('Retrait du portefeuille', f.address),
  'deposit_address.assigned': () => 'Une adresse de dépôt a été attribuée',
  'fiat_wallet.added': (f) => joined('Ajout du portefeuille en monnaie fiat', f.target),
  'fiat_wallet.updated': (f) => joined('Modification du portefeuille en monnaie fiat', f.target),
  'settlement.pending': () => 'Demande de retrait',
  'settlement.processing': () => 'Un retrait est en cours de traitement',
  'settlement.complete': () => 'Un retrait est terminé',
  'settlement.failed': (f) => joined('Un retrait a échoué', f.reason, (r) => `\u00a0: ${r}`),
  'partner_rate.change_requested': (f) => joined('Demande de modification d’un pays', f.code, (c) => ` (${c})`),
  'partner_rate.change_approved': (f) => joined('Approbation d’une modification de pays', f.code, (c) => ` (${c})`),
  'partner_rate.change_denied': (f) => joined('Refus d’une modification de pays', f.code, (c) => ` (${c})`),
  'partner.created': () => 'Ouverture du compte',
  'partner.flags_changed': () => 'Les fonctionnalités du compte ont changé',
  'partner.low_balance_limit_changed': (f) => joined('Modification du seuil de solde bas', f.lowBalanceLimit, (l) => ` à ${localDecimal(l, 'fr')}\u00a0USD`),
  'partner.payout_config_changed': () => 'Modification des paramètres de décaissement',
  'report.requested': () => 'Demande d’un rapport',
};

const DESCRIBERS: Record<Language, Record<SecurityAction, (f: Facts) => string>> = { en: ENGLISH, fr: FRENCH };

/**
 * What happened, in a sentence without its actor (the history shows who beside it), in `language`; exports keep
 * English. An action the describers do not know reads as its own words.
 */
export function describeSecurityEvent(e: Pick<SecurityEvent, 'action' | 'details' | 'target'>, language: Language = 'en'): string {
  const describe = DESCRIBERS[language][e.action as SecurityAction] as ((f: Facts) => string) | undefined;
  if (describe) return describe(decode(e));
  const words = e.action.replace(/[._]/g, ' ');
  return language === 'fr' ? `Action\u00a0: ${words}` : words.charAt(0).toUpperCase() + words.slice(1);
}

const SECURITY_KIND_LABELS_FR: Record<SecurityKind, string> = {
  'sign-in': 'Connexions',
  sessions: 'Sessions',
  password: 'Mots de passe',
  'two-step': 'Validation en deux étapes',
  team: 'Équipe',
  'api-keys': 'Clés API',
  'ip-addresses': 'Adresses IP autorisées',
  webhooks: 'Webhooks',
  wallets: 'Portefeuilles',
  withdrawals: 'Retraits',
  countries: 'Pays',
  settings: 'Paramètres',
  reports: 'Rapports',
};

/** A kind's name in `language` (the history's filter and each row). */
export const securityKindLabel = (kind: SecurityKind, language: Language = 'en'): string =>
  (language === 'fr' ? SECURITY_KIND_LABELS_FR : SECURITY_KIND_LABELS)[kind];

/** Who acted when it was not a member, as the history names them (the server writes the English). */
const ACTORS = {
  operator: { en: 'Operator (payments provider)', fr: 'Opérateur (prestataire de paiement)' },
  system: { en: 'System', fr: 'Système' },
  apiKey: { en: 'API key', fr: 'Clé API' },
} as const satisfies Record<string, Record<Language, string>>;

/** The history's label of an audit row's actor that is not a member: the operator, the system, an API key (by its id). */
export function securityActorLabel(actor: string): string {
  if (actor === 'operator') return ACTORS.operator.en;
  if (actor === 'system') return ACTORS.system.en;
  if (actor.startsWith('api key ')) return `${ACTORS.apiKey.en} ${actor.slice('api key '.length)}`;
  return actor;
}

/**
 * One row of the history in the words of `language`: what happened, its kind, who did it and the browser. The
 * history's answer carries data and the English of the server's own labels; a member's name, an address and an
 * e-mail stay as they are. The CSV export keeps English (securityHistoryCsv).
 */
export function securityEventTexts(e: SecurityEvent, language: Language = 'en') {
  let person = e.actor.label;
  let browser = e.browser;
  if (language !== 'en') {
    if (e.actor.userId === null && e.actor.name === null) {
      if (person === ACTORS.operator.en) person = ACTORS.operator[language];
      else if (person === ACTORS.system.en) person = ACTORS.system[language];
      else if (person.startsWith(`${ACTORS.apiKey.en} `)) person = `${ACTORS.apiKey[language]}${person.slice(ACTORS.apiKey.en.length)}`;
    }
    browser = browser && frenchBrowser(browser);
  }
  return { description: describeSecurityEvent(e, language), kind: securityKindLabel(e.kind, language), person, browser };
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
