import { z } from 'zod';

/**
 * The rules every request text follows, shared by the server (validation) and the portal (forms): text that
 * PostgreSQL can store and a person could have typed, and dates that exist on a calendar.
 */

// C0 controls, DEL and the C1 controls; line breaks and tabs only where a field is multi-line
/* eslint-disable no-control-regex -- matching control characters is the point */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const CONTROL_BUT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
/* eslint-enable no-control-regex */
// a high surrogate not followed by a low one, or a low surrogate not preceded by a high one
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const CONTROL_CHARACTER_MESSAGE = 'must not contain control characters';
export const LONE_SURROGATE_MESSAGE = 'must be valid Unicode text (it holds half of a surrogate pair)';

export const hasControlCharacter = (text: string, options: { multiline?: boolean } = {}) => (options.multiline ? CONTROL_BUT_LINES : CONTROL).test(text);
export const hasLoneSurrogate = (text: string) => LONE_SURROGATE.test(text);

/**
 * A free-text request field: no control characters (NUL cannot be stored in a PostgreSQL text or jsonb value) and
 * no lone UTF-16 surrogates (not valid Unicode; refused by jsonb). Every free-text field of a request schema is
 * one of these.
 */
export function safeText(options: { max?: number; maxMessage?: string; min?: number; minMessage?: string; multiline?: boolean; trim?: boolean } = {}) {
  let text = z.string();
  if (options.trim) text = text.trim();
  if (options.min !== undefined) text = text.min(options.min, options.minMessage);
  if (options.max !== undefined) text = text.max(options.max, options.maxMessage);
  return text
    .refine((t) => !hasControlCharacter(t, options), { message: CONTROL_CHARACTER_MESSAGE, abort: true })
    .refine((t) => !hasLoneSurrogate(t), { message: LONE_SURROGATE_MESSAGE, abort: true });
}

/**
 * A wallet address as a request names it: trimmed, 1 to 128 characters, and no control characters or lone surrogates
 * (a NUL cannot even be looked up in PostgreSQL). Each refusal says `message`, the words of the field's form.
 */
export const addressText = (message: string) =>
  z
    .string()
    .trim()
    .min(1, message)
    .max(128, message)
    .refine((t) => !hasControlCharacter(t) && !hasLoneSurrogate(t), { message, abort: true });

export const CALENDAR_DATE_MESSAGE = 'must be a real date YYYY-MM-DD';

/** A day that exists: YYYY-MM-DD with a real month and day (leap years counted), years 0001 to 9999. */
export const CalendarDate = z.iso.date({ error: CALENDAR_DATE_MESSAGE }).refine((d) => d >= '0001-01-01', { message: CALENDAR_DATE_MESSAGE });

/** Whether a YYYY-MM-DD text names a real day (the rule of CalendarDate, for code that has only a string). */
export const isCalendarDate = (text: string) => CalendarDate.safeParse(text).success;
