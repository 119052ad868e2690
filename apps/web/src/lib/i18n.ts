import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../locales/en.json';
import fr from '../locales/fr.json';

/**
 * English is the language; the French catalogue holds only a placeholder greeting (portal-core §1). Loaded with
 * the screens that translate, not with the first page (i18next is ~12 KB compressed); the API client sends the
 * page's language (`<html lang>`) as Accept-Language.
 */
export const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  resources: { en: { translation: en }, fr: { translation: fr } },
  lng: 'en',
  fallbackLng: 'en',
  interpolation: { escapeValue: false },
  initImmediate: false,
});
