import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SendOtpRequest, SendOtpResponse, VerifyOtpParams, VerifyOtpResponse } from '@portal/contract/otp';
import { authOf } from '../../plugins/auth.ts';
import { documentRoutes } from '../../plugins/route-docs.ts';
import type { OtpService } from './otp.service.ts';

/** E-mailed one-time codes (portal-core §5, §7: PUT user/otp, GET user/otp/{otp}). */
export const otpRoutes: FastifyPluginAsyncZod<{ service: OtpService }> = async (app, { service }) => {
  app.addHook('onRequest', app.authenticate);
  documentRoutes(app, { tag: 'otp', errors: [400, 401, 403, 404, 409, 429] });

  app.put(
    '/user/otp',
    {
      schema: {
        operationId: 'sendOtp',
        summary: 'E-mail the signed-in user a six-digit code (10 minutes, one use) for a change: its target is checked first',
        body: SendOtpRequest,
        response: { 200: SendOtpResponse },
      },
    },
    async (request) => service.send(authOf(request), request.body),
  );

  app.get(
    '/user/otp/:otp',
    {
      schema: {
        operationId: 'verifyOtp',
        summary: 'Whether the e-mailed code is right (a try is spent; the code stays usable)',
        params: VerifyOtpParams,
        response: { 200: VerifyOtpResponse },
      },
    },
    async (request) => service.verify(authOf(request), request.params.otp),
  );
};
