import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TEAM_MESSAGES, type TeamMember } from '@portal/contract/team';
import { useToasts } from '../../../components/ui/toast-store.ts';
import { useSession } from '../../../lib/session/session-store.ts';
import { apiError, mockApi } from '../../../testing/api-mock.ts';
import { signIn } from '../../../testing/factories.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { translator } from '../../../lib/i18n.ts';
import { teamMessages } from '../messages.ts';
import { TeamScreen } from './team.tsx';
import { inFrench } from '../../../testing/french.ts';

const READ_ONLY_TEAM = translator(teamMessages, 'en')('readOnly');

const member = (id: string, name: string, email: string, overrides: Partial<TeamMember> = {}): TeamMember => ({
  id: `0a5e0001-0000-4000-8000-00000000000${id}`,
  name,
  email,
  role: 'view',
  status: 'active',
  passwordResetRequested: false,
  lastSignInAt: '2026-11-20T12:00:00.000Z',
  createdAt: '2026-01-01T00:00:00.000Z',
  invitationExpiresAt: null,
  ...overrides,
});
const TEAM = [
  member('1', 'Ada Admin', 'admin@acme.test', { role: 'admin' }),
  member('8', 'Chidi Okafor', 'invited@acme.test', { status: 'invited', lastSignInAt: null, invitationExpiresAt: '2026-12-04T12:00:00.000Z' }),
  member('4', 'Femi Adeyemi', 'viewer@acme.test', { passwordResetRequested: true }),
  member('3', 'Thandi Nkosi', 'treasury@acme.test', { role: 'treasury' }),
  member('7', 'Kofi Mensah', 'expired@acme.test', { status: 'expired', lastSignInAt: null, invitationExpiresAt: '2026-11-10T09:00:00.000Z' }),
];

const renderTeam = () => renderScreen(<TeamScreen />, { path: '/settings/team' });
const rowsShown = async () => within(await screen.findByRole('list', { name: 'Team members' })).getAllByTestId('team-member');
const rowOf = (rows: HTMLElement[], email: string) => rows.find((r) => within(r).queryByText(email))!;

function teamServer() {
  let list = [...TEAM];
  const api = mockApi({
    'GET partner/users': () => ({ body: { users: list } }),
    'POST users/add': (call) => {
      const body = call.body as { name: string; email: string; role: TeamMember['role'] };
      const known = list.find((u) => u.email === body.email);
      if (known?.status === 'invited') return apiError(409, 'AlreadyInvited', TEAM_MESSAGES.alreadyInvited);
      if (known) return apiError(409, 'EmailInUse', TEAM_MESSAGES.emailInUse);
      const user = member('9', body.name, body.email, {
        role: body.role,
        status: 'invited',
        lastSignInAt: null,
        invitationExpiresAt: '2026-12-04T12:00:00.000Z',
      });
      list = [...list, user];
      // the mail server is down for this address: saved, the mail did not leave
      return { status: 201, body: { user, mailSent: !body.email.startsWith('unreachable') } };
    },
    'POST users/update': (call) => {
      const body = call.body as { userId: string; role: TeamMember['role'] };
      list = list.map((u) => (u.id === body.userId ? { ...u, role: body.role } : u));
      return { body: { user: list.find((u) => u.id === body.userId) } };
    },
    [`PUT users/delete/${TEAM[3]!.id}`]: () => {
      list = list.filter((u) => u.id !== TEAM[3]!.id);
      return { body: { message: TEAM_MESSAGES.removed('treasury@acme.test') } };
    },
    [`PUT users/delete/${TEAM[4]!.id}`]: () => {
      list = list.filter((u) => u.id !== TEAM[4]!.id);
      return { body: { message: TEAM_MESSAGES.invitationWithdrawn('expired@acme.test') } };
    },
    'POST user/reset-password': { body: { message: TEAM_MESSAGES.passwordReset('treasury@acme.test') } },
    'POST users/resend-invite': { body: { message: TEAM_MESSAGES.inviteResent('invited@acme.test') } },
    [`PUT users/resend-code/${TEAM[2]!.id}`]: { body: { message: TEAM_MESSAGES.codeResent('viewer@acme.test') } },
  });
  return api;
}

/** The team screen as an admin sees it, its rows shown; `act` picks an item of a member's actions menu. */
async function asAdmin() {
  signIn('admin');
  const api = teamServer();
  const { user } = renderTeam();
  await rowsShown();
  const act = async (email: string, item: string) => {
    await user.click(screen.getByRole('button', { name: `Actions for ${email}` }));
    await user.click(await screen.findByRole('menuitem', { name: item }));
  };
  return { api, user, act };
}

describe('team screen', () => {
  it('lists name, e-mail, role, status and last sign-in (an invitation: when its link ends), and marks the signed-in user', async () => {
    signIn('admin');
    teamServer();
    renderTeam();
    const rows = await rowsShown();
    expect(rows).toHaveLength(5);
    const ada = within(rowOf(rows, 'admin@acme.test'));
    expect(ada.getByText('Ada Admin')).toBeTruthy();
    expect(ada.getByText('You')).toBeTruthy();
    expect(ada.getByText('Admin')).toBeTruthy();
    expect(ada.getByText('Active')).toBeTruthy();
    expect(within(rowOf(rows, 'invited@acme.test')).getByText('Invited')).toBeTruthy();
    expect(within(rowOf(rows, 'invited@acme.test')).getByText(/^Expires Dec 4, 2026/)).toBeTruthy();
    expect(within(rowOf(rows, 'expired@acme.test')).getByText('Invitation expired')).toBeTruthy();
    expect(within(rowOf(rows, 'expired@acme.test')).getByText(/^Expired Nov 10, 2026/)).toBeTruthy();
    expect(within(rowOf(rows, 'treasury@acme.test')).queryByText(/Expire/)).toBeNull();
    expect(screen.getByText(/^3 members, 2 invitations ·/)).toBeTruthy();
    expect(within(rowOf(rows, 'viewer@acme.test')).getByText('Password reset')).toBeTruthy();
    expect(within(rowOf(rows, 'treasury@acme.test')).getByText('Treasury')).toBeTruthy();
    expect(screen.queryByText(READ_ONLY_TEAM)).toBeNull();
  });

  it('invites a member: checks the fields, sends name, e-mail and role, shows the server refusal', async () => {
    const { api, user } = await asAdmin();
    await user.click(screen.getByRole('button', { name: 'Invite member' }));
    const dialog = screen.getByRole('dialog', { name: 'Invite a team member' });
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(within(dialog).getByText('Enter a name')).toBeTruthy();
    expect(within(dialog).getByText('Enter a valid e-mail address')).toBeTruthy();
    expect(api.to('POST users/add')).toEqual([]);

    await user.type(within(dialog).getByLabelText('Full name'), 'Naledi Dlamini');
    await user.type(within(dialog).getByLabelText('E-mail'), 'viewer@acme.test');
    await user.click(within(dialog).getByRole('radio', { name: /Treasury/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    await within(dialog).findByText(TEAM_MESSAGES.emailInUse);
    // said under the E-mail field, which is marked invalid and focused
    const email = within(dialog).getByLabelText('E-mail');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(email));
    // an address with an invitation waiting: said there too
    await user.clear(email);
    await user.type(email, 'invited@acme.test');
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    await within(dialog).findByText(TEAM_MESSAGES.alreadyInvited);

    await user.clear(within(dialog).getByLabelText('E-mail'));
    await user.type(within(dialog).getByLabelText('E-mail'), 'Naledi@Acme.test ');
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.to('POST users/add').at(-1)?.body).toEqual({ name: 'Naledi Dlamini', email: 'naledi@acme.test', role: 'treasury' });
    expect(useToasts.getState().toast.message).toBe(TEAM_MESSAGES.invited('naledi@acme.test'));
    await waitFor(async () => expect(await rowsShown()).toHaveLength(6));
  });

  it('says so when the invitation e-mail could not be sent: the member is on the team, to resend later', async () => {
    const { user } = await asAdmin();
    await user.click(screen.getByRole('button', { name: 'Invite member' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Full name'), 'Amani Odhiambo');
    await user.type(within(dialog).getByLabelText('E-mail'), 'unreachable@acme.test');
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(useToasts.getState().toast.message).toBe(TEAM_MESSAGES.invitedMailFailed('unreachable@acme.test'));
    await waitFor(async () => expect(await rowsShown()).toHaveLength(6));
  });

  it('changes a role from the row menu', async () => {
    const { api, user, act } = await asAdmin();
    await act('treasury@acme.test', 'Change role');
    const dialog = screen.getByRole('dialog', { name: 'Change the role of Thandi Nkosi' });
    expect(within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Save role' }).disabled).toBe(true);
    await user.click(within(dialog).getByRole('radio', { name: /View only/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Save role' }));
    await waitFor(() => expect(api.to('POST users/update').map((c) => c.body)).toEqual([{ userId: TEAM[3]!.id, role: 'view' }]));
    expect(useToasts.getState().toast.message).toBe(TEAM_MESSAGES.roleChanged('treasury@acme.test', 'view'));
    await waitFor(async () => expect(within(rowOf(await rowsShown(), 'treasury@acme.test')).getByText('View only')).toBeTruthy());
  });

  it('applies a change of one’s own role to this session at once', async () => {
    const { user, act } = await asAdmin();
    await act('admin@acme.test', 'Change role');
    const dialog = screen.getByRole('dialog');
    await user.click(within(dialog).getByRole('radio', { name: /Treasury/ }));
    expect(within(dialog).getByText(/you will no longer be able to manage the team/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Save role' }));
    await waitFor(() => expect(useSession.getState().user?.role).toBe('treasury'));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Invite member' })).toBeNull());
    expect(screen.getByText(READ_ONLY_TEAM)).toBeTruthy();
  });

  it('removes a member only after confirmation', async () => {
    const { api, user, act } = await asAdmin();
    await act('treasury@acme.test', 'Remove from team');
    const dialog = screen.getByRole('dialog', { name: 'Remove Thandi Nkosi?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.to(`PUT users/delete/${TEAM[3]!.id}`)).toEqual([]);
    await act('treasury@acme.test', 'Remove from team');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(api.to(`PUT users/delete/${TEAM[3]!.id}`)).toHaveLength(1));
    await waitFor(() => expect(useToasts.getState().toast.message).toBe(TEAM_MESSAGES.removed('treasury@acme.test')));
    await waitFor(async () => expect(await rowsShown()).toHaveLength(4));
  });

  it('withdraws an invitation only after confirmation, in words that fit an invitation', async () => {
    const { api, user, act } = await asAdmin();
    await act('expired@acme.test', 'Withdraw invitation');
    const dialog = screen.getByRole('dialog', { name: 'Withdraw the invitation?' });
    expect(within(dialog).getByText(/stops working at once/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Withdraw invitation' }));
    await waitFor(() => expect(api.to(`PUT users/delete/${TEAM[4]!.id}`)).toHaveLength(1));
    await waitFor(() => expect(useToasts.getState().toast.message).toBe(TEAM_MESSAGES.invitationWithdrawn('expired@acme.test')));
    await waitFor(async () => expect(await rowsShown()).toHaveLength(4));
    expect(screen.getByText(/^3 members, 1 invitation ·/)).toBeTruthy();
  });

  it('offers each member the actions that fit: resend for an invitation, reset and resend code for active users', async () => {
    const { api, user, act } = await asAdmin();
    const menu = async (email: string) => {
      await user.click(screen.getByRole('button', { name: `Actions for ${email}` }));
      const items = (await screen.findAllByRole('menuitem')).map((i) => i.textContent);
      await user.keyboard('{Escape}');
      return items;
    };
    expect(await menu('invited@acme.test')).toEqual(['Change role', 'Resend invitation', 'Withdraw invitation']);
    expect(await menu('expired@acme.test')).toEqual(['Change role', 'Resend invitation', 'Withdraw invitation']);
    expect(await menu('viewer@acme.test')).toEqual(['Change role', 'Reset password', 'Resend reset code', 'Remove from team']);
    expect(await menu('treasury@acme.test')).toEqual(['Change role', 'Reset password', 'Remove from team']);

    await act('treasury@acme.test', 'Reset password');
    await user.click(within(screen.getByRole('dialog', { name: 'Reset the password of Thandi Nkosi?' })).getByRole('button', { name: 'Reset password' }));
    await waitFor(() => expect(api.to('POST user/reset-password').map((c) => c.body)).toEqual([{ userId: TEAM[3]!.id }]));
    await waitFor(() => expect(useToasts.getState().toast.message).toBe(TEAM_MESSAGES.passwordReset('treasury@acme.test')));

    await act('invited@acme.test', 'Resend invitation');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Resend invitation' }));
    await waitFor(() => expect(api.to('POST users/resend-invite').map((c) => c.body)).toEqual([{ userId: TEAM[1]!.id }]));

    await act('viewer@acme.test', 'Resend reset code');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Resend code' }));
    await waitFor(() => expect(api.to(`PUT users/resend-code/${TEAM[2]!.id}`)).toHaveLength(1));
  });

  it('shows a refused action in its dialog', async () => {
    const { api, user, act } = await asAdmin();
    api.on(`PUT users/delete/${TEAM[0]!.id}`, apiError(409, 'LastAdmin', TEAM_MESSAGES.lastAdmin));
    await act('admin@acme.test', 'Remove from team');
    const dialog = screen.getByRole('dialog', { name: 'Leave the team?' });
    await user.click(within(dialog).getByRole('button', { name: 'Leave team' }));
    await within(dialog).findByText(TEAM_MESSAGES.lastAdmin);
  });

  it('is read-only for treasury and view users', async () => {
    for (const role of ['treasury', 'view'] as const) {
      signIn(role);
      teamServer();
      const view = renderTeam();
      await rowsShown();
      expect(screen.getByText(READ_ONLY_TEAM)).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'Invite member' })).toBeNull();
      expect(screen.queryAllByRole('button', { name: /^Actions for/ })).toEqual([]);
      view.unmount();
    }
  });
});

describe('team screen, in French', () => {
  inFrench('admin');

  it('names the roles, statuses, counts and dialogs in French, dates in French', async () => {
    teamServer();
    const { user } = renderTeam();
    const rows = within(await screen.findByRole('list', { name: 'Membres de l’équipe' })).getAllByTestId('team-member');
    expect(screen.getByRole('heading', { name: 'Équipe' })).toBeTruthy();
    const ada = within(rowOf(rows, 'admin@acme.test'));
    expect(ada.getByText('Vous')).toBeTruthy();
    expect(ada.getByText('Administrateur')).toBeTruthy();
    expect(ada.getByText('Actif')).toBeTruthy();
    expect(within(rowOf(rows, 'treasury@acme.test')).getByText('Trésorerie')).toBeTruthy();
    expect(within(rowOf(rows, 'viewer@acme.test')).getByText('Lecture seule')).toBeTruthy();
    expect(within(rowOf(rows, 'invited@acme.test')).getByText('Expire le 4 déc. 2026')).toBeTruthy();
    expect(within(rowOf(rows, 'expired@acme.test')).getByText('Invitation expirée')).toBeTruthy();
    expect(screen.getByText(/^3 membres, 2 invitations ·/)).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Inviter un membre' }));
    const dialog = await screen.findByRole('dialog', { name: 'Inviter un membre de l’équipe' });
    expect(within(dialog).getByText(/valable 7 jours/)).toBeTruthy();
    expect(within(dialog).getByText('Voit le tableau de bord ; ne modifie rien.')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Envoyer l’invitation' })).toBeTruthy();
  });
});
