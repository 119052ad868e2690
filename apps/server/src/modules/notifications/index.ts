/** The notifications module's face: the notifier other modules tell through, the routes and their service. */
export { createNotifier, createNotificationsService, utcText } from './notifications.service.ts';
export type { NotificationsService, Notifier } from './notifications.service.ts';
export { notificationRoutes } from './notifications.routes.ts';
