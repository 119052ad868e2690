import en from '../../locales/en/countries.json';
import { defineMessages } from '../../lib/i18n.ts';

/** The enabled-countries screen's texts: the table, its filters and the change dialog. */
export const countriesMessages = defineMessages('countries', en);
