import { sql, type Kysely } from 'kysely';
import { SECURITY_KIND_ACTIONS, type SecurityKind } from '@portal/contract/security';
import type { DB } from '../../db/schema.ts';

export type HistoryFilter = {
  /** only what this member did */
  actorUserId?: string;
  kind?: SecurityKind;
  /** from this instant, inclusive, to `until`, exclusive */
  since?: Date;
  until?: Date;
  /** after this row of the order (newest first): its time to the microsecond, and its id */
  before?: { at: string; id: string };
};

/** A prefix as a LIKE pattern: its own `_` and `%` are plain characters. */
const prefixPattern = (prefix: string) => `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The audit rows of one partner as the security history reads them. */
export function createSecurityRepository(db: Kysely<DB>) {
  return {
    /**
     * One page of a partner's audit rows, newest first, with the acting member's name as it is now; `limit + 1`
     * rows are read so that the caller knows whether a next page exists. The time comes back as text to the
     * microsecond, so that a page that ends between two rows of the same millisecond goes on where it stopped.
     */
    history(partnerId: string, filter: HistoryFilter, limit: number) {
      let q = db
        .selectFrom('audit_events as a')
        .leftJoin('users as u', (j) => j.onRef('u.partner_id', '=', 'a.partner_id').onRef('u.id', '=', 'a.actor_user_id'))
        .select([
          'a.id',
          'a.created_at',
          sql<string>`to_char(a.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as('at_text'),
          'a.actor_user_id',
          'a.actor',
          'a.action',
          'a.target',
          'a.details',
          'a.ip',
          'a.user_agent',
          'u.name as user_name',
          'u.email as user_email',
        ])
        .where('a.partner_id', '=', partnerId);
      if (filter.actorUserId) q = q.where('a.actor_user_id', '=', filter.actorUserId);
      if (filter.kind) {
        const { prefixes, actions } = SECURITY_KIND_ACTIONS[filter.kind];
        q = q.where((eb) =>
          eb.or([...prefixes.map((p) => eb('a.action', 'like', prefixPattern(p))), ...(actions.length ? [eb('a.action', 'in', [...actions])] : [])]),
        );
      }
      if (filter.since) q = q.where('a.created_at', '>=', filter.since);
      if (filter.until) q = q.where('a.created_at', '<', filter.until);
      if (filter.before) {
        const { at, id } = filter.before;
        q = q.where((eb) =>
          eb.or([
            eb('a.created_at', '<', sql<Date>`${at}::timestamptz`),
            eb.and([eb('a.created_at', '=', sql<Date>`${at}::timestamptz`), eb('a.id', '<', id)]),
          ]),
        );
      }
      return q
        .orderBy('a.created_at', 'desc')
        .orderBy('a.id', 'desc')
        .limit(limit + 1)
        .execute();
    },
  };
}

export type SecurityRepository = ReturnType<typeof createSecurityRepository>;
