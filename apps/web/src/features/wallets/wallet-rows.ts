import type { Coin } from '@portal/contract/domain';
import type { SettlementWallet, WalletStatus } from '@portal/contract/wallets';
import type { BadgeTone } from '../../components/ui/badge.tsx';

/** The wallets table: one row per currency of a wallet (portal-core §3), the memo only on Stellar. */
export type WalletTableRow = { key: string; wallet: SettlementWallet; currency: Coin; memo: string | null };

export function walletRows(wallets: readonly SettlementWallet[], options: { showDeleted: boolean }): WalletTableRow[] {
  return wallets
    .filter((w) => options.showDeleted || w.status !== 'deleted')
    .flatMap((wallet) =>
      wallet.currencies.map((currency) => ({ key: `${wallet.id}:${currency}`, wallet, currency, memo: wallet.network === 'XLM' ? wallet.tag : null })),
    );
}

export const WALLETS_PAGE_SIZE = 10;

/**
 * The table's start index (1-based, portal-core §9): back to 1 when there are 10 entries or fewer, and never past
 * the last page's first entry (after a deletion, say).
 */
export function clampStartIndex(startIndex: number, total: number): number {
  if (total <= WALLETS_PAGE_SIZE) return 1;
  const lastStart = Math.floor((total - 1) / WALLETS_PAGE_SIZE) * WALLETS_PAGE_SIZE + 1;
  return Math.min(Math.max(1, startIndex), lastStart);
}

export const pageRows = <T>(rows: readonly T[], startIndex: number) => rows.slice(startIndex - 1, startIndex - 1 + WALLETS_PAGE_SIZE);

export const STATUS_TONES: Record<WalletStatus, BadgeTone> = {
  pending_approval: 'warning',
  pending_screening: 'brand',
  enabled: 'success',
  disabled: 'neutral',
  denied: 'danger',
  deleted: 'neutral',
};

/** The wallets the signed-in user may review now (the server says which: not the creator's own, admin or treasury). */
export const reviewable = (wallets: readonly SettlementWallet[] | undefined) => (wallets ?? []).filter((w) => w.status === 'pending_approval' && w.canReview);

/** A long address shortened for a narrow cell: the start and the end, which people compare. */
export const shortAddress = (address: string) => (address.length > 20 ? `${address.slice(0, 10)}…${address.slice(-8)}` : address);
