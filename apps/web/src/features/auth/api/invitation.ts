import { InvitationLookupResponse } from '@portal/contract/team';
import { api } from '../../../lib/api-client.ts';

/**
 * What an invitation link invites to (POST users/invitation, before any sign-in). Apart from the sign-in calls, so
 * that the sign-in page does not carry the team's contract.
 */
export const lookupInvitation = (token: string) => api.post('users/invitation', { token }, { schema: InvitationLookupResponse, auth: false });
