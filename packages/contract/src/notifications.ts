import { z } from 'zod';
import type { Role } from './domain.ts';

/**
 * What the portal tells the people a change concerns, in the portal (the bell) and by e-mail. Each notification
 * belongs to a topic; a user chooses per topic whether it also comes by e-mail (on unless turned off). The roles of a
 * topic are the roles that can be among its recipients (the Settings screen shows a user only theirs).
 */
export const NOTIFICATION_TOPICS = ['withdrawals', 'wallets', 'countries', 'low-balance', 'developers', 'account'] as const;
export const NotificationTopic = z.enum(NOTIFICATION_TOPICS);
export type NotificationTopic = z.infer<typeof NotificationTopic>;

export const NOTIFICATION_TOPIC_INFO: Record<NotificationTopic, { label: string; description: string; roles: readonly Role[] }> = {
  withdrawals: {
    label: 'Withdrawals',
    description: 'A withdrawal is requested, and when it completes or fails. Sent to admins and to whoever asked for it.',
    roles: ['admin', 'treasury'],
  },
  wallets: {
    label: 'Wallet addresses',
    description: 'A new wallet address waits for your review, and the review and screening of an address you added.',
    roles: ['admin', 'treasury'],
  },
  countries: {
    label: 'Countries',
    description: 'Another admin asks to enable or disable a country, and the decision on a change you asked for.',
    roles: ['admin'],
  },
  'low-balance': {
    label: 'Low balance',
    description: 'The USD balance comes near the low balance limit (within 20%), falls below it, and recovers.',
    roles: ['admin', 'treasury'],
  },
  developers: {
    label: 'API keys, allowed IPs and webhooks',
    description: 'A new API key, a change to the allowed IP addresses, a webhook endpoint added, changed or deleted.',
    roles: ['admin'],
  },
  account: {
    label: 'Your account',
    description: 'An admin changes your role, and with it what you can see and do.',
    roles: ['admin', 'treasury', 'view'],
  },
};

/** The topics a role can receive, in the order Settings lists them. */
export const topicsForRole = (role: Role): NotificationTopic[] => NOTIFICATION_TOPICS.filter((t) => NOTIFICATION_TOPIC_INFO[t].roles.includes(role));

/** How far above the low balance limit "approaching" starts: within 20% of the limit (balance below 1.2 × limit). */
export const LOW_BALANCE_APPROACHING_PERCENT = 20;

/** The most notifications one read returns (newest first). */
export const NOTIFICATION_LIST_LIMIT = 50;

export const Notification = z.object({
  id: z.string(),
  topic: NotificationTopic,
  title: z.string(),
  /** who did what: the same words as the e-mail (which adds the time in UTC) */
  body: z.string(),
  /** the portal path of the screen that shows it */
  link: z.string(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
});
export type Notification = z.infer<typeof Notification>;

export const NotificationList = z.object({ items: z.array(Notification), unread: z.number().int() });
export type NotificationList = z.infer<typeof NotificationList>;

/** POST notifications/read: these (the caller's own; others are ignored), or every one. */
export const MarkNotificationsRead = z.union([
  z.object({ ids: z.array(z.uuid()).min(1).max(NOTIFICATION_LIST_LIMIT) }).strict(),
  z.object({ all: z.literal(true) }).strict(),
]);
export type MarkNotificationsRead = z.infer<typeof MarkNotificationsRead>;

/** The caller's e-mail choices: one line per topic of their role. */
export const NotificationPreferences = z.object({
  email: z.array(z.object({ topic: NotificationTopic, enabled: z.boolean() })),
});
export type NotificationPreferences = z.infer<typeof NotificationPreferences>;

export const UpdateNotificationPreferences = z
  .object({
    email: z
      .array(z.object({ topic: NotificationTopic, enabled: z.boolean() }).strict())
      .min(1)
      .max(NOTIFICATION_TOPICS.length)
      .refine((choices) => new Set(choices.map((c) => c.topic)).size === choices.length, 'Name each topic once'),
  })
  .strict();
export type UpdateNotificationPreferences = z.infer<typeof UpdateNotificationPreferences>;

export const NOTIFICATION_MESSAGES = {
  notForRole: (topic: NotificationTopic) => `Your role gets no ${NOTIFICATION_TOPIC_INFO[topic].label.toLowerCase()} notifications.`,
} as const;
