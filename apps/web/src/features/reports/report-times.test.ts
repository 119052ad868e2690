import { describe, expect, it } from 'vitest';
import { formatDate } from '../../lib/format.ts';
import { expiryText, periodText } from './report-times.ts';

describe('report times', () => {
  it('write a period as whole days', () => {
    expect(periodText('2026-10-24', '2026-11-23')).toBe('Oct 24 – Nov 23, 2026');
    expect(periodText('2025-12-30', '2026-01-02')).toBe('Dec 30, 2025 – Jan 2, 2026');
    expect(periodText('2026-11-23', '2026-11-23')).toBe('Nov 23, 2026');
  });

  it('say when a file expires, how long is left, and what happens to a report still being built', () => {
    const now = Date.parse('2026-11-23T10:00:00Z');
    expect(expiryText({ status: 'complete', expiresAt: '2026-11-24T09:15:00.000Z' }, now)).toEqual({
      main: formatDate('2026-11-24T09:15:00.000Z'),
      sub: 'in 23 h 15 min',
    });
    expect(expiryText({ status: 'complete', expiresAt: '2026-11-23T10:12:30.000Z' }, now).sub).toBe('in 12 min');
    expect(expiryText({ status: 'complete', expiresAt: '2026-11-23T11:00:00.000Z' }, now).sub).toBe('in 1 h');
    expect(expiryText({ status: 'complete', expiresAt: '2026-11-23T10:00:20.000Z' }, now).sub).toBe('in less than a minute');
    expect(expiryText({ status: 'expired', expiresAt: '2026-11-22T09:00:00.000Z' }, now)).toEqual({
      main: 'Expired',
      sub: formatDate('2026-11-22T09:00:00.000Z'),
    });
    expect(expiryText({ status: 'in_progress', expiresAt: null }, now)).toEqual({ main: '24 hours after it is ready' });
    expect(expiryText({ status: 'failed', expiresAt: null }, now)).toEqual({ main: '—' });
  });
});
