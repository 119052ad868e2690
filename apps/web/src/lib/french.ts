import { FRENCH_MESSAGES } from '@portal/contract/messages-fr';
import type { MessageCatalogue } from '@portal/contract/i18n';

/**
 * Every French catalogue in one chunk, loaded when French is chosen (lib/i18n.ts): the portal's parts by the name
 * of their file, and the contract's messages (the server's and the forms' checks) under `contract`.
 */
const files = import.meta.glob<MessageCatalogue>('../locales/fr/*.json', { eager: true, import: 'default' });

export const FRENCH: Readonly<Record<string, MessageCatalogue>> = {
  ...Object.fromEntries(Object.entries(files).map(([file, catalogue]) => [file.slice(file.lastIndexOf('/') + 1, -'.json'.length), catalogue])),
  contract: FRENCH_MESSAGES,
};
