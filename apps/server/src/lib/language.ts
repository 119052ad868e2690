import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyRequest } from 'fastify';
import { Language, pickLanguage, translateMessage } from '@portal/contract/i18n';
import { FRENCH_MESSAGES } from '@portal/contract/messages-fr';

/**
 * The language of what the server writes for people. Messages are written in English once; a request that asks for
 * French (Accept-Language, which the portal sets to the page's language) reads them translated, and a request that
 * names none of the portal's languages (an API client) reads English. Codes and data never change.
 */

/** The request's language: the first of ours in its Accept-Language, else English. */
export function requestLanguage(request: FastifyRequest): Language {
  return pickLanguage(request.headers['accept-language']) ?? 'en';
}

/** An English message (an error, a confirmation) in `language`: the catalogue's translation, else the text itself. */
export function localize(language: Language, message: string): string {
  return language === 'fr' ? translateMessage(message, FRENCH_MESSAGES) : message;
}

// The language of the request being handled, for what it causes further down (an e-mail to someone who has not
// chosen a language is written in the language of the person who caused it) without passing it through every call.
const requestScope = new AsyncLocalStorage<Language>();

/** Runs `work`, and everything it starts, as caused by a request in `language` (plugins/language.ts). */
export function inRequestLanguage<T>(language: Language, work: () => T): T {
  return requestScope.run(language, work);
}

/**
 * The language an e-mail is written in: the recipient's saved one, else the language of the request that causes it
 * (there is none in background work), else English.
 */
export function mailLanguage(saved: string | null | undefined): Language {
  return Language.safeParse(saved).data ?? requestScope.getStore() ?? 'en';
}
