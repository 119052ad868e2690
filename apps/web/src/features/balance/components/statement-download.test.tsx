import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STATEMENT_MESSAGES } from '@portal/contract/balance';
import { apiError, mockApi } from '../../../testing/api-mock.ts';
import { signIn } from '../../../testing/factories.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { StatementDownload } from './statement-download.tsx';

describe('the statement download', () => {
  const saved: { name: string; type: string }[] = [];
  beforeEach(() => {
    saved.length = 0;
    // what the browser saves: the file name and type of each download
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: (blob: Blob) => `blob:${blob.type}`, revokeObjectURL: () => undefined }));
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, type: this.href.replace(/^blob:/, '') });
    });
  });
  afterEach(() => vi.restoreAllMocks());

  it('downloads the period as CSV or as PDF, one at a time', async () => {
    signIn('view');
    const api = mockApi({
      'GET partner/balance/statement.csv': { body: {} },
      'GET partner/balance/statement.pdf': { body: {} },
    });
    const { user } = renderScreen(<StatementDownload />, { path: '/balance' });
    const from = `${new Date().toISOString().slice(0, 8)}01`;
    const to = new Date().toISOString().slice(0, 10);
    await user.click(screen.getByRole('button', { name: 'Download PDF' }));
    await waitFor(() => expect(saved).toEqual([{ name: `statement-USD-${from}-${to}.pdf`, type: 'application/pdf' }]));
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(saved.at(-1)).toEqual({ name: `statement-USD-${from}-${to}.csv`, type: 'text/csv;charset=utf-8' }));
    expect(api.to('GET partner/balance/statement.pdf').map((c) => c.query)).toEqual([`from=${from}&to=${to}`]);
  });

  it("says the server's refusal (a PDF too large) and saves nothing", async () => {
    signIn('admin');
    mockApi({ 'GET partner/balance/statement.pdf': apiError(400, 'ValidationFailed', STATEMENT_MESSAGES.tooLargeForPdf(12000)) });
    const { user } = renderScreen(<StatementDownload />, { path: '/balance' });
    await user.click(screen.getByRole('button', { name: 'Download PDF' }));
    expect((await screen.findByRole('alert')).textContent).toBe(STATEMENT_MESSAGES.tooLargeForPdf(12000));
    expect(saved).toEqual([]);
  });
});
