import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ReportJob } from '@portal/contract/transactions';
import { formatDate, setDisplayTimeZone } from '../../../lib/format.ts';
import { apiError, mockApi } from '../../../testing/api-mock.ts';
import { PARTNER_ID, USER_ID, signIn } from '../../../testing/factories.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { DataDownloadScreen } from './data-download.tsx';
import { inFrench } from '../../../testing/french.ts';

const now = Date.now();
const job = (status: ReportJob['status'], overrides: Partial<ReportJob> = {}): ReportJob => ({
  id: crypto.randomUUID(),
  partnerId: PARTNER_ID,
  status,
  requestedByEmail: 'admin@acme.test',
  requestedById: USER_ID,
  startDate: '2026-10-01',
  endDate: '2026-10-31',
  dataSource: 'collections',
  filters: {},
  expiresAt: null,
  downloadURL: null,
  totalPages: 4,
  processedPages: 0,
  rowCount: null,
  timeZone: 'UTC',
  createdAt: new Date(now - 3600_000).toISOString(),
  ...overrides,
});

describe('data-download screen', () => {
  beforeEach(() => signIn('view'));

  it('shows each report with its status badge, its period in UTC days and when its file expires', async () => {
    const expiresAt = new Date(now + 5 * 3600_000 + 30_000).toISOString();
    const jobs = [
      job('in_progress', { dataSource: 'fees', processedPages: 1 }),
      job('complete', { dataSource: 'payments', rowCount: 18250, expiresAt, downloadURL: '/api/v1/report-jobs/x/download' }),
      job('expired', { dataSource: 'settlements', expiresAt: new Date(now - 3600_000).toISOString() }),
      job('failed', { filters: { status: 'complete' } }),
    ];
    const api = mockApi({ 'POST report-jobs': { body: { jobs, total: jobs.length } }, 'POST report-jobs/create': { body: { job: job('requested') } } });
    const { user } = renderScreen(<DataDownloadScreen />, { path: '/data-download' });
    const rows = await screen.findAllByTestId('report-row');
    expect(rows).toHaveLength(4);
    const cells = (i: number) => within(rows[i]!);
    expect(rows.map((r) => r.querySelector('[data-tone]')?.getAttribute('data-tone'))).toEqual(['info', 'success', 'neutral', 'danger']);
    expect(rows.map((r) => r.querySelector('[data-tone]')?.textContent)).toEqual(['In Progress', 'Complete', 'Expired', 'Failed']);
    expect(cells(0).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('25');
    expect(cells(1).getByText('Oct 1 – 31, 2026')).toBeTruthy();
    expect(cells(1).getByTestId('report-expires').textContent).toContain(formatDate(expiresAt));
    expect(cells(1).getByTestId('report-expires').textContent).toContain('in 5 h');
    expect(cells(0).getByTestId('report-expires').textContent).toContain('24 hours after it is ready');
    expect(cells(2).getByTestId('report-expires').textContent).toContain('Expired');
    expect(cells(1).getByText('18,250')).toBeTruthy();
    expect(cells(1).getByRole('button', { name: /^Download Payments/ })).toBeTruthy();
    expect(cells(2).queryByRole('button', { name: /^Download/ })).toBeNull();

    // a failed report is asked for again with its own data, period and filters
    await user.click(cells(3).getByRole('button', { name: /again$/ }));
    await waitFor(() => expect(api.to('POST report-jobs/create')).toHaveLength(1));
    expect(api.to('POST report-jobs/create')[0]!.body).toEqual({
      dataSource: 'collections',
      startDate: '2026-10-01',
      endDate: '2026-10-31',
      filters: { status: 'complete' },
      timeZone: 'UTC',
    });
  });

  it("asks for a report in the user's zone, says which, and shows each report's own zone", async () => {
    setDisplayTimeZone('Africa/Nairobi');
    try {
      const jobs = [job('complete', { timeZone: 'Africa/Nairobi' }), job('complete', { timeZone: 'UTC' })];
      const api = mockApi({ 'POST report-jobs': { body: { jobs, total: jobs.length } }, 'POST report-jobs/create': { body: { job: job('requested') } } });
      const { user } = renderScreen(<DataDownloadScreen />, { path: '/data-download' });
      const rows = await screen.findAllByTestId('report-row');
      expect(rows[0]!.textContent).toContain('Oct 1 – 31, 2026Africa/Nairobi');
      expect(rows[1]!.textContent).toContain('Oct 1 – 31, 2026UTC');
      expect(screen.getByLabelText('From (Africa/Nairobi)')).toBeTruthy();
      expect(screen.getByLabelText('To (Africa/Nairobi)')).toBeTruthy();
      await user.click(screen.getByRole('button', { name: /^Request/ }));
      await waitFor(() => expect(api.to('POST report-jobs/create')).toHaveLength(1));
      expect(api.to('POST report-jobs/create')[0]!.body).toMatchObject({ timeZone: 'Africa/Nairobi' });
    } finally {
      setDisplayTimeZone(null);
    }
  });

  it("shows the server's refusal of a request in words", async () => {
    mockApi({
      'POST report-jobs': { body: { jobs: [], total: 0 } },
      'POST report-jobs/create': apiError(400, 'ValidationFailed', 'The end date must be on or after the start date.'),
    });
    const { user } = renderScreen(<DataDownloadScreen />, { path: '/data-download' });
    await screen.findByText('No reports yet');
    await user.click(screen.getByRole('button', { name: 'Request report' }));
    expect(await screen.findByText('The end date must be on or after the start date.')).toBeTruthy();
  });
});

describe('data-download screen in French', () => {
  inFrench('view');

  it('writes the form, the list, the statuses, the counts and the expiry in French', async () => {
    const expiresAt = new Date(now + 5 * 3600_000 + 30_000).toISOString();
    const jobs = [
      job('in_progress', { dataSource: 'fees', processedPages: 1 }),
      job('complete', { dataSource: 'payments', rowCount: 18250, expiresAt, downloadURL: '/api/v1/report-jobs/x/download' }),
      job('failed'),
    ];
    mockApi({ 'POST report-jobs': { body: { jobs, total: jobs.length } } });
    renderScreen(<DataDownloadScreen />, { path: '/data-download' });
    const rows = await screen.findAllByTestId('report-row');
    expect(screen.getByRole('heading', { name: 'Demander un téléchargement de données' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Demander le rapport' })).toBeTruthy();
    expect(screen.getByLabelText('Du (UTC)')).toBeTruthy();
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Demandé le',
      'Données',
      'Période',
      'Statut',
      'Lignes',
      'Expiration',
      'Action',
    ]);
    expect(rows.map((r) => r.querySelector('[data-tone]')?.textContent)).toEqual(['En cours', 'Terminé', 'Échoué']);
    expect(within(rows[0]!).getByRole('progressbar').getAttribute('aria-label')).toBe('En cours\u00a0: 1 pages sur 4');
    expect(within(rows[0]!).getByTestId('report-expires').textContent).toContain('24 heures après sa préparation');
    expect(rows[1]!.textContent).toContain('Lignes18\u202f250');
    expect(within(rows[1]!).getByText('Paiements')).toBeTruthy();
    expect(within(rows[1]!).getByTestId('report-expires').textContent).toContain('dans 5\u00a0h');
    expect(within(rows[1]!).getByTestId('report-expires').textContent).toContain(formatDate(expiresAt));
    expect(formatDate(expiresAt)).toMatch(/^\d{1,2} [a-zéû.]+ \d{4}, \d{2}:\d{2} UTC$/);
    expect(within(rows[1]!).getByRole('button', { name: /^Télécharger Paiements .*oct\. 2026$/ })).toBeTruthy();
    expect(within(rows[2]!).getByRole('button', { name: /^Redemander Encaissements/ })).toBeTruthy();
  });
});
