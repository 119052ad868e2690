import crypto from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Coin, Network } from '@portal/contract/domain';
import { addDecimal, compareDecimal, minDecimal, normalise } from '@portal/contract/decimal';
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
import {
  WITHDRAWAL_MESSAGES,
  WITHDRAWAL_MIN_USD,
  travelRuleFieldsFor,
  type Settlement,
  type SettlementFeeResponse,
  type SettlementRequest,
} from '@portal/contract/settlements';
import { WALLET_MESSAGES } from '@portal/contract/wallets';
import type { DB } from '../../db/schema.ts';
import { concurrencyGate } from '../../lib/concurrency-gate.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import { normaliseWalletAddress } from '../../lib/wallet-addresses.ts';
import { requireRole, type Auth } from '../../lib/access.ts';
import { liveWalletsByAddress } from '../wallets/index.ts';
import { TRAVEL_RULE_CONFIGS, quote, type Quote } from './pricing.ts';
import type { Notifier } from '../notifications/index.ts';
import type { PartnerAccess } from '../partners/index.ts';
import { renderStatementPdf, type StatementData } from './statement-pdf.ts';
import { recordSettlementChange } from './settlement-changes.ts';
import {
  accountBalance,
  bookIfCovered,
  findRequest,
  lockAccount,
  pendingTotals,
  recentLedgerEntries,
  statementOf,
  type WithdrawalRow,
} from './settlements.repository.ts';

/** PDF statements drawn at once on an instance: per partner, and in all. */
export const STATEMENT_PDF_AT_ONCE = { perKey: 1, total: 2 };

/** Withdrawals come from the USD balance (the default fiat wallet, id 1). */
const CURRENCY = 'USD';
const WITHDRAWING_ROLES = ['admin', 'treasury'] as const;

/** Queues the processing of a new withdrawal in its own transaction. */
export type EnqueueProcessing = (trx: Transaction<DB>, job: { partnerId: string; settlementId: string }) => Promise<void>;

export type SettlementDeps = {
  db: Kysely<DB>;
  now: () => number;
  /** the largest single withdrawal, in USD */
  maxAmount: string;
  enqueueProcessing: EnqueueProcessing;
  /** the partner's name, for the statement's heading (the partners module's port) */
  partners: Pick<PartnerAccess, 'find'>;
  /** tells admins and the requester, and watches the low balance limit, in the withdrawal's transaction */
  notifier: Pick<Notifier, 'notify' | 'who' | 'checkLowBalance'>;
};

export function toSettlement(r: WithdrawalRow): Settlement {
  const s = r.settlement;
  return {
    id: s.id,
    sequenceId: r.sequence_id,
    status: s.status as Settlement['status'],
    type: 'payout',
    amount: normalise(r.amount, 2),
    cryptoCurrency: s.crypto_currency as Coin,
    cryptoNetwork: s.network as Network,
    rate: s.crypto_rate,
    feeAmount: r.fee_amount,
    cryptoAmount: s.crypto_amount,
    walletAddress: s.external_wallet_address,
    walletTag: r.wallet_tag,
    createdAt: s.created_at.toISOString(),
  };
}

/** Inside the booking transaction: the sequenceId was booked by a request that held the lock first (roll back). */
class BookedBefore extends Error {}

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

/**
 * Withdrawals of the USD balance to an enabled settlement wallet. The server decides everything: who may, the
 * wallet, the amount against the balance and the limits, the fee, the travel-rule details. A withdrawal is one
 * transaction (settlement row, request row, ledger debit, the processing job) taken under the account's row lock, so
 * that two requests never spend the same money; the sequenceId makes a request safe to send again.
 */
export function createSettlementService(deps: SettlementDeps) {
  const { db } = deps;
  const now = () => new Date(deps.now());

  /** What the partner can withdraw now: the balance, or the per-withdrawal limit when that is lower. */
  async function maxNow(partnerId: string) {
    const balance = await accountBalance(db, partnerId, CURRENCY);
    const max = minDecimal(normalise(balance, 2), deps.maxAmount);
    return compareDecimal(max, '0') > 0 ? normalise(max, 2) : '0.00';
  }

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
    const s = await db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute((trx) => statementOf(trx, auth.partnerId, CURRENCY, from, to, limit));
    if (!s.entries) throw badRequest(tooLarge(s.count), 'ValidationFailed');
    const money = (v: string) => normalise(v, 2);
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
    travelRule: () => ({ configs: TRAVEL_RULE_CONFIGS }),

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
        const pdf = await renderStatementPdf({ ...s, currency: CURRENCY, partnerName: partner?.name ?? '', generatedAt: now() });
        return { filename: `statement-${CURRENCY}-${q.from}-${q.to}.pdf`, pdf };
      } finally {
        leave();
      }
    },

    /**
     * The Balance screen: the USD balance (the ledger's sum, reservations already taken off), what is reserved and
     * still under way, and the last movements. Every role of the partner may read it, as its accounts; one snapshot.
     */
    async overview(auth: Auth): Promise<BalanceOverview> {
      return db
        .transaction()
        .setIsolationLevel('repeatable read')
        .execute(async (trx) => {
          const available = await accountBalance(trx, auth.partnerId, CURRENCY);
          const pending = await pendingTotals(trx, auth.partnerId);
          const recent = await recentLedgerEntries(trx, auth.partnerId, CURRENCY, RECENT_MOVEMENTS);
          const withdrawals = normalise(pending.withdrawals, 2);
          const disbursements = normalise(pending.disbursements, 2);
          return {
            currency: CURRENCY,
            available: normalise(available, 2),
            pending: { withdrawals, disbursements, total: normalise(addDecimal(withdrawals, disbursements), 2) },
            recent: recent.map((e) => ({
              id: String(e.id),
              kind: e.kind,
              description: ledgerKindLabel(e.kind),
              reference: e.reference,
              amount: normalise(String(e.amount), 2),
              currency: e.currency,
              createdAt: new Date(e.created_at).toISOString(),
            })),
          };
        });
    },

    /** GET partner/settlement/fee: the network fee, with the rate and what arrives. */
    async fee(auth: Auth, q: { cryptoAmount?: string; amount?: string; cryptoCurrency: Coin; cryptoNetwork: Network }): Promise<SettlementFeeResponse> {
      const result = quote(q.cryptoCurrency, q.cryptoNetwork, q.amount !== undefined ? { usd: q.amount } : { crypto: q.cryptoAmount! });
      if (!result) throw badRequest(`Withdrawals in ${q.cryptoCurrency} are not offered: choose a stablecoin wallet`, 'ValidationFailed');
      return { ...result, feeCurrency: q.cryptoCurrency, maxAmount: await maxNow(auth.partnerId) };
    },

    /** POST partner/settlement/withdrawal. `replayed` when the sequenceId was seen before (nothing booked now). */
    async withdraw(auth: Auth, input: SettlementRequest & { sequenceId: string; source: 'dashboard' }): Promise<{ settlement: Settlement; replayed: boolean }> {
      requireRole(auth, ...WITHDRAWING_ROLES);
      const network = input.cryptoNetwork;
      const coin = input.cryptoCurrency;
      const amount = normalise(input.amount, 2);
      const normalised = normaliseWalletAddress(network, input.walletAddress);
      const address = normalised ?? input.walletAddress.trim();
      const travelRule = input.travelRuleInfo ?? null;
      // what makes two requests the same withdrawal
      const fingerprint = sha256(
        JSON.stringify([
          amount,
          address,
          coin,
          network,
          (input.fiatWallet ?? CURRENCY).toUpperCase(),
          input.receivingWallet ?? null,
          travelRule?.name ?? null,
          travelRule?.businessRegistrationNumber ?? null,
        ]),
      );
      const replay = (existing: WithdrawalRow) => {
        if (existing.fingerprint !== fingerprint) throw new AppError(409, 'SequenceIdReused', WITHDRAWAL_MESSAGES.sequenceReused);
        return { settlement: toSettlement(existing), replayed: true };
      };
      /** A request that fails a check may be the copy of one booked earlier (the wallet or the balance changed since). */
      const refuse = async (err: unknown) => {
        if (err instanceof AppError) {
          const seen = await findRequest(db, auth.partnerId, input.sequenceId);
          if (seen) return replay(seen);
        }
        throw err;
      };
      const checked = async () => {
        if (input.fiatWallet && !['USD', '1'].includes(input.fiatWallet.toUpperCase())) {
          throw badRequest('Withdrawals are made from the USD balance: leave fiatWallet empty or send USD', 'ValidationFailed');
        }
        if (!normalised) throw badRequest(WALLET_MESSAGES.invalidAddress, 'InvalidWalletAddress');
        const wallet = (await liveWalletsByAddress(db, auth.partnerId, address, network)).find((w) => w.status === 'enabled');
        if (!wallet) throw badRequest(WITHDRAWAL_MESSAGES.walletNotEnabled, 'WalletNotEnabled');
        if (input.receivingWallet && input.receivingWallet !== wallet.id)
          throw badRequest('receivingWallet is not the wallet of walletAddress', 'ValidationFailed');
        if (!wallet.currencies.includes(coin))
          throw badRequest(`This wallet address receives ${wallet.currencies.join(', ')}, not ${coin}`, 'ValidationFailed');
        const priced = quote(coin, network, { usd: amount });
        if (!priced) throw badRequest(`Withdrawals in ${coin} are not offered: choose a stablecoin wallet`, 'ValidationFailed');
        if (compareDecimal(amount, WITHDRAWAL_MIN_USD) < 0) throw badRequest(WITHDRAWAL_MESSAGES.amountAtLeast, 'ValidationFailed');
        if (compareDecimal(amount, deps.maxAmount) > 0) throw badRequest(WITHDRAWAL_MESSAGES.atMost(deps.maxAmount), 'ValidationFailed');
        if (compareDecimal(priced.receiveAmount, '0') <= 0) throw badRequest(WITHDRAWAL_MESSAGES.feeTooHigh, 'ValidationFailed');
        if (travelRuleFieldsFor(TRAVEL_RULE_CONFIGS, amount).length > 0 && !travelRule)
          throw badRequest(WITHDRAWAL_MESSAGES.travelRuleRequired, 'TravelRuleRequired');
        return { wallet, priced };
      };
      let wallet: Awaited<ReturnType<typeof checked>>['wallet'];
      let priced: Quote;
      try {
        ({ wallet, priced } = await checked());
      } catch (err) {
        return refuse(err);
      }

      const at = now();
      const settlementId = crypto.randomUUID();
      let booked: Settlement;
      try {
        booked = await db.transaction().execute(async (trx) => {
          // what needs no lock comes first, in the same transaction (a refusal below rolls it back): the job
          await deps.enqueueProcessing(trx, { partnerId: auth.partnerId, settlementId });
          // from here on, this partner's USD withdrawals run one at a time until commit
          const account = await lockAccount(trx, auth.partnerId, CURRENCY);
          if (!account) throw new AppError(400, 'InsufficientBalance', WITHDRAWAL_MESSAGES.atMost('0.00'));
          const settlement = {
            partner_id: auth.partnerId,
            id: settlementId,
            created_at: at,
            type: 'payout',
            transaction_hash: null,
            internal_wallet_address: '',
            external_wallet_address: wallet.address,
            crypto_currency: coin,
            crypto_amount: priced.receiveAmount,
            network,
            crypto_rate: priced.rate,
            fiat_amount_usd: amount,
            fiat_amount: amount,
            fiat_rate: '1',
            fiat_wallet: account.fiat_wallets_enabled ? CURRENCY : null,
            sequence_id: input.sequenceId,
          };
          const request = {
            fingerprint,
            wallet_id: wallet.id,
            requested_by: auth.userId,
            amount,
            currency: CURRENCY,
            fee_amount: priced.feeAmount,
            wallet_tag: wallet.tag,
            travel_rule_name: travelRule?.name ?? null,
            travel_rule_registration_number: travelRule?.businessRegistrationNumber ?? null,
          };
          const result = await bookIfCovered(trx, { settlement, request, currency: CURRENCY });
          // a copy of this request that held the lock before this one has booked it: answer with its result
          if (result.booked) throw new BookedBefore();
          if (!result.bookedNow) {
            const max = compareDecimal(result.balance, '0') > 0 ? normalise(minDecimal(result.balance, deps.maxAmount), 2) : '0.00';
            throw new AppError(400, 'InsufficientBalance', WITHDRAWAL_MESSAGES.atMost(max));
          }
          await recordSettlementChange(
            trx,
            { partnerId: auth.partnerId, settlementId, from: null, to: 'pending', actor: { userId: auth.userId, name: auth.email }, at },
            deps.notifier,
          );
          await deps.notifier.checkLowBalance(trx, auth.partnerId, at);
          return toSettlement({
            ...request,
            partner_id: auth.partnerId,
            sequence_id: input.sequenceId,
            settlement_id: settlementId,
            created_at: at,
            failure_reason: null,
            settlement: { ...settlement, status: 'pending', wallet_balance_usd: result.balanceAfter! },
          });
        });
      } catch (err) {
        if (err instanceof BookedBefore) {
          const first = await findRequest(db, auth.partnerId, input.sequenceId);
          if (!first) throw new Error(`sequenceId ${input.sequenceId} was booked but cannot be read`);
          return replay(first);
        }
        return refuse(err);
      }
      return { settlement: booked, replayed: false };
    },
  };
}

export type SettlementService = ReturnType<typeof createSettlementService>;
