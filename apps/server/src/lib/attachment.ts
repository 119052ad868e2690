import type { FastifyReply } from 'fastify';

/** A reply the browser saves as a file rather than shows: its content type, and its name in content-disposition. */
export function asAttachment(reply: FastifyReply, type: string, filename: string): FastifyReply {
  return reply.type(type).header('content-disposition', `attachment; filename="${filename}"`);
}
