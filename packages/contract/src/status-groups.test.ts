import { describe, expect, it } from 'vitest';
import { SETTLEMENT_STATUSES, TRANSACTION_STATUSES } from './domain.ts';
import { STATUS_GROUPS, statusGroupsOf, statusList, FINAL_STATUSES } from './status-groups.ts';

describe('status groups', () => {
  it('puts every status of the spec in exactly one group, and nothing else', () => {
    const grouped = STATUS_GROUPS.flatMap((g) => g.statuses);
    for (const status of TRANSACTION_STATUSES)
      expect(
        grouped.filter((s) => s === status),
        status,
      ).toHaveLength(1);
    expect(grouped).toHaveLength(TRANSACTION_STATUSES.length);
  });

  it('counts a refund that failed as failed', () => {
    expect(STATUS_GROUPS.find((g) => g.key === 'failed')?.statuses).toEqual(expect.arrayContaining(['failed', 'refund_failed', 'denied']));
  });

  it('narrows the groups to the statuses a table offers', () => {
    const groups = statusGroupsOf(SETTLEMENT_STATUSES);
    expect(groups.flatMap((g) => g.statuses).sort()).toEqual([...SETTLEMENT_STATUSES].sort());
    expect(groups.every((g) => g.statuses.length > 0)).toBe(true);
  });

  it('reads a comma-separated filter value, and an old single value', () => {
    expect(statusList('failed')).toEqual(['failed']);
    expect(statusList(' Failed , refund_failed,,failed')).toEqual(['failed', 'refund_failed']);
    expect(statusList('')).toEqual([]);
    expect(statusList(undefined)).toEqual([]);
  });
});

describe('final statuses', () => {
  it('are the succeeded, failed, cancelled and expired groups with refunded: none open, in progress or refunding', () => {
    const group = (key: string) => STATUS_GROUPS.find((g) => g.key === key)!.statuses;
    expect([...FINAL_STATUSES].sort()).toEqual([...group('succeeded'), ...group('failed'), ...group('cancelled'), 'refunded'].sort());
    for (const status of [...group('open'), ...group('in_progress'), 'pending_refund', 'refund_processing']) expect(FINAL_STATUSES).not.toContain(status);
  });
});
