import crypto from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { compareDecimal, divideDecimal, normalise } from '@portal/contract/decimal';
import {
  PAYMENT_MESSAGES,
  accountNumberProblem,
  cleanAccountNumber,
  RAMP_OF_KIND,
  sandboxOutcome,
  type CollectionInstructions,
  type CollectionRequest,
  type DisbursementRequest,
  type Payment,
  type PaymentKind,
  type PaymentMarketsResponse,
  type PaymentQuote,
} from '@portal/contract/payments';
import type { DB } from '../../db/schema.ts';
import { AppError, badRequest, forbidden, notFound } from '../../lib/errors.ts';
import type { LiveBus } from '../../lib/live-bus.ts';
import { isApiKeyCaller, requireAccess, type Caller } from '../../lib/access.ts';
import type { Notifier } from '../notifications/index.ts';
import type { PartnerAccess } from '../partners/index.ts';
import type { Ledger } from '../ledger/index.ts';
import { PAYMENT_CURRENCY, announce, feeOf, toPayment, totalUsd } from './payment-changes.ts';
import {
  countryEnabled,
  findChannel,
  findNetwork,
  findOrder,
  findOrderBySequence,
  insertFeeRow,
  insertMirrors,
  insertOrder,
  insertTimelineEntry,
  enabledMarkets,
  marketRate,
  networksOfChannel,
  timeline,
  type OrderRow,
} from './payments.repository.ts';

export type PaymentJob = { partnerId: string; id: string };
/** Queues an order's next sandbox step in the given transaction. */
export type EnqueueStep = (trx: Transaction<DB>, job: PaymentJob) => Promise<void>;

export type PaymentDeps = {
  db: Kysely<DB>;
  now: () => number;
  live: LiveBus;
  /** watches the low balance limit when a disbursement reserves its amount */
  notifier: Pick<Notifier, 'checkLowBalance'>;
  enqueueStep: EnqueueStep;
  /** the partner's kind and flags (the partners module's port) */
  partners: Pick<PartnerAccess, 'find'>;
  /** the USD account: its lock and balance, and the disbursement's debits (the ledger module's port) */
  ledger: Pick<Ledger, 'lock' | 'balance' | 'book'>;
};

const INITIATE = { action: 'initiatePayments', permission: 'api_write' } as const;
const READ = { action: 'readPayments', permission: 'api_read' } as const;

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');
const PAYMENT_METHOD: Record<string, string> = { momo: 'mobile_money', bank: 'bank_transfer', eft: 'bank_transfer', p2p: 'bank_transfer', card: 'card' };

/** Thrown inside the booking transaction when the sequenceId was booked first by another request (roll back, replay). */
class BookedBefore extends Error {
  constructor(readonly order: OrderRow) {
    super('booked before');
  }
}

/**
 * Collections and disbursements (portal-core §7). The server decides everything from its own data: who may, the
 * channel and network (active, of the country, the right direction), the partner's enabled countries, the channel's
 * limits, the quote (platform rate and channel fee), and for a disbursement the balance, reserved on the ledger in the
 * transaction that creates it under the USD account's row lock, so that two requests never spend the same money. The
 * sequenceId makes a request safe to send again (the first result is answered).
 */
export function createPaymentService(deps: PaymentDeps) {
  const { db, ledger } = deps;
  const now = () => new Date(deps.now());

  /**
   * Initiating collections and disbursements: a B2B partner, or a whitelisted commercial one, whose flag "collections
   * and disbursement (payments view)" is on, whatever its kind (portal-core §2).
   */
  async function requireEnabledPartner(partnerId: string) {
    const partner = await deps.partners.find(partnerId);
    const kindAllowed = partner ? partner.productTypes.includes('B2B') || (partner.productTypes.includes('COMMERCIAL') && partner.whitelisted) : false;
    if (!partner || !kindAllowed || !partner.flags.paymentsViewEnabled) throw forbidden(PAYMENT_MESSAGES.notEnabled, 'FeatureDisabled');
    return partner;
  }

  /** The quote of an amount through a channel, after the checks every request of the kind passes. */
  async function priced(partnerId: string, kind: PaymentKind, q: { country: string; channelId: string; amount: string }) {
    const channel = await findChannel(db, q.channelId);
    if (
      !channel ||
      channel.status !== 'active' ||
      channel.api_status !== 'active' ||
      channel.country !== q.country ||
      channel.ramp_type !== RAMP_OF_KIND[kind]
    ) {
      throw badRequest(PAYMENT_MESSAGES.channelUnavailable, 'ChannelUnavailable');
    }
    const rate = await marketRate(db, q.country, channel.currency);
    if (!rate || !(await countryEnabled(db, partnerId, rate.id))) throw new AppError(403, 'CountryNotEnabled', PAYMENT_MESSAGES.countryNotEnabled);
    const amount = normalise(q.amount, 2);
    const currency = channel.currency;
    if (compareDecimal(amount, channel.min) < 0) throw badRequest(PAYMENT_MESSAGES.amountBelow(normalise(channel.min, 2), currency), 'AmountOutOfRange');
    if (compareDecimal(amount, channel.max) > 0) throw badRequest(PAYMENT_MESSAGES.amountAbove(normalise(channel.max, 2), currency), 'AmountOutOfRange');
    // the provider's side of the spread: a disbursement buys local currency at `buy`, a collection sells it at `sell`
    const fx = kind === 'disbursement' ? rate.buy : rate.sell;
    const amountUsd = normalise(divideDecimal(amount, fx, 8), 2);
    const feeUsd = normalise(channel.fee_usd, 2);
    const total = totalUsd(kind, amountUsd, feeUsd);
    if (kind === 'collection' && compareDecimal(total, '0') <= 0)
      throw badRequest(PAYMENT_MESSAGES.amountBelow(normalise(channel.min, 2), currency), 'AmountOutOfRange');
    return { channel, amount, currency, rate: normalise(fx, 8), amountUsd, feeUsd, total };
  }

  async function replayOrRefuse(existing: OrderRow, fingerprint: string) {
    if (existing.fingerprint !== fingerprint) throw new AppError(409, 'SequenceIdReused', PAYMENT_MESSAGES.sequenceReused);
    return { payment: toPayment(existing, await timeline(db, existing.partner_id, existing.id)), replayed: true };
  }

  type Draft = Omit<OrderRow, 'partner_id' | 'id' | 'status' | 'created_at' | 'updated_at' | 'instructions'> & {
    instructions: (id: string) => CollectionInstructions | null;
  };

  /** Books the order in one transaction: the row, its mirrors, the reservation, the events and the first step. */
  /** What every order takes from its request and its price: kind, sandbox outcome, amounts, rate, fee and channel. */
  function ordered(kind: PaymentKind, input: { sequenceId: string; country: string }, fingerprint: string, p: Awaited<ReturnType<typeof priced>>) {
    return {
      kind,
      outcome: sandboxOutcome(p.amount),
      sequence_id: input.sequenceId,
      fingerprint,
      country: input.country,
      currency: p.currency,
      amount: p.amount,
      rate: p.rate,
      amount_usd: p.amountUsd,
      fee_usd: p.feeUsd,
      channel_id: p.channel.id,
      channel_type: p.channel.channel_type,
      payment_method: PAYMENT_METHOD[p.channel.channel_type] ?? p.channel.channel_type,
    };
  }

  async function book(caller: Caller, kind: PaymentKind, draft: Draft): Promise<{ payment: Payment; replayed: boolean }> {
    const at = now();
    const id = crypto.randomUUID();
    const partnerId = caller.partnerId;
    try {
      const row = await db.transaction().execute(async (trx) => {
        let fiatWallet: string | null = null;
        if (kind === 'disbursement') {
          // from here on, this partner's USD spending runs one request at a time until commit
          const account = await ledger.lock(trx, partnerId, PAYMENT_CURRENCY);
          if (!account) throw new AppError(400, 'InsufficientBalance', PAYMENT_MESSAGES.insufficientBalance('0.00'));
          fiatWallet = account.fiatWalletsEnabled ? PAYMENT_CURRENCY : null;
          const first = await findOrderBySequence(trx, partnerId, kind, draft.sequence_id);
          if (first) throw new BookedBefore(first);
          const { balance } = account;
          if (compareDecimal(balance, totalUsd(kind, draft.amount_usd, draft.fee_usd)) < 0) {
            throw new AppError(400, 'InsufficientBalance', PAYMENT_MESSAGES.insufficientBalance(normalise(balance, 2)));
          }
        }
        const { instructions, ...rest } = draft;
        const inserted = await insertOrder(trx, {
          ...rest,
          reference: rest.reference || defaultReference(kind, id),
          partner_id: partnerId,
          id,
          status: 'created',
          instructions: JSON.stringify(instructions(id)),
          created_at: at,
          updated_at: at,
        });
        if (!inserted) {
          const first = await findOrderBySequence(trx, partnerId, kind, draft.sequence_id);
          throw first ? new BookedBefore(first) : new Error('sequenceId taken but not readable');
        }
        await insertMirrors(trx, inserted, fiatWallet);
        await insertTimelineEntry(trx, partnerId, id, 'created', at);
        if (kind === 'disbursement') {
          await ledger.book(trx, { partnerId, currency: PAYMENT_CURRENCY, amount: `-${inserted.amount_usd}`, kind: 'disbursement', reference: id, at });
          if (compareDecimal(inserted.fee_usd, '0') > 0) {
            // the fee is taken now: Fees lists it from this moment
            await insertFeeRow(trx, feeOf(inserted, fiatWallet, at));
            await ledger.book(trx, {
              partnerId,
              currency: PAYMENT_CURRENCY,
              amount: `-${inserted.fee_usd}`,
              kind: 'disbursement_fee',
              reference: id,
              at,
            });
          }
        }
        if (kind === 'disbursement') await deps.notifier.checkLowBalance(trx, partnerId, at);
        await announce(trx, deps.live, inserted, at);
        await deps.enqueueStep(trx, { partnerId, id });
        return inserted;
      });
      return { payment: toPayment(row, [{ status: 'created', at }]), replayed: false };
    } catch (err) {
      if (err instanceof BookedBefore) return replayOrRefuse(err.order, draft.fingerprint);
      throw err;
    }
  }

  const sourceOf = (caller: Caller) => (isApiKeyCaller(caller) ? 'api' : 'portal');
  const actorOf = (caller: Caller) => (isApiKeyCaller(caller) ? `api key ${caller.apiKey}` : caller.email);

  async function readyToBook(caller: Caller, kind: PaymentKind, sequenceId: string, fingerprint: string) {
    requireAccess(caller, INITIATE);
    await requireEnabledPartner(caller.partnerId);
    // a request sent again after its checks would now fail (a changed balance, a channel paused) answers the first
    const seen = await findOrderBySequence(db, caller.partnerId, kind, sequenceId);
    return seen ? replayOrRefuse(seen, fingerprint) : undefined;
  }

  return {
    /**
     * Who may initiate (or quote) payments, decided before the request's body or query is read: the role or the key's
     * permission, then the partner's kind and flag. The routes call it first, so that a caller without access learns
     * nothing from a validation message, a channel or a country; each method checks again.
     */
    async requireInitiation(caller: Caller, access: 'read' | 'write') {
      requireAccess(caller, access === 'write' ? INITIATE : READ);
      await requireEnabledPartner(caller.partnerId);
    },

    /** GET partner/payments/quote: what a payment of an amount would cost or bring, before confirming it. */
    /** GET partner/payments/markets: the countries (with their currency) the partner may pay in, so a form offers no refused one. */
    async markets(caller: Caller): Promise<PaymentMarketsResponse> {
      requireAccess(caller, READ);
      await requireEnabledPartner(caller.partnerId);
      return { markets: await enabledMarkets(db, caller.partnerId) };
    },

    async quote(caller: Caller, q: { kind: PaymentKind; country: string; channelId: string; amount: string }): Promise<PaymentQuote> {
      requireAccess(caller, READ);
      await requireEnabledPartner(caller.partnerId);
      const p = await priced(caller.partnerId, q.kind, q);
      const balance = normalise(await ledger.balance(caller.partnerId, PAYMENT_CURRENCY), 2);
      return {
        kind: q.kind,
        country: q.country,
        currency: p.currency,
        amount: p.amount,
        rate: p.rate,
        amountUsd: p.amountUsd,
        feeUsd: p.feeUsd,
        totalUsd: p.total,
        min: normalise(p.channel.min, 2),
        max: normalise(p.channel.max, 2),
        balanceUsd: balance,
      };
    },

    /** POST partner/disbursement. `replayed` when the sequenceId was seen before (nothing booked now). */
    async disburse(caller: Caller, input: DisbursementRequest) {
      const fingerprint = sha256(
        JSON.stringify([
          'disbursement',
          input.country,
          input.channelId,
          input.networkId,
          input.accountNumber.trim(),
          input.recipient.name,
          normalise(input.amount, 2),
          input.reference ?? null,
        ]),
      );
      const seen = await readyToBook(caller, 'disbursement', input.sequenceId, fingerprint);
      if (seen) return seen;
      const p = await priced(caller.partnerId, 'disbursement', input);
      const network = await findNetwork(db, input.networkId);
      if (
        !network ||
        network.status !== 'active' ||
        network.country !== input.country ||
        !network.channel_ids.includes(p.channel.id) ||
        network.temp_disabled_for.includes('withdraw')
      ) {
        throw badRequest(PAYMENT_MESSAGES.networkUnavailable, 'ChannelUnavailable');
      }
      const accountType = network.account_number_type as keyof typeof PAYMENT_MESSAGES.accountNumber;
      const accountNumber = cleanAccountNumber(accountType, input.accountNumber);
      const accountProblem = accountNumberProblem(accountType, accountNumber);
      if (accountProblem) throw badRequest(accountProblem, 'ValidationFailed');
      return book(caller, 'disbursement', {
        ...ordered('disbursement', input, fingerprint, p),
        network_id: network.id,
        network_name: network.name,
        account_number: accountNumber,
        account_type: accountType,
        counterparty_name: input.recipient.name.trim(),
        reference: input.reference?.trim() || '',
        source: sourceOf(caller),
        failure_reason: null,
        created_by: actorOf(caller),
        instructions: () => null,
      });
    },

    /** POST partner/collection: the order and the instructions the payer needs. */
    async collect(caller: Caller, input: CollectionRequest) {
      const fingerprint = sha256(
        JSON.stringify([
          'collection',
          input.country,
          input.channelId,
          input.accountNumber?.trim() ?? null,
          input.payer.name,
          normalise(input.amount, 2),
          input.reference ?? null,
        ]),
      );
      const seen = await readyToBook(caller, 'collection', input.sequenceId, fingerprint);
      if (seen) return seen;
      const p = await priced(caller.partnerId, 'collection', input);
      const momo = p.channel.channel_type === 'momo';
      const accountType = momo ? 'phone' : 'bank';
      const accountNumber = input.accountNumber ? cleanAccountNumber(accountType, input.accountNumber) : null;
      if (momo && !accountNumber) throw badRequest(PAYMENT_MESSAGES.phoneNeeded, 'ValidationFailed');
      const accountProblem = accountNumber ? accountNumberProblem(accountType, accountNumber) : undefined;
      if (accountProblem) throw badRequest(accountProblem, 'ValidationFailed');
      const bank = momo ? undefined : (await networksOfChannel(db, input.country, p.channel.id))[0];
      const reference = input.reference?.trim() || '';
      return book(caller, 'collection', {
        ...ordered('collection', input, fingerprint, p),
        network_id: bank?.id ?? null,
        network_name: bank?.name ?? null,
        account_number: accountNumber,
        account_type: accountNumber ? accountType : null,
        counterparty_name: input.payer.name.trim(),
        reference,
        source: sourceOf(caller),
        failure_reason: null,
        created_by: actorOf(caller),
        instructions: (id) => {
          const ref = reference || defaultReference('collection', id);
          return momo
            ? {
                type: 'mobile_money',
                prompt: `A payment prompt for ${p.currency} ${p.amount} is sent to ${accountNumber}: the payer approves it with their mobile-money PIN.`,
                phoneNumber: accountNumber,
                reference: ref,
                amount: p.amount,
                currency: p.currency,
              }
            : {
                type: 'bank_transfer',
                bankName: bank?.name ?? 'Sandbox Bank',
                accountName: 'Partner collections (sandbox)',
                accountNumber: virtualAccount(id),
                reference: ref,
                amount: p.amount,
                currency: p.currency,
              };
        },
      });
    },

    /** GET collections/{id}, GET disbursements/{id}: the order of the caller's partner, with its timeline. */
    async byId(caller: Caller, kind: PaymentKind, id: string): Promise<Payment> {
      requireAccess(caller, READ);
      const row = await findOrder(db, caller.partnerId, id);
      if (!row || row.kind !== kind) throw notFound(PAYMENT_MESSAGES.notFound);
      return toPayment(row, await timeline(db, caller.partnerId, id));
    },
  };
}

/** The reference the payer or recipient sees when the partner gives none. */
const defaultReference = (kind: PaymentKind, id: string) => `${kind === 'collection' ? 'COL' : 'PAY'}-${id.slice(0, 8).toUpperCase()}`;
/** The sandbox's virtual account number of a collection (ten digits from its id). */
const virtualAccount = (id: string) => `99${(BigInt(`0x${id.replace(/-/g, '').slice(0, 12)}`) % 10n ** 8n).toString().padStart(8, '0')}`;

export type PaymentService = ReturnType<typeof createPaymentService>;
