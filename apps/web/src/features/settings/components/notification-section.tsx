import { NOTIFICATION_TOPIC_INFO } from '@portal/contract/notifications';
import { Alert } from '../../../components/ui/alert.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { Switch } from '../../../components/ui/switch.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { useNotificationPreferences, useSaveNotificationPreference } from '../api/notification-preferences.ts';
import { SETTINGS_SECTIONS, Section } from './section.tsx';

/**
 * Settings' Notifications: which of the notifications of the user's role also come by e-mail. The portal's bell shows
 * them all; each user chooses for themselves (on unless turned off).
 */
export function NotificationSection() {
  const prefs = useNotificationPreferences();
  const save = useSaveNotificationPreference();
  const saving = save.isPending ? save.variables?.topic : undefined;
  return (
    <div id="notifications" className="scroll-mt-6">
      <Section {...SETTINGS_SECTIONS.notifications}>
        {prefs.isPending ? (
          <p className="flex items-center gap-2 text-sm text-muted">
            <Spinner className="size-4" /> Loading your choices...
          </p>
        ) : prefs.isError ? (
          <Alert tone="danger">Your notification settings could not be loaded. Try again in a moment.</Alert>
        ) : prefs.data.email.length === 0 ? (
          <p className="text-sm text-muted">View-only users get no notifications: nothing they could act on changes on the account.</p>
        ) : (
          <ul className="divide-y divide-line rounded-lg border border-line" data-testid="notification-preferences">
            {prefs.data.email.map(({ topic, enabled }) => {
              const info = NOTIFICATION_TOPIC_INFO[topic];
              return (
                <li key={topic} className="flex items-start justify-between gap-4 px-4 py-3">
                  <div className="min-w-0">
                    <p className="text-sm font-medium">{info.label}</p>
                    <p className="mt-0.5 text-sm text-muted">{info.description}</p>
                  </div>
                  <div className="flex shrink-0 items-center gap-2 pt-0.5">
                    <span className="hidden text-xs text-muted sm:inline" aria-hidden="true">
                      E-mail
                    </span>
                    <Switch
                      checked={enabled}
                      label={`${info.label}: e-mail`}
                      busy={saving === topic}
                      onCheckedChange={(next) =>
                        save.mutate(
                          { topic, enabled: next },
                          {
                            onSuccess: () =>
                              toast.show(next ? `E-mails about ${info.label.toLowerCase()} are on` : `E-mails about ${info.label.toLowerCase()} are off`),
                            onError: (err) => toast.show(err instanceof Error ? err.message : 'Could not save your choice. Try again.'),
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
