import type { TransactionStatus } from './domain.ts';

/**
 * The statuses of transaction-data §7 in the groups a person thinks in (as a card dashboard groups them): each
 * status in exactly one group. The status filter offers the groups with their statuses under them; checking a group
 * selects its statuses, and a single status may be picked on its own.
 */
export const STATUS_GROUPS: readonly { key: string; label: string; statuses: readonly TransactionStatus[] }[] = [
  {
    key: 'open',
    label: 'Open',
    statuses: ['created', 'pending', 'pending_approval', 'pending_kyc', 'pending_liquidity', 'pending_confirmation', 'pending_hash_confirmation'],
  },
  {
    key: 'in_progress',
    label: 'In progress',
    statuses: ['process', 'processing', 'hash_confirmation_received', 'pending_settlement', 'settlement_pending', 'settlement_processing'],
  },
  { key: 'succeeded', label: 'Succeeded', statuses: ['complete', 'settlement_complete'] },
  { key: 'failed', label: 'Failed', statuses: ['failed', 'denied', 'refund_failed', 'settlement_failed'] },
  { key: 'refunded', label: 'Refunded', statuses: ['pending_refund', 'refund_processing', 'refunded'] },
  { key: 'cancelled', label: 'Cancelled or expired', statuses: ['cancelled', 'expired'] },
];

/**
 * The statuses a payment or collection ends in (succeeded, failed, refunded, cancelled or expired); in any other it is
 * still under way.
 */
export const FINAL_STATUSES: readonly TransactionStatus[] = [
  'complete',
  'settlement_complete',
  'failed',
  'denied',
  'refund_failed',
  'settlement_failed',
  'refunded',
  'cancelled',
  'expired',
];

/** The statuses a status filter holds: its value lists them separated by commas (`failed,refund_failed`); one status alone is the old single value. */
export function statusList(value: string | undefined): string[] {
  if (!value) return [];
  return [
    ...new Set(
      value
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
}

/** The groups of a table's statuses: each group narrowed to the statuses the table offers, empty groups left out. */
export function statusGroupsOf(offered: readonly string[]) {
  return STATUS_GROUPS.map((g) => ({ ...g, statuses: g.statuses.filter((s) => offered.includes(s)) })).filter((g) => g.statuses.length > 0);
}
