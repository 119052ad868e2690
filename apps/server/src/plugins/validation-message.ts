import type { Language } from '@portal/contract/i18n';
import { localize } from '../lib/language.ts';

/**
 * Validation failures in words a person reads: "E-mail: Enter a valid e-mail address", "Range › start date must be
 * a real date YYYY-MM-DD", never the schema's path ("body.email: ..."). The portal shows the server's message as it
 * is (portal-core §8), so this is the text a partner sees when a form lets a bad value through.
 */

/** One issue as Fastify hands it over (ajv's shape, or fastify-type-provider-zod's with the zod issue in params). */
export type ValidationIssue = {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown> & { issue?: { path?: PropertyKey[] } };
};

/** Field names that do not read well split at their capitals. */
const FIELD_WORDS: Record<string, string> = {
  email: 'e-mail',
  username: 'e-mail',
  otp: 'code',
  userCode: 'code',
  confirmationCode: 'code',
  tempPassword: 'invitation link',
  idFilter: 'ID',
  apiKey: 'API key',
  ipAddress: 'IP address',
  url: 'URL',
  sequenceId: 'sequence ID',
  scrollId: 'scroll ID',
  userId: 'user',
  partnerId: 'partner',
  fiatWallet: 'fiat wallet',
  cryptoCurrency: 'coin',
  cryptoNetwork: 'network',
  lowBalanceLimit: 'low balance limit',
  endPayoutAfter: 'number of payouts',
  endPayoutDate: 'end date',
  endPayout: 'end of payouts',
  weeklyDays: 'days of the week',
  monthlyDate: 'day of the month',
  yearlyDate: 'day of the year',
  repeatFrequency: 'repeat every',
};
const ACRONYMS = new Set(['id', 'ip', 'url', 'api', 'otp', 'csv', 'usd', 'utc']);

/** A field's name in words: `startDate` -> "start date", `ipAddress` -> "IP address", an index -> "item 3". */
export function fieldWords(segment: string): string {
  if (/^\d+$/.test(segment)) return `item ${Number(segment) + 1}`;
  const known = FIELD_WORDS[segment];
  if (known) return known;
  return segment
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase()
    .split(' ')
    .map((w) => (ACRONYMS.has(w) ? w.toUpperCase() : w))
    .join(' ');
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The field of a path in words: ['range', 'startDate'] -> "Range › start date". */
export function fieldLabel(path: string[]): string {
  return capitalise(path.map(fieldWords).join(' › '));
}

const AN = /^[aeiou]/;
const article = (word: string) => `${AN.test(word) ? 'an' : 'a'} ${word}`;
const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  number: 'number',
  int: 'whole number',
  boolean: 'true or false',
  object: 'object',
  array: 'list',
  date: 'date',
};

/** zod's own messages ("Too small: expected string to have >=1 characters") said plainly; custom messages are kept. */
const ZOD_DEFAULT = /^(Invalid input|Too small:|Too big:|Unrecognized keys?|Invalid option:|Invalid string:|Invalid (email address|ISO date|UUID|URL)$)/i;

function plainMessage(issue: ValidationIssue): string {
  const message = issue.message ?? 'is not valid';
  if (!ZOD_DEFAULT.test(message)) return message;
  const p = issue.params ?? {};
  const num = (v: unknown) => (typeof v === 'number' || typeof v === 'bigint' ? String(v) : '');
  switch (issue.keyword) {
    case 'invalid_type': {
      if (/received undefined$/.test(message)) return 'is required';
      const expected = typeof p.expected === 'string' ? (TYPE_WORDS[p.expected] ?? p.expected) : 'another kind of value';
      return `must be ${article(expected)}`;
    }
    case 'too_small': {
      const min = num(p.minimum);
      if (p.origin === 'string') return min === '1' ? 'must not be empty' : `must be at least ${min} characters long`;
      if (p.origin === 'array' || p.origin === 'set') return `must have at least ${min} item${min === '1' ? '' : 's'}`;
      return p.inclusive === false ? `must be more than ${min}` : `must be at least ${min}`;
    }
    case 'too_big': {
      const max = num(p.maximum);
      if (p.origin === 'string') return `must be at most ${max} characters long`;
      if (p.origin === 'array' || p.origin === 'set') return `must have at most ${max} item${max === '1' ? '' : 's'}`;
      return p.inclusive === false ? `must be less than ${max}` : `must be at most ${max}`;
    }
    case 'unrecognized_keys': {
      const keys = Array.isArray(p.keys) ? p.keys.map(String) : [];
      return `has ${keys.length === 1 ? 'a field' : 'fields'} it does not know: ${keys.join(', ')}`;
    }
    case 'invalid_value': {
      const values = Array.isArray(p.values) ? p.values.map(String) : [];
      if (values.length === 0) return 'is not one of the values allowed';
      return values.length <= 12 ? `must be one of: ${values.join(', ')}` : 'is not one of the values allowed';
    }
    case 'invalid_format':
      if (p.format === 'email') return 'must be a valid e-mail address';
      if (p.format === 'uuid' || p.format === 'guid') return 'must be a valid ID';
      if (p.format === 'date') return 'must be a real date YYYY-MM-DD';
      return 'is not in the expected format';
    default:
      return 'is not valid';
  }
}

const PARTS: Record<string, string> = { body: 'The request', querystring: 'The query', query: 'The query', params: 'The address', headers: 'The headers' };

/** One issue in words: the field, then what is wrong with it. */
export function describeIssue(issue: ValidationIssue, context: string | undefined): string {
  const zodPath = issue.params?.issue?.path;
  const path = zodPath && zodPath.length > 0 ? zodPath.map(String) : (issue.instancePath ?? '').split('/').filter(Boolean);
  const message = plainMessage(issue);
  const predicate = /^[a-z]/.test(message);
  if (path.length === 0) return predicate ? `${PARTS[context ?? 'body'] ?? 'The request'} ${message}` : message;
  // "Start date must be ..." for a predicate; "E-mail: Enter a valid e-mail address" for a sentence of its own
  return predicate ? `${fieldLabel(path)} ${message}` : `${fieldLabel(path)}: ${message}`;
}

/**
 * Every issue, one after the other, in `language`: each issue is translated on its own (the catalogue holds the
 * contract's sentences and the forms above as templates); a field's own sentence ("E-mail: Enter a valid e-mail
 * address") keeps its label and has the sentence translated when the whole is not in the catalogue.
 */
export function describeValidation(issues: ValidationIssue[], context: string | undefined, language: Language = 'en'): string {
  const parts = [...new Set(issues.map((issue) => describeIssue(issue, context)))];
  if (language === 'en') return parts.join('; ');
  return parts.map((part) => translateIssue(part, language)).join('\u202f; ');
}

function translateIssue(text: string, language: Language): string {
  const whole = localize(language, text);
  if (whole !== text) return whole;
  const labelled = /^([^:]+): (.+)$/s.exec(text);
  if (!labelled) return text;
  const sentence = localize(language, labelled[2]!);
  return sentence === labelled[2] ? text : `${labelled[1]!}\u00a0: ${sentence}`;
}
