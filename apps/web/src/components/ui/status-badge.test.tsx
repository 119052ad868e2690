import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { REPORT_STATUSES } from '@portal/contract/transactions';
import { SETTLEMENT_STATUSES, TRANSACTION_STATUSES } from '@portal/contract/domain';
import { StatusBadge, statusTone } from './status-badge.tsx';

describe('status colours', () => {
  it('give every status of the contract one of the five meanings, the same in every table', () => {
    const all = [...TRANSACTION_STATUSES, ...SETTLEMENT_STATUSES, ...REPORT_STATUSES];
    const byTone: Record<string, string[]> = {};
    for (const s of new Set(all)) (byTone[statusTone(s)] ??= []).push(s);
    expect(byTone.success).toEqual(['complete', 'settlement_complete']);
    expect(byTone.danger).toEqual(['failed', 'denied', 'refund_failed', 'settlement_failed']);
    expect(byTone.warning).toEqual(['pending_approval', 'pending_kyc', 'pending_liquidity']);
    expect(byTone.neutral).toEqual(['expired', 'refunded', 'cancelled']);
    expect(byTone.info).toContain('processing');
    expect(byTone.info).toContain('in_progress');
    expect(Object.values(byTone).flat()).toHaveLength(new Set(all).size);
  });
  it('are read case-insensitively, an unknown status grey', () => {
    expect(statusTone('COMPLETE')).toBe('success');
    expect(statusTone('something_new')).toBe('neutral');
    expect(statusTone(undefined)).toBe('neutral');
  });
  it('show the status text with its colour', () => {
    render(<StatusBadge status="failed">Failed</StatusBadge>);
    expect(screen.getByText('Failed').getAttribute('data-tone')).toBe('danger');
  });
});
