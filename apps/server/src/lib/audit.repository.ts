import type { Transaction } from 'kysely';
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
  /** the browser of the request (sign-ins and their failures: the security history shows it) */
  userAgent?: string | null;
};

/** Where a request comes from, as the audit trail and the sessions keep it. */
export type RequestCtx = { ip: string | null; userAgent?: string | null };

/**
 * Writes the audit event of a change inside the change's own transaction, so that both land or neither does. Only a
 * transaction is taken: a plain `Kysely` does not type-check (its `isTransaction` is `boolean`, a transaction's is
 * `true`), and one that slips through (a cast) is refused here before anything is written.
 */
export async function auditChange(trx: Transaction<DB>, event: AuditEvent): Promise<void> {
  if (!trx.isTransaction) throw new Error(`audit of ${event.action} outside a transaction: write it with the transaction of the change it records`);
  await trx
    .insertInto('audit_events')
    .values({
      partner_id: event.partnerId,
      actor_user_id: event.actorUserId ?? null,
      actor: event.actor,
      action: event.action,
      target: event.target ?? null,
      details: JSON.stringify(event.details ?? {}),
      ip: event.ip ?? null,
      user_agent: event.userAgent ?? null,
    })
    .execute();
}
