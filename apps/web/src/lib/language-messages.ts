import en from '../locales/en/language.json';
import { defineMessages } from './i18n.ts';

/** The language switch's texts (the sign-in pages' and Settings'). */
export const languageMessages = defineMessages('language', en);
