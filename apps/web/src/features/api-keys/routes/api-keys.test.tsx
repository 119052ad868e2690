import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiKey, ApiKeyWithSecret } from '@portal/contract/api-keys';
import { useToasts } from '../../../components/ui/toast-store.ts';
import { apiError, mockApi } from '../../../testing/api-mock.ts';
import { PARTNER_ID, profile, signIn } from '../../../testing/factories.ts';
import { setDisplayTimeZone } from '../../../lib/format.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { ApiKeysScreen } from './api-keys.tsx';

function apiKey(overrides: Partial<ApiKey> = {}): ApiKey {
  return {
    partnerId: PARTNER_ID,
    mode: 'live',
    apiKey: 'ak_0123456789abcdef0123456789abcdef',
    name: 'Payouts server',
    status: 'active',
    permissions: ['api_read', 'api_write'],
    publicKey: 'pk_public',
    secretHint: 'WXYZ',
    expiry: null,
    expired: false,
    previousSecretExpiresAt: null,
    lastUsedAt: null,
    createdAt: '2026-11-20T10:00:00.000Z',
    updatedAt: '2026-11-20T10:00:00.000Z',
    ...overrides,
  };
}
const SECRET = 'sk_ThisIsTheSecretShownOnceXXXXXXXXXXXXXXXXXXXX';
const withSecret = (k: ApiKey): ApiKeyWithSecret => ({ ...k, secretKey: SECRET });

/** An admin signed in, and the keys screen's server: the profile, no allowed addresses and `keys`; `more` adds routes. */
function keysServer(keys: ApiKey[], more: Parameters<typeof mockApi>[0] = {}) {
  signIn('admin');
  return mockApi({
    'GET partner/profile': { body: profile() },
    'GET partner/ip-addresses': { body: { ipAddresses: [] } },
    'GET partner/apikey': { body: { apiKeys: keys } },
    ...more,
  });
}

const renderKeys = () => renderScreen(<ApiKeysScreen />, { path: '/api-keys' });
const rows = () => screen.getAllByTestId('api-key-row');

describe('API keys screen', () => {
  const browserZone = process.env.TZ;
  afterEach(() => {
    process.env.TZ = browserZone;
    setDisplayTimeZone(null);
  });

  it('shows times in the zone in force with the zone written, never the browser zone in 12-hour time', async () => {
    process.env.TZ = 'Asia/Tokyo';
    expect(new Date('2026-11-21T20:30:00.000Z').getDate()).toBe(22); // the runtime really is in Tokyo
    keysServer([
      apiKey({ lastUsedAt: '2026-11-21T20:30:00.000Z', createdAt: '2026-11-20T20:00:00.000Z', previousSecretExpiresAt: '2026-11-22T18:05:00.000Z' }),
    ]);
    const { unmount } = renderKeys();
    const [row] = await screen.findAllByTestId('api-key-row');
    expect(row!.textContent).toContain('Nov 21, 2026, 20:30 UTC');
    expect(row!.textContent).toContain('Nov 20, 2026');
    expect(row!.textContent).toContain('Old secret works until Nov 22, 2026, 18:05 UTC');
    expect(row!.textContent).not.toMatch(/AM|PM/);
    unmount();

    setDisplayTimeZone('Africa/Nairobi');
    renderKeys();
    const [again] = await screen.findAllByTestId('api-key-row');
    expect(again!.textContent).toContain('Nov 21, 2026, 23:30 GMT+3');
    expect(again!.textContent).toContain('Nov 20, 2026'); // 23:00 in Nairobi, still the 20th
  });

  it('lists the keys with their prefix, permissions, status, dates and expiry, never a secret', async () => {
    keysServer([
      apiKey(),
      apiKey({
        apiKey: 'ak_ffffffffffffffffffffffffffffffff',
        name: 'Old reporting',
        status: 'disabled',
        permissions: ['api_read'],
        lastUsedAt: '2026-11-21T08:30:00.000Z',
        expiry: '2026-11-01T00:00:00.000Z',
        expired: true,
      }),
    ]);
    renderKeys();
    await screen.findAllByTestId('api-key-row');
    const [first, second] = rows();
    expect(first!.textContent).toContain('Payouts server');
    expect(first!.textContent).toContain('ak_01234567…');
    expect(first!.textContent).toContain('API read');
    expect(first!.textContent).toContain('API write');
    expect(first!.textContent).toContain('Active');
    expect(first!.textContent).toContain('Never');
    expect(second!.textContent).toContain('Inactive');
    expect(second!.textContent).toContain('Expired Nov 1, 2026');
    expect(within(second!).getByRole('button', { name: 'Enable Old reporting' })).toBeTruthy();
    expect(document.body.textContent).not.toContain('sk_');
  });

  it('shows an empty state that offers to create a key', async () => {
    signIn('admin');
    mockApi({ 'GET partner/profile': { body: profile({}, { whitelistedIpsEnabled: false }) }, 'GET partner/apikey': { body: { apiKeys: [] } } });
    renderKeys();
    const empty = await screen.findByTestId('api-keys-empty');
    expect(empty.textContent).toContain('No API keys yet');
    // the allowed addresses are not shown without their flag
    expect(screen.queryByText('Allowed IP addresses')).toBeNull();
  });

  it('creates a key and shows its secret once, with a copy button that copies it', async () => {
    const api = keysServer([], {
      'POST partner/apikey': (call) => ({
        status: 201,
        body: { apiKey: withSecret(apiKey({ name: (call.body as { name: string }).name, permissions: (call.body as ApiKey).permissions })) },
      }),
    });
    const { user } = renderKeys();
    await user.click((await screen.findAllByRole('button', { name: 'Create API key' }))[0]!);
    const dialog = await screen.findByRole('dialog');
    // a name is needed
    await user.click(within(dialog).getByRole('button', { name: 'Create key' }));
    expect(within(dialog).getByText('Enter a name for the key')).toBeTruthy();
    expect(api.to('POST partner/apikey')).toEqual([]);

    await user.type(within(dialog).getByLabelText('Name'), 'Payouts server');
    await user.click(within(dialog).getByRole('checkbox', { name: /API write/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Create key' }));
    const secret = await within(dialog).findByTestId('secret-key');
    expect(secret.textContent).toBe(SECRET);
    // Live unless another mode is chosen, and sent as such
    expect(api.to('POST partner/apikey').map((c) => c.body)).toEqual([
      { mode: 'live', name: 'Payouts server', permissions: ['api_read', 'api_write'], expiry: null },
    ]);
    expect(dialog.textContent).toContain('Live key "Payouts server" is active.');

    await user.click(within(dialog).getByRole('button', { name: 'Copy secret key' }));
    // user-event's clipboard stands in for the browser's
    expect(await navigator.clipboard.readText()).toBe(SECRET);
    await waitFor(() => expect(useToasts.getState().toast.message).toBe('Secret key copied'));
    expect(within(dialog).getByRole('button', { name: 'Copy secret key' }).textContent).toContain('Copied');

    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.body.textContent).not.toContain(SECRET);
  });

  it('sends an expiry chosen as a number of days', async () => {
    const api = keysServer([], {
      'POST partner/apikey': { status: 201, body: { apiKey: withSecret(apiKey()) } },
    });
    const { user } = renderKeys();
    await user.click((await screen.findAllByRole('button', { name: 'Create API key' }))[0]!);
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Name'), 'Quarterly');
    await user.click(within(dialog).getByRole('radio', { name: '90 days' }));
    const before = Date.now();
    await user.click(within(dialog).getByRole('button', { name: 'Create key' }));
    await within(dialog).findByTestId('secret-key');
    const sent = api.to('POST partner/apikey')[0]!.body as { expiry: string };
    const days = (new Date(sent.expiry).getTime() - before) / 86_400_000;
    expect(days).toBeGreaterThan(89.99);
    expect(days).toBeLessThan(90.01);
  });

  it('asks the mode first, Live chosen, each with its meaning; a test key is sent and shown as one', async () => {
    const api = keysServer([], {
      'POST partner/apikey': (call) => {
        const body = call.body as { name: string; mode: 'live' | 'test' };
        return {
          status: 201,
          body: { apiKey: withSecret(apiKey({ name: body.name, mode: body.mode, apiKey: `ak_${body.mode}_0123456789abcdef0123456789abcdef` })) },
        };
      },
    });
    const { user } = renderKeys();
    await user.click((await screen.findAllByRole('button', { name: 'Create API key' }))[0]!);
    const dialog = await screen.findByRole('dialog');
    const group = within(dialog).getByRole('group', { name: 'Mode' });
    const [live, test] = within(group).getAllByRole<HTMLInputElement>('radio');
    expect(within(dialog).getAllByRole('radio')[0]).toBe(live); // before the other questions
    expect(live!.labels![0]!.textContent).toBe('LiveReaches your real balances and transactions.');
    expect(test!.labels![0]!.textContent).toBe('TestReaches only test data: sandbox payments that never move real money.');
    expect(live!.checked).toBe(true);
    expect(test!.checked).toBe(false);
    // the keyboard chooses: focus starts on the chosen mode, an arrow key moves the choice
    expect(document.activeElement).toBe(live);
    await user.keyboard('{ArrowDown}');
    expect(test!.checked).toBe(true);
    expect(live!.checked).toBe(false);

    await user.type(within(dialog).getByLabelText('Name'), 'Sandbox');
    await user.click(within(dialog).getByRole('button', { name: 'Create key' }));
    await within(dialog).findByTestId('secret-key');
    expect(api.to('POST partner/apikey').map((c) => c.body)).toEqual([{ mode: 'test', name: 'Sandbox', permissions: ['api_read'], expiry: null }]);
    expect(dialog.textContent).toContain('Test key "Sandbox" is active.');
    expect(within(dialog).getByTestId('key-id').textContent).toBe('ak_test_0123456789abcdef0123456789abcdef');
  });

  it('sends Test when it is clicked', async () => {
    const api = keysServer([], { 'POST partner/apikey': { status: 201, body: { apiKey: withSecret(apiKey({ mode: 'test' })) } } });
    const { user } = renderKeys();
    await user.click((await screen.findAllByRole('button', { name: 'Create API key' }))[0]!);
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('radio', { name: /^Test/ }));
    await user.type(within(dialog).getByLabelText('Name'), 'Sandbox');
    await user.click(within(dialog).getByRole('button', { name: 'Create key' }));
    await within(dialog).findByTestId('secret-key');
    expect(api.to('POST partner/apikey').map((c) => (c.body as { mode: string }).mode)).toEqual(['test']);
  });

  it('shows each key’s mode beside its name, in the table and on the cards: Test in amber, Live in grey', async () => {
    keysServer([
      apiKey({ apiKey: 'ak_live_0123456789abcdef0123456789abcdef', name: 'Payouts server' }),
      apiKey({ apiKey: 'ak_test_ffffffffffffffffffffffffffffffff', name: 'Sandbox', mode: 'test' }),
    ]);
    renderKeys();
    await screen.findAllByTestId('api-key-row');
    for (const [live, test] of [rows(), screen.getAllByTestId('api-key-card')]) {
      const liveBadge = within(live!).getByText('Live', { exact: true });
      const testBadge = within(test!).getByText('Test', { exact: true });
      expect(liveBadge.parentElement!.textContent).toBe('Payouts serverLive');
      expect(testBadge.parentElement!.textContent).toBe('SandboxTest');
      expect(testBadge.className).toContain('text-warning');
      expect(liveBadge.className).not.toContain('text-warning');
      expect(within(live!).queryByText('Test', { exact: true })).toBeNull();
      expect(within(test!).queryByText('Live', { exact: true })).toBeNull();
      // the prefix keeps the mode and 8 hex digits
      expect(live!.textContent).toContain('ak_live_01234567…');
      expect(test!.textContent).toContain('ak_test_ffffffff…');
    }
  });

  it('disables and enables a key, and shows a refusal', async () => {
    const api = keysServer([apiKey()], {
      'PUT partner/apikey': (call) => ({ body: { apiKey: apiKey({ status: (call.body as { status: 'disabled' }).status }) } }),
    });
    const { user } = renderKeys();
    await screen.findAllByTestId('api-key-row');
    await user.click(within(rows()[0]!).getByRole('button', { name: 'Disable Payouts server' }));
    await waitFor(() => expect(useToasts.getState().toast.message).toBe('Payouts server disabled'));
    expect(api.to('PUT partner/apikey').map((c) => c.body)).toEqual([{ apiKey: 'ak_0123456789abcdef0123456789abcdef', status: 'disabled' }]);
    api.on('PUT partner/apikey', apiError(403, 'Forbidden', 'Only an admin can do this.'));
    await user.click(within(rows()[0]!).getByRole('button', { name: 'Disable Payouts server' }));
    await waitFor(() => expect(useToasts.getState().toast.message).toBe('Only an admin can do this.'));
  });

  it('rolls a key with the chosen overlap and shows the new secret once', async () => {
    const api = keysServer([apiKey()], {
      'POST partner/apikey/ak_0123456789abcdef0123456789abcdef/roll': {
        body: { apiKey: withSecret(apiKey({ previousSecretExpiresAt: '2026-11-21T10:00:00.000Z' })) },
      },
    });
    const { user } = renderKeys();
    await screen.findAllByTestId('api-key-row');
    await user.click(within(rows()[0]!).getByRole('button', { name: 'Roll Payouts server' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('radio', { name: 'In 24 hours' }));
    await user.click(within(dialog).getByRole('button', { name: 'Roll key' }));
    expect((await within(dialog).findByTestId('secret-key')).textContent).toBe(SECRET);
    expect(api.to('POST partner/apikey/ak_0123456789abcdef0123456789abcdef/roll').map((c) => c.body)).toEqual([{ previousSecretMinutes: 1440 }]);
    expect(within(dialog).getByText(/Update your servers before the old secret stops working/)).toBeTruthy();
  });

  it('deletes a key after confirming', async () => {
    const api = keysServer([apiKey()], {
      'DELETE partner/apikey/ak_0123456789abcdef0123456789abcdef': { body: { message: 'API key Payouts server deleted' } },
    });
    const { user } = renderKeys();
    await screen.findAllByTestId('api-key-row');
    await user.click(within(rows()[0]!).getByRole('button', { name: 'Delete Payouts server' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('This cannot be undone');
    await user.click(within(dialog).getByRole('button', { name: 'Delete key' }));
    await waitFor(() => expect(api.to('DELETE partner/apikey/ak_0123456789abcdef0123456789abcdef')).toHaveLength(1));
    await waitFor(() => expect(useToasts.getState().toast.message).toBe('API key deleted'));
  });
});

describe('allowed IP addresses beside the keys', () => {
  const base = (ips: string[]) => ({
    'GET partner/profile': { body: profile() },
    'GET partner/apikey': { body: { apiKeys: [] } },
    'GET partner/ip-addresses': {
      body: {
        ipAddresses: ips.map((ipAddress) => ({ ipAddress, status: 'whitelisted', createdAt: '2026-11-20T10:00:00.000Z', createdBy: 'admin@acme.test' })),
      },
    },
    'PUT user/otp': { body: { message: 'sent', sentTo: 'admin@acme.test', expiresInSeconds: 600 } },
  });

  it('lists each address with the status Whitelisted, an edit and a delete action', async () => {
    signIn('admin');
    mockApi(base(['203.0.113.0/24', '2001:db8::1']));
    renderKeys();
    const list = await screen.findAllByTestId('ip-address-row');
    expect(list.map((r) => r.textContent)).toEqual(['203.0.113.0/24WhitelistedEditDelete', '2001:db8::1WhitelistedEditDelete']);
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(expect.arrayContaining(['IP Address', 'Status', 'Action']));
    // a list with addresses does not explain the empty list
    expect(screen.getByTestId('ip-addresses-explainer').textContent).toBe(
      'Your API keys work only from the addresses below: calls from every other address are refused.',
    );
  });

  it('explains the empty list only when it is empty', async () => {
    signIn('admin');
    mockApi(base([]));
    renderKeys();
    await screen.findByTestId('ip-addresses-empty');
    expect(screen.getByTestId('ip-addresses-explainer').textContent).toContain('While the list is empty your API keys work from any address.');
  });

  it('removing one of several addresses says its calls will be refused, not that keys work from anywhere', async () => {
    signIn('admin');
    mockApi(base(['203.0.113.0/24', '2001:db8::1']));
    const { user } = renderKeys();
    await screen.findAllByTestId('ip-address-row');
    await user.click(screen.getByRole('button', { name: 'Delete 2001:db8::1' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('API-key calls from 2001:db8::1 will be refused once it is removed.');
    expect(dialog.textContent).not.toContain('work from any address');
  });

  it('adds an address: checked here first, then the e-mailed code', async () => {
    signIn('admin');
    const api = mockApi({
      ...base([]),
      'POST partner/ip-address': (call) => ({
        status: 201,
        body: {
          ipAddress: {
            ipAddress: (call.body as { ipAddress: string }).ipAddress,
            status: 'whitelisted',
            createdAt: '2026-11-20T10:00:00.000Z',
            createdBy: 'admin@acme.test',
          },
        },
      }),
    });
    const { user } = renderKeys();
    await screen.findByTestId('ip-addresses-empty');
    await user.click(screen.getByRole('button', { name: 'Add IP address' }));
    const dialog = await screen.findByRole('dialog');
    const field = within(dialog).getByLabelText('IP address or range');
    await user.type(field, '203.0.113.7/24');
    await user.click(within(dialog).getByRole('button', { name: 'Send code' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('203.0.113.7/24 is not the start of its range: did you mean 203.0.113.0/24?');
    expect(api.to('PUT user/otp')).toEqual([]);

    await user.clear(field);
    await user.type(field, '2001:DB8:0::1');
    await user.click(within(dialog).getByRole('button', { name: 'Send code' }));
    expect(await within(dialog).findByText('admin@acme.test')).toBeTruthy();
    await user.type(within(dialog).getByLabelText('Verification code'), '123456');
    await user.click(within(dialog).getByRole('button', { name: 'Add address' }));
    await waitFor(() => expect(useToasts.getState().toast.message).toBe('2001:db8::1 added to the allowed addresses'));
    expect(api.to('POST partner/ip-address').map((c) => c.body)).toEqual([{ ipAddress: '2001:db8::1', otp: '123456' }]);
  });

  it('shows a wrong code and keeps the dialog open', async () => {
    signIn('admin');
    mockApi({ ...base([]), 'POST partner/ip-address': apiError(400, 'InvalidOtp', 'The code you entered is incorrect. Try again.') });
    const { user } = renderKeys();
    await screen.findByTestId('ip-addresses-empty');
    await user.click(screen.getByRole('button', { name: 'Add IP address' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('IP address or range'), '203.0.113.7');
    await user.click(within(dialog).getByRole('button', { name: 'Send code' }));
    await user.type(await within(dialog).findByLabelText('Verification code'), '000000');
    await user.click(within(dialog).getByRole('button', { name: 'Add address' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('The code you entered is incorrect. Try again.');
  });

  it('deletes an address with the e-mailed code, warning when it is the last one', async () => {
    signIn('admin');
    const api = mockApi({ ...base(['203.0.113.0/24']), 'DELETE partner/ip-address': { body: { message: 'removed' } } });
    const { user } = renderKeys();
    await screen.findAllByTestId('ip-address-row');
    await user.click(screen.getByRole('button', { name: 'Delete 203.0.113.0/24' }));
    const dialog = await screen.findByRole('dialog');
    // the last address: removing it opens the keys to every address, and the dialog does not also say calls get refused
    expect(dialog.textContent).toContain(
      '203.0.113.0/24 is the last address on the list: once it is removed, the list is empty and your API keys work from any address.',
    );
    expect(dialog.textContent).not.toContain('will be refused');
    await user.click(within(dialog).getByRole('button', { name: 'Send code' }));
    await user.type(await within(dialog).findByLabelText('Verification code'), '654321');
    await user.click(within(dialog).getByRole('button', { name: 'Remove address' }));
    await waitFor(() => expect(api.to('DELETE partner/ip-address')).toHaveLength(1));
    expect(new URLSearchParams(api.to('DELETE partner/ip-address')[0]!.query).get('ipAddress')).toBe('203.0.113.0/24');
    expect(new URLSearchParams(api.to('DELETE partner/ip-address')[0]!.query).get('otp')).toBe('654321');
  });

  it('edits an address: the code is asked for that change, a refusal shows at the field, then PUT partner/ip-address', async () => {
    signIn('admin');
    let refuse = true;
    const api = mockApi({
      ...base(['203.0.113.7', '198.51.100.1']),
      'PUT user/otp': () =>
        refuse
          ? { status: 409, body: { code: 'Conflict', message: '198.51.100.1 is already on the list.', requestId: 'r' } }
          : { body: { message: 'sent', sentTo: 'admin@acme.test', expiresInSeconds: 600 } },
      'PUT partner/ip-address': {
        body: { ipAddress: { ipAddress: '203.0.113.0/24', status: 'whitelisted', createdAt: '2026-11-20T10:00:00.000Z', createdBy: 'admin@acme.test' } },
      },
    });
    const { user } = renderKeys();
    await screen.findAllByTestId('ip-address-row');
    await user.click(screen.getByRole('button', { name: 'Edit 203.0.113.7' }));
    const dialog = await screen.findByRole('dialog');
    const field = within(dialog).getByLabelText('IP address or range');
    expect((field as HTMLInputElement).value).toBe('203.0.113.7');
    await user.clear(field);
    await user.type(field, '198.51.100.1');
    await user.click(within(dialog).getByRole('button', { name: 'Send code' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('198.51.100.1 is already on the list.');
    expect(within(dialog).queryByLabelText('Verification code')).toBeNull();
    refuse = false;
    await user.clear(field);
    await user.type(field, '203.0.113.0/24');
    await user.click(within(dialog).getByRole('button', { name: 'Send code' }));
    await user.type(await within(dialog).findByLabelText('Verification code'), '123456');
    await user.click(within(dialog).getByRole('button', { name: 'Save address' }));
    await waitFor(() => expect(useToasts.getState().toast.message).toBe('203.0.113.7 changed to 203.0.113.0/24'));
    expect(api.to('PUT user/otp').map((c) => c.body)).toEqual([
      { action: 'ip.update', target: { ipAddress: '203.0.113.7', newIpAddress: '198.51.100.1' } },
      { action: 'ip.update', target: { ipAddress: '203.0.113.7', newIpAddress: '203.0.113.0/24' } },
    ]);
    expect(api.to('PUT partner/ip-address').map((c) => c.body)).toEqual([{ ipAddress: '203.0.113.7', newIpAddress: '203.0.113.0/24', otp: '123456' }]);
  });

  it('shows an address’s label, and changes the label alone with the code asked for that label', async () => {
    signIn('admin');
    const api = mockApi({
      ...base([]),
      'GET partner/ip-addresses': {
        body: { ipAddresses: [{ ipAddress: '203.0.113.7', status: 'whitelisted', createdAt: '2026-11-20T10:00:00.000Z', createdBy: null, label: 'Old box' }] },
      },
      'PUT partner/ip-address': {
        body: { ipAddress: { ipAddress: '203.0.113.7', status: 'whitelisted', createdAt: '2026-11-20T10:00:00.000Z', createdBy: null, label: 'Payouts' } },
      },
    });
    const { user } = renderKeys();
    const [row] = await screen.findAllByTestId('ip-address-row');
    expect(row!.textContent).toContain('Old box');
    await user.click(screen.getByRole('button', { name: 'Edit 203.0.113.7' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Send code' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Nothing has changed.');
    const label = within(dialog).getByLabelText('Label (optional)');
    await user.clear(label);
    await user.type(label, ' Payouts ');
    await user.click(within(dialog).getByRole('button', { name: 'Send code' }));
    await user.type(await within(dialog).findByLabelText('Verification code'), '123456');
    await user.click(within(dialog).getByRole('button', { name: 'Save address' }));
    await waitFor(() => expect(api.to('PUT partner/ip-address')).toHaveLength(1));
    expect(api.to('PUT user/otp')[0]!.body).toEqual({
      action: 'ip.update',
      target: { ipAddress: '203.0.113.7', newIpAddress: '203.0.113.7', label: 'Payouts' },
    });
    expect(api.to('PUT partner/ip-address')[0]!.body).toEqual({ ipAddress: '203.0.113.7', newIpAddress: '203.0.113.7', label: 'Payouts', otp: '123456' });
  });
});
