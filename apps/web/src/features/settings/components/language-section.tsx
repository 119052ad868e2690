import { LANGUAGES, LANGUAGE_NAMES, type Language } from '@portal/contract/i18n';
import { toast } from '../../../components/ui/toast-store.ts';
import { browserLanguage, forgetLanguage, localizeMessage, setLanguage, translator, useT } from '../../../lib/i18n.ts';
import { languageMessages } from '../../../lib/language-messages.ts';
import { usePreferences } from '../../../lib/time-zone.tsx';
import { SETTINGS_SECTIONS, Section, chip, choiceInput } from './section.tsx';

/**
 * Settings' Language: the dashboard's and the e-mails' language, saved on the server for the user (every role), so
 * that it follows them to another browser. "Your browser's language" saves none: each browser then shows its own.
 */
export function LanguageSection() {
  const t = useT(languageMessages);
  const { query, save } = usePreferences();
  // the choice shows at once, while it is saved
  const chosen = save.isPending && save.variables.language !== undefined ? save.variables.language : (query.data?.language ?? null);
  const browser = browserLanguage();
  const choose = (next: Language | null) =>
    save.mutate(
      { language: next },
      {
        onSuccess: (data) => {
          const language = data.language ?? browser;
          if (data.language === null) forgetLanguage();
          void setLanguage(language, { remember: data.language !== null }).then(() =>
            toast.show(translator(languageMessages, language)('saved', { language: LANGUAGE_NAMES[language] })),
          );
        },
        onError: (err) => toast.show(err instanceof Error ? localizeMessage(err.message) : t('saveFailed')),
      },
    );
  const options: { value: Language | null; label: string }[] = [
    { value: null, label: t('browser', { language: LANGUAGE_NAMES[browser] }) },
    ...LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] })),
  ];
  return (
    <Section {...SETTINGS_SECTIONS.language()}>
      <fieldset className="flex flex-wrap gap-2" disabled={save.isPending}>
        <legend className="sr-only">{t('label')}</legend>
        {options.map((o) => (
          <label key={o.value ?? 'browser'} className={chip(chosen === o.value)} lang={o.value ?? undefined}>
            <input type="radio" name="language" className={choiceInput} checked={chosen === o.value} onChange={() => choose(o.value)} />
            {o.label}
          </label>
        ))}
      </fieldset>
    </Section>
  );
}
