import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import pg from 'pg';
import type { DB } from '../apps/server/src/db/schema.ts';
import { signAccessToken } from '../apps/server/src/lib/tokens.ts';

type BenchUser = { id: string; email: string; name: string };

/** An access token of a fresh session of a demo admin (the session row is what a sign-in would have written). */
export async function adminToken(db: Kysely<DB>, jwtSecret: Buffer, partnerId: string, user: BenchUser): Promise<string> {
  const sid = crypto.randomUUID();
  await db
    .insertInto('auth_sessions')
    .values({ partner_id: partnerId, id: sid, user_id: user.id, expires_at: new Date(Date.now() + 12 * 3600_000) })
    .execute();
  return signAccessToken(jwtSecret, { sub: user.id, pid: partnerId, role: 'admin', email: user.email, name: user.name, sid });
}

/** The request-forgery token of the access token's session and the signed cookie it belongs to, as a browser holds them. */
export async function csrfHeaders(apiBase: string, accessToken: string): Promise<Record<string, string>> {
  const res = await fetch(`${apiBase}/security/csrf`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
    body: '{}',
  });
  const { csrf } = (await res.json()) as { csrf: string };
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return { 'x-csrf-token': csrf, cookie };
}

/** The PostgreSQL server the benchmarks load (BENCH_DATABASE_URL; default the local server's portal_bench). */
export const benchServerUrl = new URL(process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/portal_bench');

/** Runs `fn` on a connection to the server's `postgres` database (to create or drop the benchmark's databases). */
export async function withAdminClient<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const u = new URL(benchServerUrl);
  u.pathname = '/postgres';
  const c = new pg.Client({ connectionString: u.toString() });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}
