/** The team module's face. */
export { teamRoutes } from './team.routes.ts';
export { createTeamService, type TeamService } from './team.service.ts';
export { createInvitationService } from './invitations.service.ts';
export { createTeamRepository } from './team.repository.ts';
