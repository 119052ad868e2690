import en from '../locales/en/frame.json';
import { defineMessages } from './i18n.ts';

/** The signed-in frame's texts: the navigation, the partner's card, the user's menu, the inactivity warning, the screens' headers. */
export const frameMessages = defineMessages('frame', en);
