import { dayRangeInZone, dayStartInZone } from '@portal/contract/time-zone';
import { REVERSED_RANGE_MESSAGE } from '@portal/contract/transactions';
import {
  describeBrowser,
  securityActorLabel,
  securityKindOf,
  SECURITY_MESSAGES,
  type SecurityEvent,
  type SecurityHistoryQuery,
} from '@portal/contract/security';
import type { z } from 'zod';
import type { Auth } from '../../lib/access.ts';
import { can } from '@portal/contract/permissions';
import { badRequest, forbidden } from '../../lib/errors.ts';
import type { SecurityRepository } from './security.repository.ts';

type Query = z.output<typeof SecurityHistoryQuery>;
type Row = Awaited<ReturnType<SecurityRepository['history']>>[number];

const encodeCursor = (row: Row) => Buffer.from(`${row.at_text}|${row.id}`).toString('base64url');
function decodeCursor(cursor: string): { at: string; id: string } {
  const [at, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const valid =
    rest.length === 0 &&
    at !== undefined &&
    id !== undefined &&
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(at) &&
    !Number.isNaN(Date.parse(at)) &&
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id);
  if (!valid) throw badRequest(SECURITY_MESSAGES.badCursor, 'InvalidCursor');
  return { at, id };
}

function toEvent(row: Row): SecurityEvent {
  return {
    id: row.id,
    at: row.created_at.toISOString(),
    kind: securityKindOf(row.action),
    action: row.action,
    actor: {
      userId: row.actor_user_id,
      name: row.user_name,
      email: row.user_email,
      label: row.user_name ?? securityActorLabel(row.actor),
    },
    target: row.target,
    details: row.details ?? {},
    ip: row.ip,
    browser: describeBrowser(row.user_agent),
  };
}

/**
 * The security history: the audit rows of the caller's partner, never another's. Admins read the whole team's
 * (and the provider's changes to the account), filtered by person if they choose; everyone else reads only what they
 * did themselves, and asking for someone else's is refused. Nothing here changes a row.
 */
export function createSecurityService(deps: { repo: SecurityRepository }) {
  return {
    async history(auth: Auth, query: Query): Promise<{ items: SecurityEvent[]; nextCursor: string | null }> {
      const admin = can(auth.role, 'readTeamSecurity');
      if (!admin && query.person && query.person !== auth.userId) throw forbidden(SECURITY_MESSAGES.ownOnly);
      if (query.from && query.to && query.to < query.from) throw badRequest(REVERSED_RANGE_MESSAGE, 'ReversedRange');
      const zone = query.timeZone ?? 'UTC';
      const rows = await deps.repo.history(
        auth.partnerId,
        {
          actorUserId: admin ? query.person : auth.userId,
          kind: query.kind,
          since: query.from ? dayStartInZone(query.from, zone) : undefined,
          until: query.to ? dayRangeInZone(query.to, query.to, zone).to : undefined,
          before: query.cursor ? decodeCursor(query.cursor) : undefined,
        },
        query.limit,
      );
      const page = rows.slice(0, query.limit);
      return { items: page.map(toEvent), nextCursor: rows.length > query.limit ? encodeCursor(page.at(-1)!) : null };
    },
  };
}

export type SecurityService = ReturnType<typeof createSecurityService>;
