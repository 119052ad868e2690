import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorBody } from '@portal/contract/errors';
import { SendOtpResponse, VerifyOtpParams, VerifyOtpResponse } from '@portal/contract/otp';
import { createRateLimitRepository } from '../../db/rate-limit.repository.ts';
import { authOf } from '../../plugins/auth.ts';
import { createOtpRepository } from './otp.repository.ts';
import { createOtpService } from './otp.service.ts';

/** The service over the app's database, mailer and clock: modules whose changes need a code make theirs with this. */
export const otpServiceOf = (app: FastifyInstance) =>
  createOtpService({ repo: createOtpRepository(app.database.db), rateLimits: createRateLimitRepository(app.database.db), mailer: app.mailer, now: app.clock });

const errors = { 400: ErrorBody, 401: ErrorBody, 429: ErrorBody };

/** E-mailed one-time codes (portal-core §5, §7: PUT user/otp, GET user/otp/{otp}). */
export const otpRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = otpServiceOf(app);
  app.addHook('onRequest', app.authenticate);

  app.put(
    '/user/otp',
    {
      schema: { operationId: 'sendOtp', tags: ['otp'], summary: 'E-mail the signed-in user a six-digit code (10 minutes, one use)', response: { 200: SendOtpResponse, ...errors } },
    },
    async (request) => service.send(authOf(request)),
  );

  app.get(
    '/user/otp/:otp',
    {
      schema: { operationId: 'verifyOtp', tags: ['otp'], summary: 'Whether the e-mailed code is right (a try is spent; the code stays usable)', params: VerifyOtpParams, response: { 200: VerifyOtpResponse, ...errors } },
    },
    async (request) => service.verify(authOf(request), request.params.otp),
  );
};
