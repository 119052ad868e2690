import { sql, type Kysely } from 'kysely';
import type { DB } from './schema.ts';

/** Fixed-window request counters in the database, so that every server instance counts the same calls. */
export function createRateLimitRepository(db: Kysely<DB>) {
  return {
    /**
     * Counts one hit (or `count` at once) in the key's current window (a new window when the last one is over); one
     * statement. The total of the window after it, and when the window ends.
     */
    async hit(key: string, windowMs: number, now: Date, count = 1) {
      const ends = new Date(now.getTime() + windowMs);
      const result = await sql<{ hits: number; window_ends: Date }>`
        insert into rate_limit_counters as c (key, hits, window_ends) values (${key}, ${count}::int, ${ends}::timestamptz)
        on conflict (key) do update set
          hits = case when c.window_ends <= ${now}::timestamptz then ${count}::int else c.hits + ${count}::int end,
          window_ends = case when c.window_ends <= ${now}::timestamptz then ${ends}::timestamptz else c.window_ends end
        returning hits, window_ends`.execute(db);
      return result.rows[0]!;
    },
    /** Forgets windows that ended before `before`. */
    deleteEnded: (before: Date) => db.deleteFrom('rate_limit_counters').where('window_ends', '<', before).execute(),
  };
}

export type RateLimitRepository = ReturnType<typeof createRateLimitRepository>;
