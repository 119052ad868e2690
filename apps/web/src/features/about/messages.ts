import en from '../../locales/en/about.json';
import { defineMessages } from '../../lib/i18n.ts';

/** The About screen's texts. */
export const aboutMessages = defineMessages('about', en);
