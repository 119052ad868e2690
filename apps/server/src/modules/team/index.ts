/** The team module's face. */
export { teamRoutes } from './team.routes.ts';
export { invitationRoutes } from './invitations.routes.ts';
export { createTeamService } from './team.service.ts';
export { createInvitationService, type InvitationService } from './invitations.service.ts';
