import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  InviteUserRequest,
  InviteUserResponse,
  TEAM_MESSAGES,
  TeamMemberResponse,
  TeamMessageResponse,
  TeamResponse,
  UpdateUserPreferencesRequest,
  UpdateUserRequest,
  UserPreferences,
  UserIdParams,
  UserIdRequest,
} from '@portal/contract/team';
import { requestCtx } from '../../lib/request-ctx.ts';
import { authOf } from '../../plugins/auth.ts';
import { perMinute } from '../../plugins/rate-limit.ts';
import { documentRoutes } from '../../plugins/route-docs.ts';
import type { TeamService } from './team.service.ts';

/** Calls that e-mail someone: at most this many per minute from one address, so a session cannot flood inboxes. */
export const TEAM_MAILS_PER_MINUTE = 30;

/**
 * The team (portal-core §7): GET partner/users (everyone), and the admin's changes POST users/add, POST users/update,
 * POST users/resend-invite, PUT users/resend-code/{userId}, PUT users/delete/{userId}, POST user/reset-password.
 */
export const teamRoutes: FastifyPluginAsyncZod<{ service: TeamService }> = async (app, { service }) => {
  app.addHook('onRequest', app.authenticate);
  documentRoutes(app, { tag: 'team', errors: [400, 401, 403, 404, 409, 429] });
  const ctx = requestCtx;
  const mails = perMinute(TEAM_MAILS_PER_MINUTE, TEAM_MESSAGES.tooManyMails);

  app.get(
    '/partner/users',
    {
      schema: {
        operationId: 'teamMembers',
        summary: "The partner's team: name, e-mail, role, status, last sign-in (every role)",
        response: { 200: TeamResponse },
      },
    },
    async (request) => ({ users: await service.list(authOf(request)) }),
  );

  app.post(
    '/users/add',
    {
      config: mails,
      schema: {
        operationId: 'inviteUser',
        summary: 'Invite a user (admin): a one-time link by e-mail, valid 7 days, to choose a password; the first sign-in then sets up an authenticator',
        body: InviteUserRequest,
        response: { 201: InviteUserResponse },
      },
    },
    async (request, reply) => reply.code(201).send(await service.invite(authOf(request), request.body, ctx(request))),
  );

  app.post(
    '/users/update',
    {
      schema: {
        operationId: 'updateUserRole',
        summary: "Change a user's role (admin); the last active admin cannot be demoted",
        body: UpdateUserRequest,
        response: { 200: TeamMemberResponse },
      },
    },
    async (request) => ({ user: await service.changeRole(authOf(request), request.body, ctx(request)) }),
  );

  app.post(
    '/users/resend-invite',
    {
      config: mails,
      schema: {
        operationId: 'resendInvite',
        summary: 'A new link for an invitation (admin), valid 7 days again; the earlier link stops working',
        body: UserIdRequest,
        response: { 200: TeamMessageResponse },
      },
    },
    async (request) => ({ message: TEAM_MESSAGES.inviteResent((await service.resendInvite(authOf(request), request.body.userId, ctx(request))).email) }),
  );

  app.put(
    '/users/resend-code/:userId',
    {
      config: mails,
      schema: {
        operationId: 'resendResetCode',
        summary: 'A new password-reset code for a user whose password an admin reset (admin); the earlier code stops working',
        params: UserIdParams,
        response: { 200: TeamMessageResponse },
      },
    },
    async (request) => ({ message: TEAM_MESSAGES.codeResent((await service.resendCode(authOf(request), request.params.userId, ctx(request))).email) }),
  );

  app.put(
    '/users/delete/:userId',
    {
      schema: {
        operationId: 'deleteUser',
        summary:
          'Remove a user (admin): kept as deleted for the audit trail, its sessions end at once; the last active admin cannot be removed. An invitation is withdrawn',
        params: UserIdParams,
        response: { 200: TeamMessageResponse },
      },
    },
    async (request) => service.remove(authOf(request), request.params.userId, ctx(request)),
  );

  app.post(
    '/user/reset-password',
    {
      config: mails,
      schema: {
        operationId: 'resetUserPassword',
        summary: "Reset a user's password (admin): its sessions end at once, the next sign-in answers PASSWORD_RESET_REQUESTED and a code is e-mailed",
        body: UserIdRequest,
        response: { 200: TeamMessageResponse },
      },
    },
    async (request) => ({ message: TEAM_MESSAGES.passwordReset((await service.resetPassword(authOf(request), request.body.userId, ctx(request))).email) }),
  );

  app.get(
    '/user/preferences',
    {
      schema: {
        operationId: 'userPreferences',
        summary: "The signed-in user's own preferences: the time zone times are shown in (null: UTC) and the language (null: the browser's)",
        response: { 200: UserPreferences },
      },
    },
    async (request) => service.preferences(authOf(request)),
  );

  app.put(
    '/user/preferences',
    {
      schema: {
        operationId: 'setUserPreferences',
        summary:
          "Set the signed-in user's own preferences (every role), each optional: an IANA time zone (null: UTC), a language, en or fr (null: the browser's)",
        body: UpdateUserPreferencesRequest,
        response: { 200: UserPreferences },
      },
    },
    async (request) => service.setPreferences(authOf(request), request.body, ctx(request)),
  );
};
