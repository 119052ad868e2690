import en from '../../locales/en/banners.json';
import { defineMessages } from '../../lib/i18n.ts';

/** The texts of the banners above every page (low balance, country changes) and of the country review dialog. */
export const bannersMessages = defineMessages('banners', en);
