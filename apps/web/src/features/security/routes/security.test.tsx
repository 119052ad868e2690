import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AUTH_MESSAGES } from '@portal/contract/auth';
import type { Passkey } from '@portal/contract/passkeys';
import { SECURITY_MESSAGES, type ActiveSession, type SecurityEvent } from '@portal/contract/security';
import type { TeamMember } from '@portal/contract/team';
import { apiError, mockApi, type ApiCall } from '../../../testing/api-mock.ts';
import { signIn, USER_ID } from '../../../testing/factories.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { SecurityScreen } from './security.tsx';
import { inFrench } from '../../../testing/french.ts';

const TREASURY_ID = '0a5e0001-0000-4000-8000-000000000003';
const CURRENT: ActiveSession = {
  id: '5e550000-0000-4000-8000-000000000001',
  createdAt: '2026-11-20T08:00:00.000Z',
  lastSeenAt: '2026-11-20T09:00:00.000Z',
  browser: 'Chrome 131 on Windows',
  ip: '203.0.113.7',
  current: true,
};
const PHONE: ActiveSession = { ...CURRENT, id: '5e550000-0000-4000-8000-000000000002', browser: 'Safari 18 on iOS', ip: '198.51.100.9', current: false };

const event = (n: number, overrides: Partial<SecurityEvent> = {}): SecurityEvent => ({
  id: `e0000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  at: `2026-11-20T${String(10 + (n % 10)).padStart(2, '0')}:00:00.000Z`,
  kind: 'sign-in',
  action: 'login.succeeded',
  actor: { userId: USER_ID, name: 'Ada Admin', email: 'admin@acme.test', label: 'Ada Admin' },
  target: null,
  details: { method: 'totp' },
  ip: '203.0.113.7',
  browser: 'Chrome 131 on Windows',
  ...overrides,
});
const member = (id: string, name: string, email: string, role: TeamMember['role'], status: TeamMember['status'] = 'active'): TeamMember => ({
  id,
  name,
  email,
  role,
  status,
  passwordResetRequested: false,
  lastSignInAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  invitationExpiresAt: status === 'invited' ? '2026-12-04T12:00:00.000Z' : null,
});
const TEAM = [
  member(USER_ID, 'Ada Admin', 'admin@acme.test', 'admin'),
  member(TREASURY_ID, 'Thandi Nkosi', 'treasury@acme.test', 'treasury'),
  member('0a5e0001-0000-4000-8000-000000000009', 'Chidi Okafor', 'invited@acme.test', 'view', 'invited'),
];

const LAPTOP: Passkey = {
  id: 'ba55c0de-0000-4000-8000-000000000001',
  name: 'Work laptop',
  createdAt: '2026-11-18T08:00:00.000Z',
  lastUsedAt: null,
  synced: true,
  browser: 'Chrome 131 on macOS',
  disabled: false,
};
const KEY: Passkey = {
  ...LAPTOP,
  id: 'ba55c0de-0000-4000-8000-000000000002',
  name: 'YubiKey',
  synced: false,
  lastUsedAt: '2026-11-19T08:00:00.000Z',
  disabled: true,
};

function securityServer() {
  let sessions = [CURRENT, PHONE];
  let passkeys = [LAPTOP, KEY];
  const page1 = Array.from({ length: 50 }, (_, i) => event(i + 1));
  const page2 = [event(51, { action: 'login.failed', kind: 'sign-in', details: {}, browser: 'Safari 18 on iOS', ip: '198.51.100.9' })];
  const api = mockApi({
    'GET me/sessions': () => ({ body: { sessions } }),
    [`DELETE me/sessions/${PHONE.id}`]: () => {
      sessions = sessions.filter((s) => s.id !== PHONE.id);
      return { body: { message: 'Session ended' } };
    },
    'GET partner/users': { body: { users: TEAM } },
    'GET me/passkeys': () => ({ body: { passkeys } }),
    [`PUT me/passkeys/${LAPTOP.id}`]: (call: ApiCall) => {
      passkeys = passkeys.map((p) => (p.id === LAPTOP.id ? { ...p, name: (call.body as { name: string }).name } : p));
      return { body: { message: 'Passkey renamed' } };
    },
    [`DELETE me/passkeys/${LAPTOP.id}`]: (call: ApiCall) => {
      if ((call.body as { code: string }).code !== '123456') return apiError(400, 'InvalidOtp', AUTH_MESSAGES.invalidOtp);
      passkeys = passkeys.filter((p) => p.id !== LAPTOP.id);
      return { body: { message: 'Passkey removed' } };
    },
    'GET security-history': (call: ApiCall) => {
      const q = new URLSearchParams(call.query);
      if (q.get('from') && q.get('to') && q.get('to')! < q.get('from')!)
        return apiError(400, 'ReversedRange', 'The end date must be on or after the start date.');
      if (q.get('person') === TREASURY_ID)
        return {
          body: {
            items: [event(60, { actor: { userId: TREASURY_ID, name: 'Thandi Nkosi', email: 'treasury@acme.test', label: 'Thandi Nkosi' } })],
            nextCursor: null,
          },
        };
      if (q.get('cursor') === 'next') return { body: { items: page2, nextCursor: null } };
      if (q.get('limit') === '500') return { body: { items: [...page1, ...page2], nextCursor: null } };
      return { body: { items: page1, nextCursor: 'next' } };
    },
  });
  return api;
}

const renderSecurity = () => renderScreen(<SecurityScreen />, { path: '/settings/security' });

const historyRows = async () =>
  within(await screen.findByRole('table', { name: 'Security history' }))
    .getAllByRole('row')
    .slice(1);

describe('the security screen', () => {
  it('lists my passkeys with when they were used, renames one, and removes one with the authenticator code', async () => {
    signIn('treasury');
    const api = securityServer();
    const { user } = renderSecurity();
    const list = await screen.findByRole('list', { name: 'Your passkeys' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((i) => i.textContent)).toEqual([
      expect.stringMatching(/Work laptop.*Synced.*Added Nov 18, 2026.* in Chrome 131 on macOS · Not used yet/),
      expect.stringMatching(/YubiKey.*Disabled.*Last used Nov 19, 2026/),
    ]);

    await user.click(screen.getByRole('button', { name: 'Rename the passkey Work laptop' }));
    const rename = await screen.findByRole('dialog', { name: 'Rename passkey' });
    await user.clear(within(rename).getByLabelText('Name'));
    await user.type(within(rename).getByLabelText('Name'), 'MacBook');
    await user.click(within(rename).getByRole('button', { name: 'Save' }));
    expect(await within(list).findByText('MacBook')).toBeTruthy();
    expect(api.to(`PUT me/passkeys/${LAPTOP.id}`)[0]!.body).toEqual({ name: 'MacBook' });

    await user.click(screen.getByRole('button', { name: 'Remove the passkey MacBook' }));
    const remove = await screen.findByRole('dialog', { name: 'Remove passkey' });
    const confirm = within(remove).getByRole('button', { name: 'Remove passkey' });
    expect(confirm).toHaveProperty('disabled', true);
    await user.type(within(remove).getByLabelText('Authenticator code or recovery code'), '654321');
    await user.click(confirm);
    expect(await within(remove).findByText(AUTH_MESSAGES.invalidOtp)).toBeTruthy();
    await user.clear(within(remove).getByLabelText('Authenticator code or recovery code'));
    await user.type(within(remove).getByLabelText('Authenticator code or recovery code'), '123456');
    await user.click(confirm);
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Your passkeys' })).getAllByRole('listitem')).toHaveLength(1));
    expect(api.to(`DELETE me/passkeys/${LAPTOP.id}`).map((c) => c.body)).toEqual([{ code: '654321' }, { code: '123456' }]);
  });

  it('lists my sessions, marks this browser, and ends another one', async () => {
    signIn('admin');
    const api = securityServer();
    const { user } = renderSecurity();
    const list = await screen.findByRole('list', { name: 'Your sessions' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]!.textContent).toContain('Chrome 131 on Windows');
    expect(items[0]!.textContent).toContain('This browser');
    expect(within(items[0]!).queryByRole('button')).toBeNull();
    expect(items[1]!.textContent).toContain('198.51.100.9');

    await user.click(within(items[1]!).getByRole('button', { name: 'End the session of Safari 18 on iOS' }));
    expect(api.to(`DELETE me/sessions/${PHONE.id}`)).toHaveLength(1);
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Your sessions' })).getAllByRole('listitem')).toHaveLength(1));
  });

  it('says why a session could not be ended', async () => {
    signIn('admin');
    const api = securityServer();
    api.on(`DELETE me/sessions/${PHONE.id}`, apiError(404, 'SessionNotFound', SECURITY_MESSAGES.sessionNotFound));
    const { user } = renderSecurity();
    const list = await screen.findByRole('list', { name: 'Your sessions' });
    await user.click(within(list).getByRole('button', { name: 'End the session of Safari 18 on iOS' }));
    expect(await screen.findByText(SECURITY_MESSAGES.sessionNotFound)).toBeTruthy();
  });

  it("shows an admin the team's history in words, a page at a time, and filters by person", async () => {
    signIn('admin');
    const api = securityServer();
    const { user } = renderSecurity();
    let rows = await historyRows();
    expect(rows).toHaveLength(50);
    expect(rows[0]!.textContent).toContain('Signed in with the authenticator app');
    expect(rows[0]!.textContent).toContain('Chrome 131 on Windows');
    await user.click(screen.getByRole('button', { name: 'Show more' }));
    await waitFor(async () => expect(await historyRows()).toHaveLength(51));
    rows = await historyRows();
    expect(rows[50]!.textContent).toContain('Sign-in failed: wrong password');
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
    expect(api.to('GET security-history')[1]!.query).toContain('cursor=next');

    // the person filter lists the members who can act (not an invitation) and asks the server for one
    await user.click(screen.getByRole('button', { name: 'Person: Everyone' }));
    expect(screen.queryByRole('option', { name: /Chidi Okafor/ })).toBeNull();
    await user.click(screen.getByRole('option', { name: 'Thandi Nkosi (treasury@acme.test)' }));
    await waitFor(async () => expect(await historyRows()).toHaveLength(1));
    expect(api.to('GET security-history').at(-1)!.query).toContain(`person=${TREASURY_ID}`);
  });

  it('shows everyone else only their own history, without a person filter', async () => {
    signIn('treasury');
    const api = securityServer();
    renderSecurity();
    await historyRows();
    expect(screen.queryByRole('button', { name: /^Person:/ })).toBeNull();
    expect(api.to('GET security-history')[0]!.query).not.toContain('person=');
    expect(screen.getByText(/Admins of your team see everyone’s/)).toBeTruthy();
  });

  it('says what is wrong with a reversed range', async () => {
    signIn('admin');
    securityServer();
    const { user } = renderSecurity();
    await historyRows();
    await user.type(screen.getByLabelText('From'), '2026-11-20');
    await user.type(screen.getByLabelText('To'), '2026-11-01');
    expect(await screen.findByText('The end date must be on or after the start date.')).toBeTruthy();
  });

  it('exports every matching row as CSV, in words, with the zone in the header', async () => {
    signIn('admin');
    const api = securityServer();
    const files: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => (files.push(blob as Blob), 'blob:csv'));
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const { user } = renderSecurity();
    await historyRows();
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(files).toHaveLength(1));
    expect(api.to('GET security-history').at(-1)!.query).toContain('limit=500');
    const text = await files[0]!.text();
    const lines = text
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('Time (UTC),Person,E-mail,Kind,Event,IP address,Browser,Action');
    expect(lines).toHaveLength(52);
    expect(lines[51]).toBe('2026-11-20 11:00:00,Ada Admin,admin@acme.test,Sign-ins,Sign-in failed: wrong password,198.51.100.9,Safari 18 on iOS,login.failed');
  });
});

describe('the security screen, in French', () => {
  inFrench('admin');

  it('draws the sessions, passkeys and history in French, dates in French', async () => {
    securityServer();
    renderSecurity();
    expect(await screen.findByRole('heading', { name: 'Sécurité' })).toBeTruthy();
    const sessions = await screen.findByRole('list', { name: 'Vos sessions' });
    expect(within(sessions).getByText('Ce navigateur')).toBeTruthy();
    expect(within(sessions).getAllByText('203.0.113.7 · Connexion le 20 nov. 2026, 08:00 UTC · Dernière activité le 20 nov. 2026, 09:00 UTC')).toHaveLength(1);
    expect(within(sessions).getByRole('button', { name: 'Fermer la session de Safari 18 sous iOS' })).toBeTruthy();

    const passkeys = within(await screen.findByRole('list', { name: 'Vos clés d’accès' })).getAllByRole('listitem');
    expect(passkeys[0]!.textContent).toMatch(/Synchronisée.*Ajoutée le 18 nov. 2026, 08:00 UTC dans Chrome 131 on macOS · Pas encore utilisée/);
    expect(passkeys[1]!.textContent).toMatch(/Désactivée.*Dernière utilisation le 19 nov. 2026/);

    const table = await screen.findByRole('table', { name: 'Historique de sécurité' });
    expect(within(table).getAllByText('Connexions').length).toBeGreaterThan(0);
    expect(screen.getByText('50 événements affichés')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Exporter en CSV' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Afficher plus' })).toBeTruthy();
    expect(screen.getByText(/Heures dans le fuseau UTC\./)).toBeTruthy();
  });
});
