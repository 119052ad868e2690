import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AUTH_MESSAGES } from '@portal/contract/auth';
import type { ErrorBody, ErrorCode } from '@portal/contract/errors';
import { AppError } from '../lib/errors.ts';
import { localize, requestLanguage } from '../lib/language.ts';
import { OUTAGE_MESSAGE, OUTAGE_RETRY_AFTER_SECONDS, isDatabaseOutage } from '../db/outage.ts';
import { describeValidation } from './validation-message.ts';

/** Maps Fastify's own error codes (body parsing, limits) to ours. */
const FASTIFY_CODES: Record<string, { status: number; code: ErrorCode; message?: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'MalformedJson', message: 'The request body is not valid JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'MalformedJson', message: 'The request body is empty but its content type is JSON' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'UnsupportedMediaType', message: 'Send the request body as application/json' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'BadRequest', message: 'The content length does not match the body' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'PayloadTooLarge', message: 'The request body is too large' },
  FST_ERR_CTP_INVALID_TYPE: { status: 400, code: 'BadRequest' },
  FST_CSRF_MISSING_SECRET: { status: 403, code: 'CsrfTokenInvalid', message: AUTH_MESSAGES.csrf },
  FST_CSRF_INVALID_TOKEN: { status: 403, code: 'CsrfTokenInvalid', message: AUTH_MESSAGES.csrf },
};

/** Errors of Fastify's router, raised before a route is found (a malformed or too long URL). */
const ROUTER_ERRORS: Record<string, { status: number; message: string }> = {
  FST_ERR_BAD_URL: { status: 400, message: 'The URL is not valid: check its percent-encoding' },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, message: 'A part of the URL is too long' },
};

/** Fastify's frameworkErrors option: the router's refusals in the error shape too. */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const known = ROUTER_ERRORS[error.code];
  if (!known) request.log.error({ err: error }, 'request failed before routing');
  else request.log.info({ code: error.code, status: known.status }, 'request refused');
  const language = requestLanguage(request);
  const body: ErrorBody = known
    ? { code: 'BadRequest', message: localize(language, known.message), requestId: request.id }
    : { code: 'InternalError', message: localize(language, 'Something went wrong on our side. Please try again.'), requestId: request.id };
  void reply
    .status(known?.status ?? 500)
    .header('x-request-id', request.id)
    .send(body);
}

/**
 * One error shape for every failure: { code, message, requestId }. A 5xx never shows what went wrong inside. The
 * message is in the request's language (Accept-Language; English when it names none of ours); the code never changes.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const language = requestLanguage(request);
    // a validation message is put together in the request's language; every other one is translated whole below
    let composed = false;
    let status = 500;
    let body: Omit<ErrorBody, 'requestId'> = { code: 'InternalError', message: 'Something went wrong on our side. Please try again.' };

    if (error instanceof AppError) {
      status = error.statusCode;
      body = { code: error.code, message: error.message, ...error.extra };
    } else if (isDatabaseOutage(error)) {
      status = 503;
      body = { code: 'ServiceUnavailable', message: OUTAGE_MESSAGE };
    } else if (hasZodFastifySchemaValidationErrors(error)) {
      status = 400;
      body = { code: 'ValidationFailed', message: describeValidation(error.validation, error.validationContext, language) };
      composed = true;
    } else if (error.validation) {
      status = 400;
      body = { code: 'ValidationFailed', message: describeValidation(error.validation, error.validationContext, language) };
      composed = true;
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

    // the service briefly unavailable (the database out, or a call past its deadline): say when to come back
    if (body.code === 'ServiceUnavailable') void reply.header('retry-after', String(OUTAGE_RETRY_AFTER_SECONDS));
    // slow down: when to come back, unless the refusal said it already (the rate limits do)
    if (status === 429 && !reply.hasHeader('retry-after')) void reply.header('retry-after', String(OUTAGE_RETRY_AFTER_SECONDS));
    if (status === 503) request.log.warn({ err: error }, 'database unavailable');
    else if (status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ code: body.code, status }, 'request refused');
    const message = composed ? body.message : localize(language, body.message);
    void reply.status(status).send({ ...body, message, requestId: request.id });
  });

  app.setNotFoundHandler((request, reply) => {
    void reply.status(404).send({
      code: 'NotFound',
      message: localize(requestLanguage(request), `No route for ${request.method} ${request.url.split('?')[0] ?? ''}`),
      requestId: request.id,
    } satisfies ErrorBody);
  });
}
