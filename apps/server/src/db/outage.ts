import type { FastifyBaseLogger } from 'fastify';

/** Seconds a client is asked to wait before trying again while the database is out. */
export const OUTAGE_RETRY_AFTER_SECONDS = 5;
export const OUTAGE_MESSAGE = 'The service is briefly unavailable. Please try again in a few seconds.';

// network failures reaching the database server
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNABORTED']);
// SQLSTATE: class 08 (connection exception, also PgBouncer's when it cannot reach the server), 57P01-57P03 (admin
// or crash shutdown, cannot connect now), 53300 (too many connections), 25006 (a write on a read-only server: a
// connection still on a primary demoted by a failover), and the bounds a deployment sets on the app's role: 57014
// (statement_timeout), 55P03 (lock_timeout), 25P03 (idle_in_transaction_session_timeout): the database too slow or
// held, for now
const OUTAGE_SQLSTATES = /^(08...|57P0[1-3]|53300|25006|57014|55P03|25P03)$/;
// what pg, pg-pool, PGlite and Kysely say when the connection or the database is gone
const OUTAGE_MESSAGES = [
  /^Connection terminated/, // pg: the server went away (unexpectedly, or during a connection timeout)
  /^timeout exceeded when trying to connect$/, // pg-pool: no connection within connectionTimeoutMillis
  /^Cannot use a pool after calling end on the pool$/, // pg-pool: closed
  /^Client has encountered a connection error and is not queryable$/, // pg
  /^Client was closed and is not queryable$/, // pg
  /^PGlite is clos(ed|ing)$/, // the embedded database was closed
  /^driver has already been destroyed$/, // Kysely: the database was closed
  /^database ".*" is not currently accepting connections$/, // 55000: ALLOW_CONNECTIONS false
];

/**
 * Whether an error means the database cannot be reached (refused, terminated, pool closed or exhausted, embedded
 * database closed), as opposed to a query that failed: the first is a 503 the client may retry, the second a 500.
 */
export function isDatabaseOutage(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 4) return false;
  const e = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || OUTAGE_SQLSTATES.test(e.code))) return true;
  if (typeof e.message === 'string' && OUTAGE_MESSAGES.some((m) => m.test(e.message as string))) return true;
  // a connection attempt to several addresses fails with an AggregateError; a wrapped error keeps its cause
  if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseOutage(inner, depth + 1))) return true;
  return isDatabaseOutage(e.cause, depth + 1);
}

/** What an error says in a word for a log line or a reason: its code (SQLSTATE, errno) or else its message. */
export function errorCause(err: unknown): string {
  const e = (err ?? {}) as { code?: unknown; message?: unknown };
  return typeof e.code === 'string' ? e.code : typeof e.message === 'string' ? e.message : 'no answer';
}

/**
 * Logs a background failure: an outage of the database as a one-line warning (it is expected during a blip, and
 * the loop tries again), anything else as an error with its stack.
 */
export function logFailure(log: FastifyBaseLogger, err: unknown, message: string, context: Record<string, unknown> = {}) {
  if (isDatabaseOutage(err)) {
    log.warn({ ...context, cause: errorCause(err) }, `${message} (database unavailable)`);
  } else {
    log.error({ ...context, err }, message);
  }
}
