import type { Kysely, Transaction } from 'kysely';
import { LANGUAGES, type Language } from '@portal/contract/i18n';
import type { Role } from '@portal/contract/domain';
import {
  NOTIFICATION_LIST_LIMIT,
  topicsForRole,
  type MarkNotificationsRead,
  type NotificationList,
  type NotificationPreferences,
  type NotificationTopic,
  type UpdateNotificationPreferences,
  NOTIFICATION_MESSAGES,
} from '@portal/contract/notifications';
import type { DB } from '../../db/schema.ts';
import { auditChange } from '../../lib/audit.repository.ts';
import { badRequest } from '../../lib/errors.ts';
import { mailLanguage } from '../../lib/language.ts';
import type { LivePublisher } from '../../lib/live-bus.ts';
import type { MailQueue } from '../../lib/mail-relay.ts';
import { MAIL_TEXTS, utcDateTime, type MailTexts, type Notice, type Person } from '../../lib/mail-texts/index.ts';
import type { Auth } from '../../lib/access.ts';
import type { Ledger } from '../ledger/index.ts';
import {
  emailChoices,
  insertNotifications,
  listNotifications,
  markNotificationsRead,
  partnerName,
  recipientsOf,
  saveEmailChoices,
  userNamed,
  deleteNotificationsBefore,
  type NotificationTexts,
} from './notifications.repository.ts';

/** A change to tell: to whom, what, and the screen that shows it. */
export type NotificationEvent = {
  partnerId: string;
  topic: NotificationTopic;
  /** who is told: users of these roles, these users, less `exclude` (the one who acted, where they need no telling) */
  to: { roles?: readonly Role[]; userIds?: readonly (string | null | undefined)[]; exclude?: readonly string[] };
  /**
   * What it says, in a language's words (lib/mail-texts): a title, and who did what in a sentence or two (the time,
   * in UTC, is added to the e-mail). Written in every language: the bell shows its reader's.
   */
  notice: (texts: MailTexts) => Notice;
  /** the portal path of the screen that shows it */
  link: string;
  at: Date;
};

/** A time as an English mail writes it: "Nov 26, 2026, 14:03 UTC". */
export const utcText = (at: Date): string => utcDateTime(at, 'en');

export type NotifierDeps = {
  live: LivePublisher;
  mail: MailQueue;
  publicUrl: string;
  /** where each account's low balance state is kept (the ledger module's port) */
  ledger: Pick<Ledger, 'lowBalance'>;
};

/**
 * Tells the people a change concerns, inside the change's transaction: one notification per recipient (the bell),
 * an e-mail to each who did not turn the topic's e-mail off (written to the outbox, sent once the change commits), and
 * one live event so that open portals refetch their list. Nothing is told for a change that rolls back.
 */
export function createNotifier(deps: NotifierDeps) {
  async function notify(trx: Transaction<DB>, event: NotificationEvent): Promise<number> {
    const who = {
      roles: event.to.roles ?? [],
      userIds: (event.to.userIds ?? []).filter((id): id is string => typeof id === 'string'),
      exclude: event.to.exclude ?? [],
    };
    const recipients = await recipientsOf(trx, event.partnerId, event.topic, who);
    if (recipients.length === 0) return 0;
    const notices = Object.fromEntries(LANGUAGES.map((language) => [language, event.notice(MAIL_TEXTS[language])])) as Record<Language, Notice>;
    // the bell shows the time beside it, in the reader's time zone; the mail says it in UTC. The row keeps the
    // English words in title and body, and the other languages' beside them for the readers of those.
    const texts: NotificationTexts = Object.fromEntries(
      LANGUAGES.filter((language) => language !== 'en').map((language) => [
        language,
        { title: notices[language].title, body: notices[language].lines.join(' ') },
      ]),
    );
    const ids = await insertNotifications(
      trx,
      recipients.map((r) => ({
        partnerId: event.partnerId,
        userId: r.id,
        topic: event.topic,
        title: notices.en.title,
        body: notices.en.lines.join(' '),
        texts,
        link: event.link,
        at: event.at,
      })),
    );
    const mailed = recipients.filter((r) => !r.emailOff);
    if (mailed.length > 0) {
      const partner = await partnerName(trx, event.partnerId);
      await deps.mail.enqueue(
        trx,
        mailed.map((r) => {
          const language = mailLanguage(r.language);
          return {
            to: r.email,
            ...MAIL_TEXTS[language].notificationMail({
              name: r.name,
              notice: notices[language],
              at: event.at,
              link: `${deps.publicUrl}${event.link}`,
              partner,
              topic: event.topic,
              settingsUrl: `${deps.publicUrl}/settings#notifications`,
            }),
          };
        }),
      );
    }
    await deps.live.publish(trx, {
      partnerId: event.partnerId,
      table: 'notifications',
      kind: event.topic,
      id: ids[0]!,
      status: 'unread',
      at: event.at.toISOString(),
    });
    return recipients.length;
  }

  return {
    notify,

    /** Who acted, as a notification names them ("Ann Admin (ann@acme.test)"); undefined for a user that is not there. */
    async who(trx: Transaction<DB>, partnerId: string, userId: string | null): Promise<Person> {
      const u = userId ? await userNamed(trx, partnerId, userId) : undefined;
      return u ? { name: u.name, email: u.email } : undefined;
    },

    /**
     * After a change of the USD balance or of the low balance limit, in its transaction: compares the balance with the
     * limit and tells admins and treasury when it crosses into "approaching" (within 20% above the limit), "below", or
     * back above the limit ("recovered"). The state is kept per account under a row lock, so each crossing is told once
     * however many changes land at once. No limit, no alert.
     */
    async checkLowBalance(trx: Transaction<DB>, partnerId: string, at: Date, currency = 'USD') {
      const crossing = await deps.ledger.lowBalance(trx, partnerId, currency, at);
      const told = crossing && lowBalanceNotice(crossing.from, crossing.to);
      if (!told) return;
      const facts = { partner: crossing.partnerName, balance: crossing.balance, limit: crossing.limit };
      await notify(trx, {
        partnerId,
        topic: 'low-balance',
        to: { roles: ['admin', 'treasury'] },
        notice: (t) => t.notices[told](facts),
        link: '/balance',
        at,
      });
    },
  };
}

export type Notifier = ReturnType<typeof createNotifier>;

/** What a crossing says: below; back above after below; nearing from clear. Approaching → clear says nothing. */
function lowBalanceNotice(from: string, to: 'ok' | 'approaching' | 'below') {
  if (to === 'below') return 'lowBalanceBelow' as const;
  if (from === 'below') return 'lowBalanceRecovered' as const;
  if (to === 'approaching') return 'lowBalanceApproaching' as const;
  return undefined;
}

/** What the notifications routes do: the caller's own list, reading, and e-mail choices. */
export function createNotificationsService(deps: { db: Kysely<DB>; now: () => number }) {
  const { db } = deps;
  return {
    /** Forgets the notifications made before `before` (the hourly cleanup; the audit log keeps the history): how many. */
    forgetBefore: (before: Date): Promise<number> => deleteNotificationsBefore(db, before),

    /** The caller's newest notifications, in `language` where they were written in it (older ones are English). */
    async list(auth: Auth, language: Language): Promise<NotificationList> {
      const { items, unread } = await listNotifications(db, auth.partnerId, auth.userId, NOTIFICATION_LIST_LIMIT);
      return {
        unread,
        items: items.map((n) => ({
          id: n.id,
          topic: n.topic as NotificationTopic,
          ...((language === 'en' ? undefined : n.texts?.[language]) ?? { title: n.title, body: n.body }),
          link: n.link,
          createdAt: n.created_at.toISOString(),
          readAt: n.read_at ? n.read_at.toISOString() : null,
        })),
      };
    },

    async markRead(auth: Auth, body: MarkNotificationsRead): Promise<{ updated: number }> {
      const updated = await markNotificationsRead(db, auth.partnerId, auth.userId, 'all' in body ? 'all' : body.ids, new Date(deps.now()));
      return { updated };
    },

    async preferences(auth: Auth): Promise<NotificationPreferences> {
      const choices = new Map((await emailChoices(db, auth.partnerId, auth.userId)).map((c) => [c.topic, c.email]));
      return { email: topicsForRole(auth.role).map((topic) => ({ topic, enabled: choices.get(topic) ?? true })) };
    },

    async savePreferences(auth: Auth, body: UpdateNotificationPreferences): Promise<NotificationPreferences> {
      const mine = topicsForRole(auth.role);
      const other = body.email.find((c) => !mine.includes(c.topic));
      if (other) throw badRequest(NOTIFICATION_MESSAGES.notForRole(other.topic), 'ValidationFailed');
      const at = new Date(deps.now());
      await db.transaction().execute(async (trx) => {
        await saveEmailChoices(trx, auth.partnerId, auth.userId, body.email, at);
        await auditChange(trx, {
          partnerId: auth.partnerId,
          actorUserId: auth.userId,
          actor: auth.email,
          action: 'user.notification_preferences_changed',
          target: auth.userId,
          details: { email: Object.fromEntries(body.email.map((c) => [c.topic, c.enabled])) },
        });
      });
      return this.preferences(auth);
    },
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
