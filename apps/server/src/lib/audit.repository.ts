import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/schema.ts';

export type AuditEvent = {
  partnerId: string;
  actorUserId?: string | null;
  /** who acted, as people read it: an e-mail, "operator" or "system" */
  actor: string;
  action: string;
  target?: string | null;
  details?: Record<string, unknown>;
  ip?: string | null;
};

/** Writes an audit event; pass the transaction of the change it records so that both land or neither does. */
export async function audit(db: Kysely<DB> | Transaction<DB>, event: AuditEvent): Promise<void> {
  await db
    .insertInto('audit_events')
    .values({
      partner_id: event.partnerId,
      actor_user_id: event.actorUserId ?? null,
      actor: event.actor,
      action: event.action,
      target: event.target ?? null,
      details: JSON.stringify(event.details ?? {}),
      ip: event.ip ?? null,
    })
    .execute();
}
