import type { MessageCatalogue } from './i18n.ts';

/**
 * The contract's messages in French: each English message (as the server and the forms' checks write it) to its
 * translation. A message built with values is a template: `{{name}}` stands for any text and is carried over
 * (translateMessage in i18n.ts). The server answers in French when the request asks for it (Accept-Language);
 * the portal translates its own checks' messages with the same catalogue.
 */
export const FRENCH_MESSAGES: MessageCatalogue = {};
