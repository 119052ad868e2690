import en from '../../locales/en/coverage.json';
import { defineMessages } from '../../lib/i18n.ts';

/** The coverage screen's texts: the overview, a country's channels and networks, and their filters. */
export const coverageMessages = defineMessages('coverage', en);
