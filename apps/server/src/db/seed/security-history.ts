import type { Kysely } from 'kysely';
import type { DB } from '../schema.ts';

const CHROME_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const EDGE_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0';

type Who = { partnerId: string; id: string; email: string };
type DemoEvent = { who: Who; hoursAgo: number; action: string; details?: Record<string, unknown>; ip?: string; userAgent?: string };

/**
 * A few days of a team's security history, so that the security screen of a new demo reads like a living account:
 * sign-ins from several browsers (one failed), an invitation, a role change, a time zone chosen; and a second open
 * session of the first admin (a phone, seen a little while ago) beside the one the newcomer opens.
 */
export async function seedSecurityHistory(db: Kysely<DB>, team: { admin: Who; admin2: Who; treasury: Who; viewer: Who }, now = Date.now()) {
  const { admin, admin2, treasury, viewer } = team;
  const events: DemoEvent[] = [
    { who: admin, hoursAgo: 200, action: 'login.succeeded', details: { method: 'totp' }, ip: '102.89.34.11', userAgent: CHROME_MAC },
    { who: admin, hoursAgo: 199.5, action: 'user.invited', details: { email: 'invited@acme.test', role: 'view' } },
    { who: treasury, hoursAgo: 150, action: 'login.failed', details: { failures: 1 }, ip: '105.112.20.4', userAgent: SAFARI_IPHONE },
    { who: treasury, hoursAgo: 149.9, action: 'login.succeeded', details: { method: 'totp' }, ip: '105.112.20.4', userAgent: SAFARI_IPHONE },
    { who: admin2, hoursAgo: 120, action: 'login.succeeded', details: { method: 'totp' }, ip: '41.90.64.7', userAgent: FIREFOX_WINDOWS },
    { who: admin2, hoursAgo: 119.8, action: 'user.time_zone_changed', details: { from: 'UTC', to: 'Africa/Accra' } },
    { who: admin, hoursAgo: 72, action: 'login.succeeded', details: { method: 'totp' }, ip: '102.89.34.11', userAgent: CHROME_MAC },
    { who: admin, hoursAgo: 71.7, action: 'user.role_changed', details: { email: viewer.email, from: 'treasury', to: 'view' } },
    { who: viewer, hoursAgo: 48, action: 'login.succeeded', details: { method: 'totp' }, ip: '197.210.53.90', userAgent: EDGE_WINDOWS },
    { who: viewer, hoursAgo: 47, action: 'logout', ip: '197.210.53.90', userAgent: EDGE_WINDOWS },
    { who: admin, hoursAgo: 2, action: 'login.succeeded', details: { method: 'totp' }, ip: '102.89.45.120', userAgent: SAFARI_IPHONE },
  ];
  const at = (hoursAgo: number) => new Date(now - hoursAgo * 3600_000);
  await db
    .insertInto('audit_events')
    .values(
      events.map((e) => ({
        partner_id: e.who.partnerId,
        actor_user_id: e.who.id,
        actor: e.who.email,
        action: e.action,
        details: JSON.stringify(e.details ?? {}),
        ip: e.ip ?? null,
        user_agent: e.userAgent ?? null,
        created_at: at(e.hoursAgo),
      })),
    )
    .execute();
  await db
    .insertInto('auth_sessions')
    .values({
      partner_id: admin.partnerId,
      id: crypto.randomUUID(),
      user_id: admin.id,
      created_at: at(2),
      last_seen_at: at(0.3),
      expires_at: at(-10),
      ip: '102.89.45.120',
      user_agent: SAFARI_IPHONE,
    })
    .execute();
}
