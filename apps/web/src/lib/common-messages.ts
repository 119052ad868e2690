import en from '../locales/en/common.json';
import { defineMessages } from './i18n.ts';

/** Texts the frame and shared components use (not one screen's). */
export const commonMessages = defineMessages('common', en);
