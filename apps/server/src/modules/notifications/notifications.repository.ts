import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.ts';

/** Every statement on the notifications and their e-mail choices (the low balance alert's state is the ledger's). */

type Executor = Kysely<DB> | Transaction<DB>;

/** language: the one the user saved (null: not chosen) */
export type Recipient = { id: string; email: string; name: string; role: string; language: string | null; emailOff: boolean };
/** A notification's title and text in the languages other than English (English is in its own columns), by language. */
export type NotificationTexts = Partial<Record<string, { title: string; body: string }>>;

/**
 * The active users of the partner who are among `roles` or `userIds`, less `exclude`, with whether they turned this
 * topic's e-mail off. Users are read in the change's transaction: one removed meanwhile is not told.
 */
export async function recipientsOf(
  trx: Transaction<DB>,
  partnerId: string,
  topic: string,
  who: { roles: readonly string[]; userIds: readonly string[]; exclude: readonly string[] },
): Promise<Recipient[]> {
  if (who.roles.length === 0 && who.userIds.length === 0) return [];
  const rows = await trx
    .selectFrom('users as u')
    .leftJoin('notification_preferences as p', (j) => j.onRef('p.partner_id', '=', 'u.partner_id').onRef('p.user_id', '=', 'u.id').on('p.topic', '=', topic))
    .select(['u.id', 'u.email', 'u.name', 'u.role', 'u.language', 'p.email as email_on'])
    .where('u.partner_id', '=', partnerId)
    .where('u.status', '=', 'active')
    .where((eb) => {
      const any = [];
      if (who.roles.length > 0) any.push(eb('u.role', 'in', [...who.roles]));
      if (who.userIds.length > 0) any.push(eb('u.id', 'in', [...who.userIds]));
      return eb.or(any);
    })
    .$if(who.exclude.length > 0, (q) => q.where('u.id', 'not in', [...who.exclude]))
    .orderBy('u.email')
    .execute();
  return rows.map((r) => ({ id: r.id, email: r.email, name: r.name, role: r.role, language: r.language, emailOff: r.email_on === false }));
}

export async function insertNotifications(
  trx: Transaction<DB>,
  rows: { partnerId: string; userId: string; topic: string; title: string; body: string; texts: NotificationTexts; link: string; at: Date }[],
): Promise<string[]> {
  if (rows.length === 0) return [];
  const inserted = await trx
    .insertInto('notifications')
    .values(
      rows.map((r) => ({
        partner_id: r.partnerId,
        user_id: r.userId,
        topic: r.topic,
        title: r.title,
        body: r.body,
        texts: JSON.stringify(r.texts),
        link: r.link,
        created_at: r.at,
        read_at: null,
      })),
    )
    .returning('id')
    .execute();
  return inserted.map((r) => r.id);
}

/** The user's newest notifications and how many are unread, in one snapshot. */
export async function listNotifications(db: Executor, partnerId: string, userId: string, limit: number) {
  const items = await db
    .selectFrom('notifications')
    .select(['id', 'topic', 'title', 'body', 'texts', 'link', 'created_at', 'read_at'])
    .where('partner_id', '=', partnerId)
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  const count = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<string>().as('unread'))
    .where('partner_id', '=', partnerId)
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  return { items, unread: Number(count.unread) };
}

/** Marks the user's own notifications read (these ids, or all); another user's ids change nothing. */
export async function markNotificationsRead(db: Executor, partnerId: string, userId: string, ids: string[] | 'all', at: Date): Promise<number> {
  const result = await db
    .updateTable('notifications')
    .set({ read_at: at })
    .where('partner_id', '=', partnerId)
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .$if(ids !== 'all', (q) => q.where('id', 'in', ids as string[]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The topics whose e-mail the user turned off or on (no row: on). */
export function emailChoices(db: Executor, partnerId: string, userId: string) {
  return db.selectFrom('notification_preferences').select(['topic', 'email']).where('partner_id', '=', partnerId).where('user_id', '=', userId).execute();
}

export async function saveEmailChoices(trx: Transaction<DB>, partnerId: string, userId: string, choices: { topic: string; enabled: boolean }[], at: Date) {
  await trx
    .insertInto('notification_preferences')
    .values(choices.map((c) => ({ partner_id: partnerId, user_id: userId, topic: c.topic, email: c.enabled, updated_at: at })))
    .onConflict((oc) =>
      oc.columns(['partner_id', 'user_id', 'topic']).doUpdateSet((eb) => ({ email: eb.ref('excluded.email'), updated_at: eb.ref('excluded.updated_at') })),
    )
    .execute();
}

/** The partner's name, as a mail says it. */
export async function partnerName(trx: Transaction<DB>, partnerId: string): Promise<string> {
  const row = await trx.selectFrom('partners').select('name').where('id', '=', partnerId).executeTakeFirst();
  return row?.name ?? 'your account';
}

/** Notifications older than `before` (the cleanup job). */
export async function deleteNotificationsBefore(db: Executor, before: Date): Promise<number> {
  const result = await db.deleteFrom('notifications').where('created_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** A user's name and e-mail, as a notification names who acted (a removed user keeps their name). */
export function userNamed(trx: Transaction<DB>, partnerId: string, userId: string) {
  return trx.selectFrom('users').select(['name', 'email']).where('partner_id', '=', partnerId).where('id', '=', userId).executeTakeFirst();
}
