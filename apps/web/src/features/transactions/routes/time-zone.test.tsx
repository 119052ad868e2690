import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SearchRequest } from '@portal/contract/transactions';
import { setDisplayTimeZone } from '../../../lib/format.ts';
import { TimeZoneScope } from '../../../lib/time-zone.tsx';
import { mockApi, type ApiCall } from '../../../testing/api-mock.ts';
import { accounts, payments, profile, searchReply, signIn } from '../../../testing/factories.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { TransactionsScreen } from './transactions.tsx';

// one payment at 2026-11-20T22:30Z: the 20th in UTC, 01:30 on the 21st in Nairobi
const ROWS = payments(1).map((r) => ({ ...r, createdAt: '2026-11-20T22:30:00.000Z' }));
const base = { 'GET partner/profile': { body: profile() }, 'GET partner/accounts': { body: accounts() } };

describe('the time zone of the tables, filters and exports', () => {
  const browserZone = process.env.TZ;
  beforeEach(() => {
    process.env.TZ = 'Africa/Nairobi'; // the browser is in Nairobi
    signIn('view');
  });
  afterEach(() => {
    process.env.TZ = browserZone;
    setDisplayTimeZone(null);
    vi.restoreAllMocks();
  });

  it('shows UTC with the zone written until the user switches; then the table, the date filter and the export follow together', async () => {
    let zone: string | null = null;
    const api = mockApi({
      ...base,
      'POST transactions/search': { body: searchReply(ROWS, 1) },
      'GET user/preferences': () => ({ body: { timeZone: zone, language: null, startScreen: 'transactions' } }),
      'PUT user/preferences': (call: ApiCall) => {
        zone = (call.body as { timeZone: string | null }).timeZone;
        return { body: { timeZone: zone, language: null, startScreen: 'transactions' } };
      },
    });
    const files: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => (files.push(blob as Blob), 'blob:csv'));
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const { user } = renderScreen(
      <TimeZoneScope>
        <TransactionsScreen />
      </TimeZoneScope>,
      { path: '/transactions', url: '/transactions?from=2026-11-21&to=2026-11-21' },
    );
    const line = await screen.findByTestId('time-zone-line');
    expect(line.textContent).toBe('Times in UTC·Use Africa/Nairobi');
    await waitFor(() => expect(screen.getAllByRole('row')[1]!.textContent).toContain('Nov 20, 2026 22:30 UTC'));
    expect(screen.getByLabelText('From (UTC)')).toBeTruthy();
    const searches = () => api.to('POST transactions/search').map((c) => c.body as SearchRequest);
    expect(searches().at(-1)).not.toHaveProperty('timeZone');

    await user.click(within(line).getByRole('button', { name: 'Use Africa/Nairobi' }));
    expect(api.to('PUT user/preferences').map((c) => c.body)).toEqual([{ timeZone: 'Africa/Nairobi' }]);
    await waitFor(() => expect(screen.getByTestId('time-zone-line').textContent).toBe('Times in Africa/Nairobi·Use UTC'));
    await waitFor(() => expect(screen.getAllByRole('row')[1]!.textContent).toContain('Nov 21, 2026 01:30 GMT+3'));
    expect(screen.getByLabelText('From (Africa/Nairobi)')).toBeTruthy();
    expect(screen.getByLabelText('To (Africa/Nairobi)')).toBeTruthy();
    // the same days, now meaning Nairobi's days: the server computes their bounds
    await waitFor(() => expect(searches().at(-1)).toMatchObject({ range: { startDate: '2026-11-21', endDate: '2026-11-21' }, timeZone: 'Africa/Nairobi' }));

    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(files).toHaveLength(1));
    // the export's own request (a search of every row) carries the zone too
    expect(searches().at(-1)).toMatchObject({ size: 1, timeZone: 'Africa/Nairobi' });
    const [header, row] = (await files[0]!.text()).replace(/^\uFEFF/, '').split('\r\n');
    expect(header).toContain('Created (Africa/Nairobi)');
    expect(row).toContain('2026-11-21 01:30:00');

    // and back to UTC
    await user.click(within(screen.getByTestId('time-zone-line')).getByRole('button', { name: 'Use UTC' }));
    await waitFor(() => expect(screen.getByTestId('time-zone-line').textContent).toBe('Times in UTC·Use Africa/Nairobi'));
    expect(zone).toBeNull();
    await waitFor(() => expect(screen.getAllByRole('row')[1]!.textContent).toContain('Nov 20, 2026 22:30 UTC'));
  });
});
