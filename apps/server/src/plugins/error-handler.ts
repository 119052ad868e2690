import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ErrorBody, ErrorCode } from '@portal/contract/errors';
import { AppError } from '../lib/errors.ts';

type Issue = { instancePath?: string; message?: string; params?: { issue?: { path?: PropertyKey[] } } };

function describeValidation(issues: Issue[], context: string | undefined): string {
  const parts = issues.map((issue) => {
    const zodPath = issue.params?.issue?.path;
    const field = zodPath && zodPath.length > 0 ? zodPath.join('.') : issue.instancePath?.replace(/^\//, '').replaceAll('/', '.');
    const where = field ? `${context ?? 'body'}.${field}` : (context ?? 'body');
    return `${where}: ${issue.message ?? 'is invalid'}`;
  });
  return parts.join('; ');
}

/** Maps Fastify's own error codes (body parsing, limits) to ours. */
const FASTIFY_CODES: Record<string, { status: number; code: ErrorCode; message?: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'MalformedJson', message: 'The request body is not valid JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'MalformedJson', message: 'The request body is empty but its content type is JSON' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'UnsupportedMediaType', message: 'Send the request body as application/json' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'BadRequest', message: 'The content length does not match the body' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'PayloadTooLarge', message: 'The request body is too large' },
  FST_ERR_CTP_INVALID_TYPE: { status: 400, code: 'BadRequest' },
};

/** One error shape for every failure: { code, message, requestId }. A 5xx never shows what went wrong inside. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    let status = 500;
    let body: Omit<ErrorBody, 'requestId'> = { code: 'InternalError', message: 'Something went wrong on our side. Please try again.' };

    if (error instanceof AppError) {
      status = error.statusCode;
      body = { code: error.code, message: error.message };
    } else if (hasZodFastifySchemaValidationErrors(error)) {
      status = 400;
      body = { code: 'ValidationFailed', message: describeValidation(error.validation as Issue[], error.validationContext) };
    } else if (error.validation) {
      status = 400;
      body = { code: 'ValidationFailed', message: describeValidation(error.validation as Issue[], error.validationContext) };
    } else if (error.code && FASTIFY_CODES[error.code]) {
      const mapped = FASTIFY_CODES[error.code]!;
      status = mapped.status;
      body = { code: mapped.code, message: mapped.message ?? error.message };
    } else if (error.statusCode === 429) {
      status = 429;
      body = { code: 'TooManyRequests', message: error.message };
    } else if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      status = error.statusCode;
      body = { code: 'BadRequest', message: error.message };
    }

    if (status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ code: body.code, status }, 'request refused');
    void reply.status(status).send({ ...body, requestId: request.id });
  });

  app.setNotFoundHandler((request, reply) => {
    void reply.status(404).send({
      code: 'NotFound',
      message: `No route for ${request.method} ${request.url.split('?')[0] ?? ''}`,
      requestId: request.id,
    } satisfies ErrorBody);
  });
}
