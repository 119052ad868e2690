import { Alert } from '../../../components/ui/alert.tsx';
import { topicLabel } from '../../../lib/labels.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { Switch } from '../../../components/ui/switch.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { localizeMessage, translator, useT } from '../../../lib/i18n.ts';
import { useNotificationPreferences, useSaveNotificationPreference } from '../api/notification-preferences.ts';
import { settingsMessages } from '../messages.ts';
import { SETTINGS_SECTIONS, Section } from './section.tsx';

/**
 * Settings' Notifications: which of the notifications of the user's role also come by e-mail. The portal's bell shows
 * them all; each user chooses for themselves (on unless turned off).
 */
export function NotificationSection() {
  const t = useT(settingsMessages);
  const prefs = useNotificationPreferences();
  const save = useSaveNotificationPreference();
  const saving = save.isPending ? save.variables?.topic : undefined;
  return (
    <div id="notifications" className="scroll-mt-6">
      <Section {...SETTINGS_SECTIONS.notifications()}>
        {prefs.isPending ? (
          <p className="flex items-center gap-2 text-sm text-muted">
            <Spinner className="size-4" /> {t('notifications.loading')}
          </p>
        ) : prefs.isError ? (
          <Alert tone="danger">{t('notifications.failed')}</Alert>
        ) : (
          <ul className="divide-y divide-line rounded-lg border border-line" data-testid="notification-preferences">
            {prefs.data.email.map(({ topic, enabled }) => {
              const label = topicLabel(topic);
              return (
                <li key={topic} className="flex items-start justify-between gap-4 px-4 py-3">
                  <div className="min-w-0">
                    <p className="text-sm font-medium">{label}</p>
                    <p className="mt-0.5 text-sm text-muted">{t(`topics.${topic}.description`)}</p>
                  </div>
                  <div className="flex shrink-0 items-center gap-2 pt-0.5">
                    <span className="hidden text-xs text-muted sm:inline" aria-hidden="true">
                      {t('notifications.email')}
                    </span>
                    <Switch
                      checked={enabled}
                      label={t('notifications.switch', { topic: label })}
                      busy={saving === topic}
                      onCheckedChange={(next) =>
                        save.mutate(
                          { topic, enabled: next },
                          {
                            onSuccess: () => {
                              const said = translator(settingsMessages);
                              // English names the topic inside its sentence ("E-mails about low balance are on"), French after a colon
                              const name = said.language === 'en' ? label.toLowerCase() : label;
                              toast.show(said(next ? 'notifications.on' : 'notifications.off', { topic: name }));
                            },
                            onError: (err) => toast.show(err instanceof Error ? localizeMessage(err.message) : t('notifications.saveFailed')),
                          },
                        )
                      }
                    />
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </Section>
    </div>
  );
}
