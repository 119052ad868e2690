import en from '../locales/en/outcome.json';
import { defineMessages } from './i18n.ts';

/** What a money movement did and did not move, in words (money-outcome.ts). */
export const outcomeMessages = defineMessages('outcome', en);
