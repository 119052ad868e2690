import { addDecimal, normalise } from '@portal/contract/decimal';
import {
  RECENT_MOVEMENTS,
  STATEMENT_COLUMNS,
  STATEMENT_MAX_DAYS,
  STATEMENT_MAX_ENTRIES,
  STATEMENT_MESSAGES,
  STATEMENT_PDF_MAX_ENTRIES,
  ledgerKindLabel,
  type BalanceOverview,
  type StatementQuery,
} from '@portal/contract/balance';
import { CSV_BOM, csvLine } from '@portal/contract/csv';
import { dayRangeInZone } from '@portal/contract/time-zone';
import { concurrencyGate } from '../../lib/concurrency-gate.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import { accountOf, requireCan, type Auth } from '../../lib/access.ts';
import type { TestFundsResponse } from '@portal/contract/test-mode';
import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { Ledger } from './ledger.service.ts';
import { renderStatementPdf, type StatementData } from './statement-pdf.ts';

/** PDF statements drawn at once on an instance: per partner, and in all. */
const STATEMENT_PDF_AT_ONCE = { perKey: 1, total: 2 };

/** The Balance screen and the statement are of the USD balance (the default fiat wallet, id 1). */
const CURRENCY = 'USD';
/** The ledger kind of test money (test mode): only ever booked on a test partner. */
const TEST_FUNDS_KIND = 'test_funds';

export type BalanceDeps = {
  ledger: Pick<Ledger, 'overview' | 'statement' | 'open' | 'bookOnce' | 'balance'>;
  /** the account's test side, and a transaction to book its test money in (test mode) */
  testFunds: { testPartnerOf(livePartnerId: string): Promise<string>; transaction<T>(work: (trx: Transaction<DB>) => Promise<T>): Promise<T> };
  /** the partner's name, for the statement's heading (the partners module's port) */
  partners: { find: (partnerId: string) => Promise<{ name: string } | undefined> };
  now: () => number;
};

/**
 * What the Balance screen reads: the balance with what is under way and the last movements, and the statement of
 * whole UTC days as CSV or PDF. Every role of the partner may read them, as its accounts.
 */
export function createBalanceService(deps: BalanceDeps) {
  const { ledger } = deps;
  const money = (v: string) => normalise(v, 2);

  /**
   * A statement's lines for whole UTC days, in one snapshot: the opening balance, each entry with what it was, the
   * transaction it belongs to, debit or credit and the running balance, and the closing balance (two decimals). A
   * period with more than STATEMENT_MAX_ENTRIES entries is refused (400) rather than held in memory. The CSV and the
   * PDF are both made from it.
   */
  async function statement(auth: Auth, q: StatementQuery, limit = STATEMENT_MAX_ENTRIES, tooLarge = STATEMENT_MESSAGES.tooLarge): Promise<StatementData> {
    // real days (the query schema), whole UTC days: the same bounds the transaction searches use
    if (q.from > q.to) throw badRequest(STATEMENT_MESSAGES.order, 'ValidationFailed');
    const { from, to } = dayRangeInZone(q.from, q.to);
    if ((to.getTime() - from.getTime()) / 86_400_000 > STATEMENT_MAX_DAYS) throw badRequest(STATEMENT_MESSAGES.tooLong, 'ValidationFailed');
    const s = await ledger.statement(auth.partnerId, CURRENCY, from, to, limit);
    if (!s.entries) throw badRequest(tooLarge(s.count), 'ValidationFailed');
    const opening = money(s.opening);
    const lines = s.entries.map((e) => {
      const amount = money(e.amount);
      const debit = amount.startsWith('-');
      return {
        at: new Date(e.created_at).toISOString().replace('T', ' ').slice(0, 19),
        description: ledgerKindLabel(e.kind),
        reference: e.reference,
        debit: debit ? amount.slice(1) : '',
        credit: debit ? '' : amount,
        balance: money(e.running),
      };
    });
    return { from: q.from, to: q.to, opening, lines, closing: lines.at(-1)?.balance ?? opening };
  }

  const pdfGate = concurrencyGate(STATEMENT_PDF_AT_ONCE);

  return {
    /**
     * POST partner/test-funds: test money on the account's test side (admin, treasury), from either view: a ledger
     * entry of its own kind, so that the test side's books add up as the live side's do. Never the live side: the
     * partner is the account's test partner, whatever the call's. A reference already booked adds nothing (a retry).
     */
    async addTestFunds(auth: Auth, input: { amount: string; reference: string }): Promise<TestFundsResponse> {
      requireCan(auth, 'addTestFunds');
      const partnerId = await deps.testFunds.testPartnerOf(accountOf(auth));
      const amount = money(input.amount);
      return deps.testFunds.transaction(async (trx) => {
        await ledger.open(trx, partnerId, CURRENCY);
        const added = await ledger.bookOnce(trx, {
          partnerId,
          currency: CURRENCY,
          amount,
          kind: TEST_FUNDS_KIND,
          reference: input.reference,
          at: new Date(deps.now()),
        });
        return { currency: CURRENCY, amount, added, balance: money(await ledger.balance(partnerId, CURRENCY, trx)) };
      });
    },

    /**
     * The Balance screen: the USD balance (the ledger's sum, reservations already taken off), what is reserved and
     * still under way, and the last movements, in one snapshot.
     */
    async overview(auth: Auth): Promise<BalanceOverview> {
      const { available, pending, recent } = await ledger.overview(auth.partnerId, CURRENCY, RECENT_MOVEMENTS);
      const withdrawals = money(pending.withdrawals);
      const disbursements = money(pending.disbursements);
      return {
        currency: CURRENCY,
        available: money(available),
        pending: { withdrawals, disbursements, total: money(addDecimal(withdrawals, disbursements)) },
        recent: recent.map((e) => ({
          id: String(e.id),
          kind: e.kind,
          description: ledgerKindLabel(e.kind),
          reference: e.reference,
          amount: money(String(e.amount)),
          currency: e.currency,
          createdAt: new Date(e.created_at).toISOString(),
        })),
      };
    },

    /**
     * The USD statement of whole UTC days as CSV: the opening balance, each entry (date, what it was, the transaction
     * it belongs to, debit or credit, the running balance) and the closing balance.
     */
    async statementCsv(auth: Auth, q: StatementQuery): Promise<{ filename: string; csv: string }> {
      const s = await statement(auth, q);
      let out = CSV_BOM + csvLine(STATEMENT_COLUMNS);
      out += csvLine([`${s.from} 00:00:00`, 'Opening balance', '', '', '', s.opening, CURRENCY]);
      for (const l of s.lines) out += csvLine([l.at, l.description, l.reference, l.debit, l.credit, l.balance, CURRENCY]);
      out += csvLine([`${s.to} 23:59:59`, 'Closing balance', '', '', '', s.closing, CURRENCY]);
      return { filename: `statement-${CURRENCY}-${q.from}-${q.to}.csv`, csv: out };
    },

    /**
     * The same statement as a PDF a treasurer files: the partner, the period, the lines, totals, page numbers. Drawing
     * one near its cap takes seconds of this process's CPU: one at a time per partner and two in all on an instance;
     * past that, 429 with Retry-After (the CSV is never bounded so).
     */
    async statementPdf(auth: Auth, q: StatementQuery): Promise<{ filename: string; pdf: Buffer }> {
      const leave = pdfGate.enter(auth.partnerId);
      if (!leave) throw new AppError(429, 'TooManyRequests', STATEMENT_MESSAGES.pdfBusy);
      try {
        const s = await statement(auth, q, STATEMENT_PDF_MAX_ENTRIES, STATEMENT_MESSAGES.tooLargeForPdf);
        const partner = await deps.partners.find(auth.partnerId);
        const pdf = await renderStatementPdf({ ...s, currency: CURRENCY, partnerName: partner?.name ?? '', generatedAt: new Date(deps.now()) });
        return { filename: `statement-${CURRENCY}-${q.from}-${q.to}.pdf`, pdf };
      } finally {
        leave();
      }
    },
  };
}

export type BalanceService = ReturnType<typeof createBalanceService>;
