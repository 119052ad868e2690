import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MessageResponse, SetPasswordRequest } from '@portal/contract/auth';
import { InvitationLookupRequest, InvitationLookupResponse, TEAM_MESSAGES } from '@portal/contract/team';
import { requestCtx } from '../../lib/request-ctx.ts';
import { perMinute } from '../../plugins/rate-limit.ts';
import { documentRoutes } from '../../plugins/route-docs.ts';
import type { InvitationService } from './invitations.service.ts';

/**
 * The invitee's side of an invitation, before any sign-in: what a link invites to, and using it to choose a
 * password. Counted per address like the sign-in calls; the token is a random 256-bit value.
 */
export const invitationRoutes: FastifyPluginAsyncZod<{ invitations: InvitationService }> = async (app, { invitations }) => {
  documentRoutes(app, { tag: 'team', errors: [400, 409, 429] });
  const limited = perMinute(app.config.LOGIN_RATE_LIMIT, TEAM_MESSAGES.tooManyAttempts);

  app.post(
    '/users/invitation',
    {
      config: limited,
      schema: {
        operationId: 'invitation',
        summary: 'What an invitation link invites to: the address, the name, the role and the partner (no sign-in)',
        body: InvitationLookupRequest,
        response: { 200: InvitationLookupResponse },
      },
    },
    async (request) => invitations.lookup(request.body.token),
  );

  app.put(
    '/users/password',
    {
      config: limited,
      schema: {
        operationId: 'setPassword',
        summary: "An invited user's first password, with the invitation link's token as tempPassword: the link is used up",
        body: SetPasswordRequest,
        response: { 200: MessageResponse },
      },
    },
    async (request) => {
      await invitations.accept(request.body, requestCtx(request));
      return { message: 'Password set. Sign in with your new password.' };
    },
  );
};
