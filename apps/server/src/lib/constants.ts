/** Where the API lives (the spec's "portal API base"). */
export const API_PREFIX = '/api/v1';

/**
 * On the embedded database (one process serves it) a user's row and a session's state are reused between requests
 * for this long, and every change drops its entry at once through the cache bus (`user` by "partnerId:userId",
 * `session` by session id). On a PostgreSQL server several instances may serve, and a notification could arrive a
 * moment after the next request: there the session and its user are read on every request, in one query, so that a
 * logout, a deletion or a role change holds on every instance at once.
 */
export const AUTH_CACHE_MS = 5_000;
