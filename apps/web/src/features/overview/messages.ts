import en from '../../locales/en/overview.json';
import { defineMessages } from '../../lib/i18n.ts';

/** The Overview's texts: its controls, figures, charts and their tables. */
export const overviewMessages = defineMessages('overview', en);
