import type { FastifyRequest } from 'fastify';
import type { RequestCtx } from './audit.repository.ts';

/** Where a request comes from, for the audit trail and the session list: its address and browser (cut to 400 characters). */
export function requestCtx(request: FastifyRequest): RequestCtx {
  const userAgent = request.headers['user-agent'];
  return { ip: request.ip ?? null, userAgent: userAgent ? userAgent.slice(0, 400) : null };
}
