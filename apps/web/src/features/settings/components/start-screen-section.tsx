import { START_SCREENS, type StartScreen } from '@portal/contract/team';
import { toast } from '../../../components/ui/toast-store.ts';
import { localizeMessage, translator, useT } from '../../../lib/i18n.ts';
import { usePreferences } from '../../../lib/time-zone.tsx';
import { settingsMessages } from '../messages.ts';
import { SETTINGS_SECTIONS, Section, chip, choiceInput } from './section.tsx';

/**
 * Settings' first screen after sign-in: the transaction tables (the default) or the Overview, saved on the server for
 * the user (every role, a B2B partner's: the only partners with both screens) through the same preferences as the
 * time zone and the language.
 */
export function StartScreenSection() {
  const t = useT(settingsMessages);
  const { query, save } = usePreferences();
  // the choice shows at once, while it is saved
  const chosen = save.isPending && save.variables.startScreen !== undefined ? save.variables.startScreen : (query.data?.startScreen ?? 'transactions');
  const choose = (next: StartScreen) =>
    save.mutate(
      { startScreen: next },
      {
        onSuccess: (data) => {
          const tr = translator(settingsMessages);
          toast.show(tr('startScreen.saved', { screen: tr(`startScreen.${data.startScreen}`) }));
        },
        onError: (err) => toast.show(err instanceof Error ? localizeMessage(err.message) : t('startScreen.saveFailed')),
      },
    );
  return (
    <Section {...SETTINGS_SECTIONS.startScreen()}>
      <fieldset className="flex flex-wrap gap-2" disabled={save.isPending}>
        <legend className="sr-only">{t('startScreen.label')}</legend>
        {START_SCREENS.map((screen) => (
          <label key={screen} className={chip(chosen === screen)}>
            <input type="radio" name="start-screen" className={choiceInput} checked={chosen === screen} onChange={() => choose(screen)} />
            {t(`startScreen.${screen}`)}
          </label>
        ))}
      </fieldset>
    </Section>
  );
}
