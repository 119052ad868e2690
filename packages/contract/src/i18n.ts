import { z } from 'zod';

/** The portal's languages: English (the default and the fallback of every text) and French. */
export const LANGUAGES = ['en', 'fr'] as const;
export const Language = z.enum(LANGUAGES);
export type Language = z.infer<typeof Language>;

/**
 * The cookie that carries a browser's chosen language to the server's page (its `lang` and skeleton words): set by
 * the portal beside its storage, never read for anything else.
 */
export const LANGUAGE_COOKIE = 'portal-language';

/** The names a language switch shows: each in its own language, so that a reader finds theirs. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', fr: 'Français' };

/**
 * The first of the portal's languages in a list of language tags, best first ("fr-CI", "en-GB"), or in an
 * Accept-Language header ("fr-CI,fr;q=0.9,en;q=0.8", read in its order of preference); undefined when none is one.
 */
export function pickLanguage(tags: string | readonly string[] | null | undefined): Language | undefined {
  const list =
    typeof tags === 'string'
      ? tags
          .split(',')
          .map((part, i) => {
            const [tag = '', ...params] = part.trim().split(';');
            const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
            return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), i };
          })
          .filter((t) => t.tag && t.q > 0)
          .sort((a, b) => b.q - a.q || a.i - b.i)
          .map((t) => t.tag)
      : (tags ?? []);
  for (const tag of list) {
    const base = tag.toLowerCase().split('-')[0];
    const found = LANGUAGES.find((l) => l === base);
    if (found) return found;
  }
  return undefined;
}

/** A catalogue of messages: the English text (a template where it holds `{{name}}`) to the translation. */
export type MessageCatalogue = Readonly<Record<string, string>>;

const templates = new WeakMap<MessageCatalogue, { pattern: RegExp; names: string[]; to: string }[]>();
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function compiled(catalogue: MessageCatalogue) {
  let list = templates.get(catalogue);
  if (!list) {
    list = Object.entries(catalogue)
      .filter(([from]) => from.includes('{{'))
      .map(([from, to]) => {
        const names: string[] = [];
        const source = from
          .split(/(\{\{\w+\}\})/)
          .map((part) => {
            const name = /^\{\{(\w+)\}\}$/.exec(part)?.[1];
            if (!name) return escape(part);
            names.push(name);
            return '(.+?)';
          })
          .join('');
        return { pattern: new RegExp(`^${source}$`, 's'), names, to };
      });
    templates.set(catalogue, list);
  }
  return list;
}

/**
 * A message (an error the server or a form gives, in English) in the catalogue's language: the text itself when
 * the catalogue has it, else the first template it matches with its parts carried over ("Amount must be at most
 * {{max}}" to "Le montant doit être d'au plus {{max}}"), else the English text unchanged. The server's messages
 * are written in English once; the translation is looked up where they are shown.
 */
export function translateMessage(message: string, catalogue: MessageCatalogue | undefined): string {
  if (!catalogue || !message) return message;
  const exact = catalogue[message];
  if (exact !== undefined) return exact;
  for (const { pattern, names, to } of compiled(catalogue)) {
    const m = pattern.exec(message);
    if (!m) continue;
    return names.reduce((text, name, i) => text.replaceAll(`{{${name}}}`, m[i + 1] ?? ''), to);
  }
  return message;
}
