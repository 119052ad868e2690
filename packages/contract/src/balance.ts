import { z } from 'zod';
import { DecimalString } from './domain.ts';
import { CalendarDate } from './validation.ts';

/** The Balance screen's overview (GET partner/balance): what is available, what is reserved and still under way, the last movements. */

/** What each kind of ledger entry is, in words a treasurer understands. */
export const LEDGER_KIND_LABELS: Record<string, string> = {
  opening_balance: 'Opening balance',
  settlement: 'Withdrawal to a settlement wallet',
  settlement_reversal: 'Withdrawal failed: amount returned',
  disbursement: 'Payment sent',
  disbursement_fee: 'Payment fee',
  disbursement_reversal: 'Payment not completed: amount returned',
  disbursement_fee_reversal: 'Payment not completed: fee returned',
  disbursement_refund: 'Payment refunded by the recipient side',
  collection: 'Collection received',
  collection_fee: 'Collection fee',
  collection_refund: 'Collection refunded',
  topup: 'Top-up received',
  test_funds: 'Test funds added',
};
export const ledgerKindLabel = (kind: string) => LEDGER_KIND_LABELS[kind] ?? kind;

/** How many recent movements the overview lists. */
export const RECENT_MOVEMENTS = 10;

export const LedgerMovement = z.object({
  id: z.string(),
  kind: z.string(),
  description: z.string(),
  /** The transaction the entry belongs to: a settlement, payment or collection id. */
  reference: z.string(),
  /** Signed: a credit is positive, a debit negative. */
  amount: DecimalString,
  currency: z.string(),
  createdAt: z.string(),
});
export type LedgerMovement = z.infer<typeof LedgerMovement>;

export const BalanceOverview = z.object({
  currency: z.string(),
  /** The sum of the ledger: what can be spent now (reservations are already taken off). */
  available: DecimalString,
  /** Reserved but not finished: withdrawals pending or processing, disbursements not yet final (amount and fee). */
  pending: z.object({ withdrawals: DecimalString, disbursements: DecimalString, total: DecimalString }),
  recent: z.array(LedgerMovement),
});
export type BalanceOverview = z.infer<typeof BalanceOverview>;

/** A statement of the ledger for whole UTC days `from` to `to` (GET partner/balance/statement). */
export const StatementQuery = z.object({
  from: CalendarDate,
  to: CalendarDate,
});
export type StatementQuery = z.infer<typeof StatementQuery>;

/** A statement is built in one piece: a period with more entries than this is refused, asking for a shorter one. */
export const STATEMENT_MAX_ENTRIES = 50_000;
export const STATEMENT_MAX_DAYS = 366;
/** A PDF statement is a document to read and file: at most this many entries (about 360 pages); the CSV holds more. */
export const STATEMENT_PDF_MAX_ENTRIES = 10_000;

export const STATEMENT_MESSAGES = {
  order: 'The period starts after it ends: choose a start day on or before the end day',
  tooLong: `A statement covers at most ${STATEMENT_MAX_DAYS} days: choose a shorter period`,
  tooLarge: (count: number) => `This period has ${count} ledger entries, more than the ${STATEMENT_MAX_ENTRIES} a statement holds: choose a shorter period`,
  tooLargeForPdf: (count: number) =>
    `This period has ${count} ledger entries, more than the ${STATEMENT_PDF_MAX_ENTRIES} a PDF statement holds: choose a shorter period, or download the CSV`,
  pdfBusy: 'A PDF statement of your account is being prepared already. Try again in a few seconds, or download the CSV.',
};

export const STATEMENT_COLUMNS = ['Date (UTC)', 'Description', 'Reference', 'Debit', 'Credit', 'Balance', 'Currency'] as const;
