import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorBody } from '@portal/contract/errors';
import { SendOtpRequest, SendOtpResponse, VerifyOtpParams, VerifyOtpResponse } from '@portal/contract/otp';
import { authOf } from '../../plugins/auth.ts';
import type { OtpService } from './otp.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody, 429: ErrorBody };

/** E-mailed one-time codes (portal-core §5, §7: PUT user/otp, GET user/otp/{otp}). */
export const otpRoutes: FastifyPluginAsyncZod<{ service: OtpService }> = async (app, { service }) => {
  app.addHook('onRequest', app.authenticate);

  app.put(
    '/user/otp',
    {
      schema: {
        operationId: 'sendOtp',
        tags: ['otp'],
        summary: 'E-mail the signed-in user a six-digit code (10 minutes, one use) for a change: its target is checked first',
        body: SendOtpRequest,
        response: { 200: SendOtpResponse, ...errors },
      },
    },
    async (request) => service.send(authOf(request), request.body),
  );

  app.get(
    '/user/otp/:otp',
    {
      schema: {
        operationId: 'verifyOtp',
        tags: ['otp'],
        summary: 'Whether the e-mailed code is right (a try is spent; the code stays usable)',
        params: VerifyOtpParams,
        response: { 200: VerifyOtpResponse, ...errors },
      },
    },
    async (request) => service.verify(authOf(request), request.params.otp),
  );
};
