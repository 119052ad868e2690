import crypto from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Coin, Network } from '@portal/contract/domain';
import { compareDecimal, minDecimal, normalise, subtractDecimal } from '@portal/contract/decimal';
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
import { AppError, badRequest } from '../../lib/errors.ts';
import { normaliseWalletAddress } from '../../lib/wallet-addresses.ts';
import { requireCan, type Auth } from '../../lib/access.ts';
import type { WalletDirectory } from '../wallets/index.ts';
import { TRAVEL_RULE_CONFIGS, quote, type Quote } from './pricing.ts';
import type { Notifier } from '../notifications/index.ts';
import type { Ledger } from '../ledger/index.ts';
import { recordWithdrawalChange } from './withdrawal-changes.ts';
import { findRequest, insertWithdrawal, type WithdrawalRow } from './withdrawals.repository.ts';

/** Withdrawals come from the USD balance (the default fiat wallet, id 1). */
const CURRENCY = 'USD';

/** Queues the processing of a new withdrawal in its own transaction. */
export type EnqueueProcessing = (trx: Transaction<DB>, job: { partnerId: string; settlementId: string }) => Promise<void>;

export type WithdrawalDeps = {
  db: Kysely<DB>;
  now: () => number;
  /** the largest single withdrawal, in USD */
  maxAmount: string;
  enqueueProcessing: EnqueueProcessing;
  /** the USD account: its lock and balance, and the debit (the ledger module's port) */
  ledger: Pick<Ledger, 'lock' | 'balance' | 'book'>;
  /** tells admins and the requester, and watches the low balance limit, in the withdrawal's transaction */
  notifier: Pick<Notifier, 'notify' | 'who' | 'checkLowBalance'>;
  /** the partner's settlement wallets at an address (the wallets module's port) */
  wallets: Pick<WalletDirectory, 'atAddress'>;
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
export function createWithdrawalService(deps: WithdrawalDeps) {
  const { db, ledger } = deps;
  const now = () => new Date(deps.now());

  /** What the partner can withdraw now: the balance, or the per-withdrawal limit when that is lower. */
  async function maxNow(partnerId: string) {
    const balance = await ledger.balance(partnerId, CURRENCY);
    const max = minDecimal(normalise(balance, 2), deps.maxAmount);
    return compareDecimal(max, '0') > 0 ? normalise(max, 2) : '0.00';
  }

  return {
    travelRule: () => ({ configs: TRAVEL_RULE_CONFIGS }),

    /** GET partner/settlement/fee: the network fee, with the rate and what arrives. */
    async fee(auth: Auth, q: { cryptoAmount?: string; amount?: string; cryptoCurrency: Coin; cryptoNetwork: Network }): Promise<SettlementFeeResponse> {
      const result = quote(q.cryptoCurrency, q.cryptoNetwork, q.amount !== undefined ? { usd: q.amount } : { crypto: q.cryptoAmount! });
      if (!result) throw badRequest(WITHDRAWAL_MESSAGES.coinNotOffered(q.cryptoCurrency), 'ValidationFailed');
      return { ...result, feeCurrency: q.cryptoCurrency, maxAmount: await maxNow(auth.partnerId) };
    },

    /** POST partner/settlement/withdrawal. `replayed` when the sequenceId was seen before (nothing booked now). */
    async withdraw(auth: Auth, input: SettlementRequest & { sequenceId: string; source: 'dashboard' }): Promise<{ settlement: Settlement; replayed: boolean }> {
      requireCan(auth, 'withdraw');
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
          throw badRequest(WITHDRAWAL_MESSAGES.usdOnly, 'ValidationFailed');
        }
        if (!normalised) throw badRequest(WALLET_MESSAGES.invalidAddress, 'InvalidWalletAddress');
        const wallet = (await deps.wallets.atAddress(auth.partnerId, address, network)).find((w) => w.status === 'enabled');
        if (!wallet) throw badRequest(WITHDRAWAL_MESSAGES.walletNotEnabled, 'WalletNotEnabled');
        if (input.receivingWallet && input.receivingWallet !== wallet.id) throw badRequest(WITHDRAWAL_MESSAGES.receivingWalletMismatch, 'ValidationFailed');
        if (!wallet.currencies.includes(coin)) throw badRequest(WITHDRAWAL_MESSAGES.walletReceives(wallet.currencies, coin), 'ValidationFailed');
        const priced = quote(coin, network, { usd: amount });
        if (!priced) throw badRequest(WITHDRAWAL_MESSAGES.coinNotOffered(coin), 'ValidationFailed');
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
          const account = await ledger.lock(trx, auth.partnerId, CURRENCY);
          if (!account) throw new AppError(400, 'InsufficientBalance', WITHDRAWAL_MESSAGES.atMost('0.00'));
          // a refusal is answered with the first result when a copy of this request held the lock first (`refuse`)
          if (compareDecimal(account.balance, amount) < 0) {
            const max = compareDecimal(account.balance, '0') > 0 ? normalise(minDecimal(account.balance, deps.maxAmount), 2) : '0.00';
            throw new AppError(400, 'InsufficientBalance', WITHDRAWAL_MESSAGES.atMost(max));
          }
          const settlement = {
            partner_id: auth.partnerId,
            id: settlementId,
            created_at: at,
            status: 'pending',
            type: 'payout',
            transaction_hash: null,
            internal_wallet_address: '',
            external_wallet_address: wallet.address,
            crypto_currency: coin,
            crypto_amount: priced.receiveAmount,
            network,
            crypto_rate: priced.rate,
            fiat_amount_usd: amount,
            wallet_balance_usd: subtractDecimal(account.balance, amount),
            fiat_amount: amount,
            fiat_rate: '1',
            fiat_wallet: account.fiatWalletsEnabled ? CURRENCY : null,
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
          // a copy of this request that held the lock before this one has booked it: answer with its result
          if (!(await insertWithdrawal(trx, settlement, request))) throw new BookedBefore();
          // the debit after its settlement row, which the database reads to keep the reservation
          await ledger.book(trx, { partnerId: auth.partnerId, currency: CURRENCY, amount: `-${amount}`, kind: 'settlement', reference: settlementId, at });
          await recordWithdrawalChange(
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
            settlement,
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

export type WithdrawalService = ReturnType<typeof createWithdrawalService>;
