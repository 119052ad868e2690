import type { Kysely, Transaction } from 'kysely';
import { groupThousands, normalise, toUnits } from '@portal/contract/decimal';
import {
  LOW_BALANCE_APPROACHING_PERCENT,
  NOTIFICATION_LIST_LIMIT,
  NOTIFICATION_TOPIC_INFO,
  topicsForRole,
  type MarkNotificationsRead,
  type NotificationList,
  type NotificationPreferences,
  type NotificationTopic,
  type UpdateNotificationPreferences,
} from '@portal/contract/notifications';
import type { DB } from '../../db/schema.ts';
import { auditChange } from '../../lib/audit.repository.ts';
import { badRequest } from '../../lib/errors.ts';
import type { LivePublisher } from '../../lib/live-bus.ts';
import type { MailQueue } from '../../lib/mail-relay.ts';
import type { Auth } from '../../lib/access.ts';
import {
  emailChoices,
  insertNotifications,
  listNotifications,
  lockLowBalance,
  lowBalanceLimit,
  markNotificationsRead,
  partnerName,
  recipientsOf,
  saveEmailChoices,
  setLowBalanceState,
  userNamed,
} from './notifications.repository.ts';

/** A change to tell: to whom, what, and the screen that shows it. */
export type NotificationEvent = {
  partnerId: string;
  topic: NotificationTopic;
  /** who is told: users of these roles, these users, less `exclude` (the one who acted, where they need no telling) */
  to: { roles?: readonly ('admin' | 'treasury' | 'view')[]; userIds?: readonly (string | null | undefined)[]; exclude?: readonly string[] };
  title: string;
  /** who did what, in a sentence or two: the time (UTC) is added */
  lines: string[];
  /** the portal path of the screen that shows it */
  link: string;
  at: Date;
};

/** A time as a mail writes it: "Nov 26, 2026, 14:03 UTC". */
export function utcText(at: Date): string {
  const text = new Intl.DateTimeFormat('en-US', {
    timeZone: 'UTC',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(at);
  return `${text} UTC`;
}

/** USD as people read it: "USD 1,250.00". */
export const usdText = (amount: string) => `USD ${groupThousands(normalise(amount, 2))}`;

export type NotifierDeps = { live: LivePublisher; mail: MailQueue; publicUrl: string };

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
    const when = utcText(event.at);
    // the bell shows the time beside it, in the reader's time zone; the mail says it in UTC
    const body = event.lines.join(' ');
    const ids = await insertNotifications(
      trx,
      recipients.map((r) => ({ partnerId: event.partnerId, userId: r.id, topic: event.topic, title: event.title, body, link: event.link, at: event.at })),
    );
    const mailed = recipients.filter((r) => !r.emailOff);
    if (mailed.length > 0) {
      const partner = await partnerName(trx, event.partnerId);
      const topic = NOTIFICATION_TOPIC_INFO[event.topic].label;
      await deps.mail.enqueue(
        trx,
        mailed.map((r) => ({
          to: r.email,
          subject: event.title,
          text: [
            `Hello ${r.name},`,
            '',
            ...event.lines,
            `When: ${when}`,
            '',
            `Open it in the portal: ${deps.publicUrl}${event.link}`,
            '',
            `You get this e-mail as a user of ${partner}. To stop e-mails about ${topic.toLowerCase()}, change your notification settings: ${deps.publicUrl}/settings#notifications`,
          ].join('\n'),
        })),
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

    /** "Ann Admin (ann@acme.test)", as a notification names who acted; "Someone" for a user that is not there. */
    async who(trx: Transaction<DB>, partnerId: string, userId: string | null): Promise<string> {
      const u = userId ? await userNamed(trx, partnerId, userId) : undefined;
      return u ? `${u.name} (${u.email})` : 'Someone';
    },

    /**
     * After a change of the USD balance or of the low balance limit, in its transaction: compares the balance with the
     * limit and tells admins and treasury when it crosses into "approaching" (within 20% above the limit), "below", or
     * back above the limit ("recovered"). The state is kept per account under a row lock, so each crossing is told once
     * however many changes land at once. No limit, no alert.
     */
    async checkLowBalance(trx: Transaction<DB>, partnerId: string, at: Date, currency = 'USD') {
      // no limit, no alert, and no lock: payments of a partner without a limit never queue here
      const { limit, name, alerted } = await lowBalanceLimit(trx, partnerId, currency);
      if (!limit && !alerted) return;
      const s = await lockLowBalance(trx, partnerId, currency);
      const state = lowBalanceState(s.balance, limit);
      if (state === s.state) return;
      await setLowBalanceState(trx, partnerId, currency, state, at);
      if (!limit) return;
      const told = lowBalanceNotice(s.state, state, name, usdText(s.balance), usdText(limit));
      if (!told) return;
      await notify(trx, {
        partnerId,
        topic: 'low-balance',
        to: { roles: ['admin', 'treasury'] },
        title: told.title,
        lines: [told.line],
        link: '/balance',
        at,
      });
    },
  };
}

export type Notifier = ReturnType<typeof createNotifier>;

/** What a crossing says: below; back above after below; nearing from clear. Approaching → clear says nothing. */
function lowBalanceNotice(from: string, to: 'ok' | 'approaching' | 'below', partner: string, balance: string, limit: string) {
  if (to === 'below') {
    return {
      title: `Your balance is below your low balance limit (${limit})`,
      line: `${partner}'s balance is ${balance}, below the low balance limit of ${limit}. Top up to keep paying out.`,
    };
  }
  if (from === 'below') {
    return {
      title: 'Your balance is above your low balance limit again',
      line: `${partner}'s balance is ${balance}, above the low balance limit of ${limit} again.`,
    };
  }
  if (to === 'approaching') {
    return {
      title: `Your balance is nearing your low balance limit (${limit})`,
      line: `${partner}'s balance is ${balance}, within ${LOW_BALANCE_APPROACHING_PERCENT}% of the low balance limit of ${limit}.`,
    };
  }
  return undefined;
}

/** Where a balance stands against a limit: below it, within 20% above it, or clear of it (no limit: clear). */
export function lowBalanceState(balance: string, limit: string | null): 'ok' | 'approaching' | 'below' {
  if (!limit) return 'ok';
  const b = toUnits(balance);
  const l = toUnits(limit);
  if (b < l) return 'below';
  // balance < limit × (100 + 20) / 100, in exact units
  return b * 100n < l * BigInt(100 + LOW_BALANCE_APPROACHING_PERCENT) ? 'approaching' : 'ok';
}

/** What the notifications routes do: the caller's own list, reading, and e-mail choices. */
export function createNotificationsService(deps: { db: Kysely<DB>; now: () => number }) {
  const { db } = deps;
  return {
    async list(auth: Auth): Promise<NotificationList> {
      const { items, unread } = await listNotifications(db, auth.partnerId, auth.userId, NOTIFICATION_LIST_LIMIT);
      return {
        unread,
        items: items.map((n) => ({
          id: n.id,
          topic: n.topic as NotificationTopic,
          title: n.title,
          body: n.body,
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
      if (other) throw badRequest(`Your role gets no ${NOTIFICATION_TOPIC_INFO[other.topic].label.toLowerCase()} notifications.`, 'ValidationFailed');
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
