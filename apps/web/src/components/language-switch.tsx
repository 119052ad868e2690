import { LANGUAGES, LANGUAGE_NAMES, type Language } from '@portal/contract/i18n';
import { languageMessages } from '../lib/language-messages.ts';
import { setLanguage, useLanguage, useT } from '../lib/i18n.ts';

/**
 * The language of the pages before sign-in: a choice kept in this browser (the user's saved language takes over once
 * they sign in). Each language is named in its own words.
 */
export function LanguageSwitch() {
  const t = useT(languageMessages);
  const language = useLanguage();
  return (
    <label className="inline-flex items-center gap-2">
      <span>{t('label')}</span>
      <select
        className="rounded-md border border-line bg-white px-2 py-1 text-xs text-ink"
        value={language}
        onChange={(e) => void setLanguage(e.target.value as Language, { remember: true })}
      >
        {LANGUAGES.map((l) => (
          <option key={l} value={l} lang={l}>
            {LANGUAGE_NAMES[l]}
          </option>
        ))}
      </select>
    </label>
  );
}
