import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MarkNotificationsRead, NotificationList, NotificationPreferences, UpdateNotificationPreferences } from '@portal/contract/notifications';
import { requestLanguage } from '../../lib/language.ts';
import { authOf } from '../../plugins/auth.ts';
import { documentRoutes } from '../../plugins/route-docs.ts';
import type { NotificationsService } from './notifications.service.ts';

/**
 * The signed-in user's notifications (the bell) and e-mail choices: GET notifications, POST notifications/read,
 * GET and PUT user/notification-preferences. Each user reads and changes only their own, whatever their role.
 */
export const notificationRoutes: FastifyPluginAsyncZod<{ service: NotificationsService }> = async (app, { service }) => {
  app.addHook('onRequest', app.authenticate);
  documentRoutes(app, { tag: 'notifications', errors: [400, 401, 403, 429] });

  app.get(
    '/notifications',
    {
      schema: {
        operationId: 'notifications',
        summary:
          "The caller's newest notifications (at most 50) and how many are unread; titles and texts in the request's language (Accept-Language: en or fr)",
        response: { 200: NotificationList },
      },
    },
    async (request) => service.list(authOf(request), requestLanguage(request)),
  );

  app.post(
    '/notifications/read',
    {
      schema: {
        operationId: 'markNotificationsRead',
        summary: "Marks the caller's notifications read: these ids, or all ({ all: true })",
        body: MarkNotificationsRead,
        response: { 200: z.object({ updated: z.number().int() }) },
      },
    },
    async (request) => service.markRead(authOf(request), request.body),
  );

  app.get(
    '/user/notification-preferences',
    {
      schema: {
        operationId: 'notificationPreferences',
        summary: 'Which notifications the caller also gets by e-mail: one line per topic of their role (on unless turned off)',
        response: { 200: NotificationPreferences },
      },
    },
    async (request) => service.preferences(authOf(request)),
  );

  app.put(
    '/user/notification-preferences',
    {
      schema: {
        operationId: 'updateNotificationPreferences',
        summary: "Turns the caller's e-mail of topics on or off (only topics of their role)",
        body: UpdateNotificationPreferences,
        response: { 200: NotificationPreferences },
      },
    },
    async (request) => service.savePreferences(authOf(request), request.body),
  );
};
