import { describe, expect, it } from 'vitest';
import { AnalyticsQuery } from './analytics.ts';
import { API_KEY_PERMISSIONS, CreateApiKeyRequest, IpAddressText, UpdateApiKeyRequest } from './api-keys.ts';
import { ConfirmPasswordResetRequest, Email, LoginRequest, PASSWORD_RULES, passwordProblem } from './auth.ts';
import { CoverageQuery } from './coverage.ts';
import { DecimalString, ROLES } from './domain.ts';
import { UpdateFiatWalletRequest } from './fiat-wallets.ts';
import { translateMessage } from './i18n.ts';
import { parseIpAddress } from './ip-address.ts';
import { SessionEndReason, sessionEndMessage } from './live.ts';
import { FRENCH_MESSAGES } from './messages-fr.ts';
import { NOTIFICATION_TOPICS, UpdateNotificationPreferences } from './notifications.ts';
import { RenamePasskeyRequest } from './passkeys.ts';
import { DisbursementRequest, PaymentQuoteQuery } from './payments.ts';
import { LowBalanceLimitForm, MANUAL_PAYOUT, payoutConfigProblem, type PayoutConfig } from './payout.ts';
import { RateChangeRequest } from './rates.ts';
import { SettlementFeeQuery, SettlementRequest } from './settlements.ts';
import { InviteUserRequest, ROLE_LABELS, UpdateUserPreferencesRequest, UpdateUserRequest } from './team.ts';
import { TimeZoneName } from './time-zone.ts';
import { Filters, SEARCH_TABLES, SearchRequest, idSearchMessage } from './transactions.ts';
import { CalendarDate, safeText } from './validation.ts';
import { CreateWalletRequest, TravelRuleInfo, WALLET_DELETION_REASONS, WALLET_DENIAL_REASONS } from './wallets.ts';
import { CreateWebhookRequest, WebhookUrl } from './webhooks.ts';

declare global {
  interface ImportMeta {
    glob<T>(pattern: string | string[], options: { eager: true }): Record<string, T>;
  }
}

/**
 * The French catalogue of the contract's messages holds every message a person can read: a message added in English
 * without its French fails here. Each `*_MESSAGES` object of every module is walked (a function is called with the
 * sample values below); the messages the schemas and the contract's checks give are collected by making them fail.
 */
const MODULES = import.meta.glob<Record<string, unknown>>(['./*.ts', '!./*.test.ts', '!./messages-fr.ts'], { eager: true });

const fr = (message: string) => translateMessage(message, FRENCH_MESSAGES);
const CATALOGUE = Object.entries(FRENCH_MESSAGES);
const TEMPLATES = CATALOGUE.filter(([english]) => english.includes('{{'));
const names = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]!).sort();

/** The one entry whose French is its English on purpose: several validation problems joined, kept as they are. */
const SAME_IN_BOTH = new Set(['{{first}}; {{rest}}']);

/** Values to call each message function with; every function of a `*_MESSAGES` object needs its line here. */
const SAMPLES: Record<string, unknown[][]> = {
  'AUTH_MESSAGES.recoveryCodesLeft': [[0], [1], [7]],
  'API_KEY_MESSAGES.expired': [['2026-11-16T01:44:00.000Z']],
  'API_KEY_MESSAGES.permission': API_KEY_PERMISSIONS.map((p) => [p]),
  'API_KEY_MESSAGES.ipNotAllowed': [['203.0.113.7']],
  'API_KEY_MESSAGES.rateLimited': [[1000, 60, 12]],
  'STATEMENT_MESSAGES.tooLarge': [[61250]],
  'STATEMENT_MESSAGES.tooLargeForPdf': [[12000]],
  'FIAT_WALLET_MESSAGES.fetchFailed': [['Something went wrong on our side. Please try again.']],
  'PAYMENT_MESSAGES.amountBelow': [['1000.00', 'KES']],
  'PAYMENT_MESSAGES.amountAbove': [['5000000.00', 'XOF']],
  'PAYMENT_MESSAGES.insufficientBalance': [['12.50']],
  'WITHDRAWAL_MESSAGES.atMost': [['2500.00'], ['0.00']],
  'TEAM_MESSAGES.invited': [['ana@acme.test']],
  'TEAM_MESSAGES.invitedMailFailed': [['ana@acme.test']],
  'TEAM_MESSAGES.inviteResent': [['ana@acme.test']],
  'TEAM_MESSAGES.codeResent': [['ana@acme.test']],
  'TEAM_MESSAGES.passwordReset': [['ana@acme.test']],
  'TEAM_MESSAGES.removed': [['ana@acme.test']],
  'TEAM_MESSAGES.invitationWithdrawn': [['ana@acme.test']],
  'TEAM_MESSAGES.roleChanged': ROLES.map((role) => ['ana@acme.test', role]),
  'API_KEY_MESSAGES.ipAddressListed': [['203.0.113.7'], ['2001:db8::/48']],
  'API_KEY_MESSAGES.ipAddressNotListed': [['203.0.113.7']],
  'FIAT_WALLET_MESSAGES.exists': [['KES']],
  'OTP_MESSAGES.notForAction': [['withdrawal']],
  'RATE_MESSAGES.alreadyWaiting': [['Kenya (KES)']],
  'RATE_MESSAGES.alreadyIs': [
    ['Kenya (KES)', 'enabled'],
    ['Kenya (KES)', 'disabled'],
  ],
  'RATE_MESSAGES.nothingWaiting': [['Kenya (KES)']],
  'RATE_MESSAGES.changedMeanwhile': [['Kenya (KES)']],
  'WITHDRAWAL_MESSAGES.coinNotOffered': [['BTC']],
  'WITHDRAWAL_MESSAGES.walletReceives': [[['USDT', 'USDC'], 'DAI']],
  'WALLET_MESSAGES.onNetworks': [[['TRC20', 'ERC20']]],
  'WALLET_MESSAGES.limitReached': [[3, ['USDT on TRC20']]],
  'WALLET_MESSAGES.notOffered': [[['USDC'], 'TRC20', ['USDT']]],
  'WALLET_MESSAGES.chooseNetwork': [[['TRC20', 'ERC20', 'POLYGON']]],
  'WALLET_MESSAGES.alreadyYours': [['TRC20']],
  'WALLET_MESSAGES.onlyFrom': [
    ['pending approval', 'disabled', 'enabled'],
    ['enabled', 'enabled', 'disabled'],
  ],
  'WALLET_MESSAGES.notWaiting': [['enabled'], ['pending screening']],
  'REPORT_MESSAGES.tooManyActive': [[1], [3]],
  'PARTNER_MESSAGES.noPartner': [['00000000-0000-4000-8000-000000000000']],
  'PARTNER_MESSAGES.abbreviationTaken': [['ACME']],
  'PARTNER_MESSAGES.noDepositAddress': [['USDT', 'TRC20']],
  'PARTNER_MESSAGES.notOffered': [['USDC', 'TRC20']],
  'NOTIFICATION_MESSAGES.notForRole': NOTIFICATION_TOPICS.map((topic) => [topic]),
  'PERMISSION_MESSAGES.rolesOnly': [[['admin', 'treasury']]],
};

/** Every message of the `*_MESSAGES` objects, by where it is: `AUTH_MESSAGES.invalidLogin`, `PAYMENT_MESSAGES.accountNumber.bank`. */
function messagesOf(value: unknown, path: string, samplePath = path): [string, string][] {
  if (typeof value === 'string') return [[path, value]];
  if (typeof value === 'function') {
    const samples = SAMPLES[samplePath];
    if (!samples) throw new Error(`${path} builds a message: give it sample values in SAMPLES`);
    return samples.map((args, i) => [`${path}(${i})`, String((value as (...a: unknown[]) => unknown)(...args))]);
  }
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, v]) => messagesOf(v, `${path}.${key}`));
  return [];
}

const CONTRACT_MESSAGES = Object.values(MODULES).flatMap((module) =>
  Object.entries(module)
    .filter(([name]) => name.endsWith('_MESSAGES'))
    .flatMap(([name, value]) => messagesOf(value, name)),
);

/** The messages a schema gives for a value it refuses. */
const refusals = (schema: { safeParse: (v: unknown) => { error?: { issues: { message: string }[] } } }, value: unknown) =>
  (schema.safeParse(value).error?.issues ?? []).map((issue) => issue.message);

const payout = (config: Partial<PayoutConfig>): PayoutConfig => ({ ...MANUAL_PAYOUT, type: 'AUTOMATED', frequency: 'Daily', endPayout: 'Never', ...config });

/** The messages the contract's checks and schemas give, beside its `*_MESSAGES` objects. */
const CHECK_MESSAGES: string[] = [
  ...PASSWORD_RULES.map((rule) => rule.label),
  ...Object.values(ROLE_LABELS),
  ...WALLET_DELETION_REASONS,
  ...WALLET_DENIAL_REASONS,
  ...SessionEndReason.options.flatMap((reason) => [sessionEndMessage(reason), sessionEndMessage(reason, 'Acme Remit')]),
  ...['short', 'a'.repeat(129), 'ana.mensah-2026', 'aaaaaaaaaaaaaa', 'alllowercaseletters'].map((p) => passwordProblem(p, 'ana.mensah@acme.test')!),
  ...SEARCH_TABLES.map(idSearchMessage),
  ...['', '300.1.1.1', '203.0.113.0/33', '2001:db8::/129', '203.0.113.0/0', '203.0.113.7/24'].map((ip) => {
    const parsed = parseIpAddress(ip);
    return parsed.ok ? '' : parsed.message;
  }),
  ...[
    payout({ frequency: null }),
    payout({ frequency: 'Weekly' }),
    payout({ frequency: 'Monthly' }),
    payout({ frequency: 'Yearly' }),
    payout({ frequency: 'Yearly', yearlyDate: { month: 2, day: 30 } }),
    payout({ frequency: 'Yearly', yearlyDate: { month: 11, day: 31 } }),
    payout({ endPayout: null }),
    payout({ endPayout: 'After Payouts' }),
    payout({ endPayout: 'On' }),
  ].map((c) => payoutConfigProblem(c)!),
  ...['', '-5', 'abc', '10.555', '0', '1'.repeat(16)].flatMap((v) => refusals(LowBalanceLimitForm, { lowBalanceLimit: v })),
  ...refusals(Email, 'not an address'),
  ...refusals(LoginRequest, { email: 'ana@acme.test', password: '' }),
  ...refusals(ConfirmPasswordResetRequest, { email: 'ana@acme.test', password: 'x', confirmationCode: '12' }),
  ...refusals(CreateApiKeyRequest, { name: ' ', permissions: [] }),
  ...refusals(CreateApiKeyRequest, { name: 'Payouts', permissions: ['api_read', 'api_read'] }),
  ...refusals(UpdateApiKeyRequest, { apiKey: 'key', status: 'active' }),
  ...refusals(IpAddressText, '203.0.113.7/24'),
  ...refusals(UpdateFiatWalletRequest, { id: 2 }),
  ...refusals(UpdateNotificationPreferences, {
    email: [
      { topic: 'wallets', enabled: true },
      { topic: 'wallets', enabled: false },
    ],
  }),
  ...refusals(RenamePasskeyRequest, { name: ' ' }),
  ...refusals(RenamePasskeyRequest, { name: 'x'.repeat(61) }),
  ...refusals(PaymentQuoteQuery, { kind: 'collection', country: 'ke', channelId: '00000000-0000-4000-8000-000000000001', amount: '0' }),
  ...refusals(PaymentQuoteQuery, { kind: 'collection', country: 'KE', channelId: '00000000-0000-4000-8000-000000000001', amount: '1.234' }),
  ...refusals(DisbursementRequest.shape.sequenceId, 'two words'),
  ...refusals(SettlementRequest.shape.amount, '10.555'),
  ...refusals(SettlementRequest.shape.sequenceId, 'short'),
  ...refusals(SettlementRequest.shape.walletAddress, ''),
  ...refusals(SettlementFeeQuery, { cryptoCurrency: 'USDT', cryptoNetwork: 'TRC20' }),
  ...refusals(TravelRuleInfo, { name: ' ', businessRegistrationNumber: ' ' }),
  ...refusals(CreateWalletRequest.shape.currencies, []),
  ...refusals(InviteUserRequest.shape.name, ' '),
  ...refusals(UpdateUserRequest.shape.userId, 'someone'),
  ...refusals(UpdateUserPreferencesRequest, {}),
  ...refusals(TimeZoneName, 'Mars/Olympus'),
  ...refusals(Filters, { amount: 'lots' }),
  ...refusals(SearchRequest, { table: 'payments', startIndex: 9995, size: 10 }),
  ...refusals(WebhookUrl, 'ftp://example.com'),
  ...refusals(CreateWebhookRequest.shape.events, []),
  ...refusals(CalendarDate, '2026-02-30'),
  ...refusals(safeText(), 'bell\u0007'),
  ...refusals(safeText(), 'half \ud800'),
  ...refusals(DecimalString, '1,000'),
  ...refusals(CoverageQuery, { country: 'KEN' }),
  // the Overview's period: reversed, then longer than a year
  ...refusals(AnalyticsQuery, { from: '2026-03-02', to: '2026-03-01' }),
  ...refusals(AnalyticsQuery, { from: '2025-01-01', to: '2026-03-01' }),
  ...refusals(RateChangeRequest.shape.rates, [
    { partnerRateId: '00000000-0000-4000-8000-000000000001', platformRateId: '00000000-0000-4000-8000-000000000002', status: 'pending_enable' },
    { partnerRateId: '00000000-0000-4000-8000-000000000001', platformRateId: '00000000-0000-4000-8000-000000000002', status: 'pending_enable' },
  ]),
  // zod's own words, as a form shows them
  ...refusals(safeText({ max: 5 }), 'too long'),
  ...refusals(safeText({ min: 3 }), 'ab'),
].filter(Boolean);

/** Validation messages as the server builds them: a field or a part and a predicate, or a field, a colon and a sentence. */
const VALIDATION_SAMPLES: [string, string][] = [
  ['E-mail: Enter a valid e-mail address', 'Champ «\u00a0E-mail\u00a0»\u00a0: saisissez une adresse e-mail valide'],
  ['Range › start date must be a real date YYYY-MM-DD', 'Le champ «\u00a0Range › start date\u00a0» doit être une date réelle au format AAAA-MM-JJ'],
  ['The request has fields it does not know: colour, size', 'La requête contient des champs inconnus\u00a0: colour, size'],
  ['Label must be at most 64 characters long', 'Le champ «\u00a0Label\u00a0» doit comporter au plus 64 caractères'],
  ['Size must be at most 100', 'Le champ «\u00a0Size\u00a0» doit être d’au plus 100'],
  ['Rates must have at least 1 item', 'Le champ «\u00a0Rates\u00a0» doit contenir au moins 1 élément'],
  ['Status must be one of: enabled, disabled', 'Le champ «\u00a0Status\u00a0» doit avoir l’une des valeurs suivantes\u00a0: enabled, disabled'],
  [
    'IP address: 203.0.113.7/24 is not the start of its range: did you mean 203.0.113.0/24?',
    'Champ «\u00a0IP address\u00a0»\u00a0: 203.0.113.7/24 n’est pas le début de sa plage\u00a0: vouliez-vous dire 203.0.113.0/24\u202f?',
  ],
  [
    'accountNumber: Enter a bank account number of 6 to 20 digits',
    'Champ «\u00a0accountNumber\u00a0»\u00a0: saisissez un numéro de compte bancaire de 6 à 20 chiffres',
  ],
  ['Crypto amount cryptoAmount or amount is required', 'Indiquez cryptoAmount ou amount'],
];

describe('the French catalogue of the contract’s messages', () => {
  it('has a French text for every message of the *_MESSAGES objects', () => {
    // every module is read: the objects of sign-in, rates, payments, wallets, webhooks... all take part
    expect(new Set(CONTRACT_MESSAGES.map(([path]) => path.split('.')[0])).size).toBeGreaterThanOrEqual(14);
    const missing = CONTRACT_MESSAGES.filter(([, message]) => fr(message) === message);
    expect(missing).toEqual([]);
  });

  it('has a French text for the messages of the schemas and checks', () => {
    expect(CHECK_MESSAGES.length).toBeGreaterThan(80);
    const missing = CHECK_MESSAGES.filter((message) => fr(message) === message);
    expect(missing).toEqual([]);
  });

  it.each([
    ['Enter an amount of at least KES 1,000.00', 'Saisissez un montant d’au moins 1,000.00 KES'],
    ['Invitation sent to ana@acme.test', 'Invitation envoyée à ana@acme.test'],
    ['ana@acme.test is now Treasury', 'ana@acme.test a désormais le rôle Trésorerie'],
    ['Only admin or treasury users can do this.', 'Seuls les utilisateurs Administrateur ou Trésorerie peuvent effectuer cette action.'],
    ["Côte d'Ivoire (XOF) already has a change waiting for review.", 'Côte d’Ivoire (XOF)\u00a0: une modification attend déjà d’être examinée.'],
    [
      'This address is registered on ERC20 and POLYGON and BASE: say which network',
      'Cette adresse est enregistrée sur ERC20, POLYGON et BASE\u00a0: précisez le réseau',
    ],
    ['No route for GET /api/v1/nowhere', 'Aucune route pour GET /api/v1/nowhere'],
  ])('translates a message built with a value, the value carried over: %j', (english, french) => {
    expect(fr(english)).toBe(french);
  });

  it('translates the server’s validation messages as it builds them, and leaves several problems joined as they are', () => {
    for (const [english, french] of VALIDATION_SAMPLES) expect(fr(english)).toBe(french);
    const joined = 'Name must not be empty; E-mail: Enter a valid e-mail address';
    expect(fr(joined)).toBe(joined);
  });

  it('carries every value of a template into its French, and has no empty or untranslated text', () => {
    for (const [english, french] of CATALOGUE) {
      expect(french.trim(), english).not.toBe('');
      expect(names(french), english).toEqual(names(english));
      if (!SAME_IN_BOTH.has(english)) expect(french, english).not.toBe(english);
    }
  });

  it('reaches every template with its own messages: none is hidden by one tried before it', () => {
    for (const [english, french] of TEMPLATES) {
      const value = (name: string) => `Zq${names(english).indexOf(name)}x`;
      const sample = english.replace(/\{\{(\w+)\}\}/g, (_, name: string) => value(name));
      expect(fr(sample), english).toBe(french.replace(/\{\{(\w+)\}\}/g, (_, name: string) => value(name)));
    }
    // only the first template, which keeps joined problems as they are, may see a "; "
    expect(TEMPLATES.filter(([english]) => english.includes('; ')).map(([english]) => english)).toEqual(['{{first}}; {{rest}}']);
  });

  it('translates what a composed validation message is made of', () => {
    // "{{field}} <predicate>" and "{{field}}: <sentence>": the predicate and the sentence have their own French too
    for (const [english] of TEMPLATES) {
      const part = /^\{\{field\}\}:? (.*)$/.exec(english)?.[1];
      if (part && !part.includes('{{')) expect(fr(part), english).not.toBe(part);
    }
  });

  it('writes French as it is typeset: curly apostrophes, no-break spaces before : ; ? ! and inside « »', () => {
    for (const [english, french] of CATALOGUE) {
      if (SAME_IN_BOTH.has(english)) continue;
      expect(french, english).not.toMatch(/'/);
      // a colon that ends a clause (not https:// nor the Authorization: header) follows a no-break space
      expect(french.replace('Authorization: Bearer', ''), english).not.toMatch(/[^\u00a0]:(\s|$)/);
      expect(french, english).not.toMatch(/[^\u202f][;?!](\s|$)/);
      expect(french, english).not.toMatch(/«[^\u00a0]|[^\u00a0]»/);
    }
  });
});
