import { Fragment, createElement, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { LANGUAGE_COOKIE, pickLanguage, translateMessage, type Language } from '@portal/contract/i18n';
import { groupDigits } from '@portal/contract/written';

/**
 * The portal's texts in the reader's language (English or French), without a library: i18next with its React
 * binding would add some 17 KB (gzip) to the sign-in page, which is near its budget.
 *
 * - A catalogue is one JSON file per part of the portal and language: `locales/en/<part>.json` and
 *   `locales/fr/<part>.json`, the same keys in both (a test holds them together). The English one comes with the
 *   code that uses it (`defineMessages`); the French ones come in one chunk, loaded when French is chosen.
 * - Keys are flat ("filters.status"); a plural has `_one` and `_other` forms, picked by `count`; `{{name}}` takes a
 *   value; `<b>text</b>` takes an element (`t.rich`).
 * - Texts are looked up when they are drawn, never when a module loads: a change of language draws every screen
 *   again (`useT`), and a module's constant would stay in the language of its first use.
 */
export type Catalogue = Readonly<Record<string, string>>;
export type { Language };

let current: Language = 'en';
let french: Readonly<Record<string, Catalogue>> | undefined;
const listeners = new Set<() => void>();

/** The language in force (the one texts, numbers and dates are drawn in). */
export const currentLanguage = (): Language => current;

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/** Calls `listener` after each change of language (the server's words cached in a query are then asked again). */
export const onLanguageChange = (listener: () => void): (() => void) => subscribe(listener);

/** The language in force, drawn again when it changes. */
export const useLanguage = (): Language => useSyncExternalStore(subscribe, currentLanguage, currentLanguage);

const STORE = 'portal-language';

/** The language this browser last used (the user's choice, kept for the next sign-in page), else the browser's. */
export function initialLanguage(): Language {
  try {
    const stored = pickLanguage(localStorage.getItem(STORE));
    if (stored) return stored;
  } catch {
    // storage refused: the browser's languages decide
  }
  return browserLanguage();
}

/** The first of the browser's languages the portal has, English when none. */
export const browserLanguage = (): Language =>
  pickLanguage(typeof navigator === 'undefined' ? [] : navigator.languages?.length ? navigator.languages : [navigator.language]) ?? 'en';

/**
 * Makes a language the one in force: loads the French catalogues first when needed (one chunk), then sets the
 * page's `lang` (which the API client sends as Accept-Language, so the server answers in it too) and draws every
 * translated text again. A chosen language (`remember`: the switch, the user's saved one) is kept for the next
 * visit; the browser's is not, so that a change of the browser's languages still counts.
 */
export async function setLanguage(language: Language, { remember = false }: { remember?: boolean } = {}): Promise<void> {
  if (language === 'fr' && !french) french = (await import('./french.ts')).FRENCH;
  if (remember) {
    try {
      localStorage.setItem(STORE, language);
    } catch {
      // storage refused: the language holds for this page
    }
    // the server's page (its first paint, before any script) reads the same choice
    document.cookie = `${LANGUAGE_COOKIE}=${language}; path=/; max-age=31536000; samesite=lax`;
  }
  if (typeof document !== 'undefined') document.documentElement.lang = language;
  if (language === current) return;
  current = language;
  for (const listener of listeners) listener();
}

/** Hands the French catalogues over as they are, with no chunk to load (the build's skeletons, drawn outside a page). */
export function provideFrench(catalogues: Readonly<Record<string, Catalogue>>): void {
  french = catalogues;
}

/** The texts of one part of the portal: its name and its English catalogue (the keys' source of truth). */
export interface Messages<E extends Catalogue> {
  readonly part: string;
  readonly en: E;
}
export const defineMessages = <E extends Catalogue>(part: string, en: E): Messages<E> => ({ part, en });

/** A catalogue's keys, a plural's forms counted once ("rows" for "rows_one" and "rows_other"). */
export type MessageKey<E extends Catalogue> = {
  [K in keyof E & string]: K extends `${infer Base}_${'one' | 'other'}` ? Base : K;
}[keyof E & string];
export type Values = Readonly<Record<string, string | number>>;

/** Which plural form a count takes: French puts 0 and 1 in the singular ("0 ligne"), English only 1. */
const pluralForm = (language: Language, count: number) => ((language === 'fr' ? Math.abs(count) < 2 : Math.abs(count) === 1) ? 'one' : 'other');

function lookup<E extends Catalogue>(messages: Messages<E>, key: string, values: Values | undefined, language: Language): string {
  let k = key;
  if (values && typeof values.count === 'number') {
    const form = `${key}_${pluralForm(language, values.count)}`;
    if (form in messages.en) k = form;
  }
  const text = (language === 'fr' ? french?.[messages.part]?.[k] : undefined) ?? messages.en[k] ?? key;
  if (!values) return text;
  return text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => {
    const value = values[name];
    if (value === undefined) return whole;
    return typeof value === 'number' && Number.isInteger(value) ? groupDigits(String(value), language) : String(value);
  });
}

/** Parts for `t.rich`: a value for `{{name}}`, or a function drawing the text between `<name>` and `</name>`. */
export type RichValues = Readonly<Record<string, ReactNode | ((text: string) => ReactNode)>>;

function rich(text: string, parts: RichValues): ReactNode {
  const out: ReactNode[] = [];
  const pattern = /<(\w+)>(.*?)<\/\1>|\{\{(\w+)\}\}/gs;
  let at = 0;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    if (m.index > at) out.push(text.slice(at, m.index));
    const part = parts[m[1] ?? m[3]!];
    const node = m[1] ? (typeof part === 'function' ? part(m[2]!) : m[2]) : typeof part === 'function' ? part('') : part;
    out.push(createElement(Fragment, { key: out.length }, node));
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out.length === 1 && typeof out[0] === 'string' ? out[0] : createElement(Fragment, null, ...out);
}

export interface Translate<E extends Catalogue> {
  (key: MessageKey<E>, values?: Values): string;
  /** A text with elements in it: `<b>…</b>` drawn by `parts.b`, `{{name}}` by `parts.name` (any node). */
  rich(key: MessageKey<E>, parts: RichValues): ReactNode;
  readonly language: Language;
}

/** The translator of a part in a given language (outside React, e.g. a toast's text or a download's name). */
export function translator<E extends Catalogue>(messages: Messages<E>, language: Language = current): Translate<E> {
  const strings = (values: RichValues) =>
    Object.fromEntries(Object.entries(values).filter((e): e is [string, string | number] => typeof e[1] === 'string' || typeof e[1] === 'number'));
  return Object.assign((key: MessageKey<E>, values?: Values) => lookup(messages, key, values, language), {
    rich: (key: MessageKey<E>, parts: RichValues) => rich(lookup(messages, key, strings(parts), language), parts),
    language,
  });
}

/** The translator of a part for a component: drawn again when the language changes. */
export function useT<E extends Catalogue>(messages: Messages<E>): Translate<E> {
  const language = useLanguage();
  return useMemo(() => translator(messages, language), [messages, language]);
}

/**
 * A message from the server or from a form's check (English, as the contract writes it) in the language in force:
 * the server answers in the page's language already; the checks the browser runs itself are translated here.
 */
export const localizeMessage = (message: string, language: Language = current): string =>
  language === 'fr' ? translateMessage(message, french?.['contract']) : message;

/**
 * The portal drawn in the language in force: a change of language draws it anew, so that every text, number and
 * date follows at once (those drawn by a formatter without `useT` too).
 */
export const LanguageScope = ({ children }: { children: ReactNode }) => createElement(Fragment, { key: useLanguage() }, children);

/** Forgets this browser's chosen language: the browser's own decides again. */
export function forgetLanguage(): void {
  try {
    localStorage.removeItem(STORE);
  } catch {
    // storage refused: nothing was kept
  }
  document.cookie = `${LANGUAGE_COOKIE}=; path=/; max-age=0; samesite=lax`;
}
