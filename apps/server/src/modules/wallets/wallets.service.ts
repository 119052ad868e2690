import crypto from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { Network, type Role } from '@portal/contract/domain';
import {
  MAX_ENABLED_WALLETS_PER_PAIR,
  NETWORK_CURRENCIES,
  WALLET_MESSAGES,
  type CreateWalletRequest,
  type DeleteWalletRequest,
  type SettlementWallet,
  type UpdateWalletRequest,
  type WalletStatusUpdateRequest,
} from '@portal/contract/wallets';
import { OTP_MESSAGES, type OtpPurpose } from '@portal/contract/otp';
import { coinNetworkLabel } from '@portal/contract/labels';
import type { DB } from '../../db/schema.ts';
import { auditChange } from '../../lib/audit.repository.ts';
import { AppError, badRequest, forbidden, notFound } from '../../lib/errors.ts';
import type { LivePublisher } from '../../lib/live-bus.ts';
import type { MailTexts, Notice, WalletRef } from '../../lib/mail-texts/index.ts';
import { addressKey, normaliseWalletAddress, walletTagProblem } from '../../lib/wallet-addresses.ts';
import { requireCan, type Auth } from '../../lib/access.ts';
import { can, rolesFor } from '@portal/contract/permissions';
import type { OtpService } from '../otp/index.ts';
import type { Notifier } from '../notifications/index.ts';
import type { PartnerAccess } from '../partners/index.ts';
import {
  addressOwner,
  claimAddress,
  findWallet,
  insertWallet,
  listWallets,
  liveWalletsByAddress,
  lockPartnerWallets,
  slotsTaken,
  updateWallet,
  type WalletRow,
} from './wallets.repository.ts';

/** Queues the screening of an approved wallet in the approval's transaction. */
export type EnqueueScreening = (trx: Transaction<DB>, job: { partnerId: string; walletId: string }) => Promise<void>;

export type WalletDeps = {
  db: Kysely<DB>;
  otp: Pick<OtpService, 'authorise'>;
  partners: Pick<PartnerAccess, 'requireFeature'>;
  now: () => number;
  enqueueScreening: EnqueueScreening;
  /** tells the reviewers of a new wallet, and its adder of the review and the screening, in the change's transaction */
  notifier: Pick<Notifier, 'notify'>;
  /** announces each change of a wallet (added, reviewed, enabled or disabled, deleted, screened) to open screens */
  live: LivePublisher;
};

export function toWallet(r: WalletRow, auth?: Auth): SettlementWallet {
  return {
    id: r.id,
    partnerId: r.partner_id,
    address: r.address,
    network: r.network as Network,
    status: r.status as SettlementWallet['status'],
    tag: r.tag,
    currencies: r.currencies as SettlementWallet['currencies'],
    createdById: r.created_by,
    createdByName: r.created_by_name,
    createdAt: r.created_at.toISOString(),
    travelRuleInfo:
      r.travel_rule_name && r.travel_rule_registration_number
        ? { name: r.travel_rule_name, businessRegistrationNumber: r.travel_rule_registration_number }
        : null,
    reason: r.status === 'deleted' ? r.deletion_reason : r.status === 'denied' ? r.denial_reason : null,
    reviewedByName: r.reviewed_by_name,
    canReview: auth !== undefined && r.status === 'pending_approval' && can(auth.role, 'manageWallets') && r.created_by !== auth.userId,
  };
}

const pairText = coinNetworkLabel;
type Target<A extends OtpPurpose['action']> = Extract<OtpPurpose, { action: A }>['target'];
const invalidAddress = () => badRequest(WALLET_MESSAGES.invalidAddress, 'InvalidWalletAddress');
const registeredElsewhere = () => new AppError(409, 'WalletAddressTaken', WALLET_MESSAGES.registeredElsewhere);

/**
 * Settlement wallets. A new wallet waits for a second person (four eyes: another admin or treasury user of the same
 * partner), then for screening, before it is enabled. At most 3 wallets per coin and network hold a place (enabled or
 * on the way to it); an address belongs to one partner for good. Every change is audited in its transaction.
 */
/**
 * The partner's settlement wallets as withdrawals read them: one by its id, and the live ones at an address (on a
 * network). Built once by the composition root and handed to the withdrawals module.
 */
export function createWalletDirectory(db: Kysely<DB>) {
  return {
    find: (partnerId: string, id: string) => findWallet(db, partnerId, id),
    atAddress: (partnerId: string, address: string, network?: string) => liveWalletsByAddress(db, partnerId, address, network),
  };
}
export type WalletDirectory = ReturnType<typeof createWalletDirectory>;

export function createWalletService(deps: WalletDeps) {
  const { db } = deps;
  const now = () => new Date(deps.now());

  async function requireWalletManagement(auth: Auth) {
    requireCan(auth, 'manageWallets');
    await deps.partners.requireFeature(
      auth,
      'walletManagementEnabled',
      'Wallet management is not enabled for your account. Contact support to turn it on.',
      'FeatureDisabled',
    );
  }

  /** The one live wallet of the caller's partner with this address (and network, when several networks have it). */
  async function liveWallet(exec: Kysely<DB> | Transaction<DB>, auth: Auth, address: string, network?: Network) {
    const rows = await liveWalletsByAddress(exec, auth.partnerId, address.trim(), network);
    if (rows.length === 0) throw notFound(WALLET_MESSAGES.noMatch);
    if (rows.length > 1) throw badRequest(WALLET_MESSAGES.onNetworks(rows.map((r) => r.network)), 'ValidationFailed');
    return rows[0]!;
  }

  async function requireFreeSlots(trx: Transaction<DB>, partnerId: string, network: string, currencies: string[], exceptId?: string) {
    const taken = await slotsTaken(trx, partnerId, network, currencies, exceptId);
    const full = currencies.filter((c) => (taken[c] ?? 0) >= MAX_ENABLED_WALLETS_PER_PAIR);
    if (full.length > 0) {
      throw new AppError(
        409,
        'WalletLimitReached',
        WALLET_MESSAGES.limitReached(
          MAX_ENABLED_WALLETS_PER_PAIR,
          full.map((c) => pairText(c, network)),
        ),
      );
    }
  }

  /** A new wallet's own rules (address format and checksum, tag, currencies on the network): its canonical parts. */
  function checkNew(network: Network, raw: string, tag: string | null, wanted: string[]) {
    const address = normaliseWalletAddress(network, raw);
    if (!address) throw invalidAddress();
    const tagProblem = walletTagProblem(network, tag);
    if (tagProblem) throw badRequest(tagProblem, 'ValidationFailed');
    const currencies = [...new Set(wanted)];
    const offered = NETWORK_CURRENCIES[network];
    const notOffered = currencies.filter((c) => !(offered as readonly string[]).includes(c));
    if (notOffered.length > 0) throw badRequest(WALLET_MESSAGES.notOffered(notOffered, network, offered), 'ValidationFailed');
    return { network, address, currencies };
  }

  /** The network a code request names: one of ours, with the final call's message otherwise. */
  function networkOf(text: string | undefined): Network | undefined {
    if (text === undefined) return undefined;
    const parsed = Network.safeParse(text);
    if (!parsed.success) throw badRequest(WALLET_MESSAGES.chooseNetwork(Network.options), 'ValidationFailed');
    return parsed.data;
  }

  /** Tells people of the partner about a wallet, in the change's transaction. */
  const tellAbout = (
    trx: Transaction<DB>,
    w: WalletRow,
    to: { roles?: readonly Role[]; userIds?: string[]; exclude?: string[] },
    notice: (texts: MailTexts, wallet: WalletRef) => Notice,
    at: Date,
  ) => deps.notifier.notify(trx, { partnerId: w.partner_id, topic: 'wallets', to, notice: (t) => notice(t, walletRef(w)), link: '/wallets', at });
  /** A wallet as the mails and notifications name it: its coins, network and address. */
  const walletRef = (w: Pick<WalletRow, 'currencies' | 'network' | 'address'>): WalletRef => ({
    coins: w.currencies.join('/'),
    network: w.network,
    address: w.address,
  });
  const person = (auth: Auth) => ({ name: auth.name, email: auth.email });

  const actor = (auth: Auth) => ({ partnerId: auth.partnerId, actorUserId: auth.userId, actor: auth.email });
  /** The wallet's change, for the partner's event stream (in the change's transaction). */
  const announce = (trx: Transaction<DB>, kind: string, row: WalletRow, at: Date) =>
    deps.live.publish(trx, { partnerId: row.partner_id, table: 'wallets', kind, id: row.id, status: row.status, at: at.toISOString() });

  return {
    /** Before a code is sent to add a wallet: the checks the final call makes, then the words of the mail. */
    async checkAdd(auth: Auth, target: Target<'wallet.add'>) {
      await requireWalletManagement(auth);
      const network = networkOf(target.network)!;
      const tag = target.tag?.trim() || null;
      const { address, currencies } = checkNew(network, target.address, tag, target.currencies ?? []);
      if ((await liveWalletsByAddress(db, auth.partnerId, address, network)).length > 0) {
        throw new AppError(409, 'WalletAddressTaken', WALLET_MESSAGES.alreadyYours(network));
      }
      const owner = await addressOwner(db, addressKey(network, address, tag));
      if (owner !== undefined && owner !== auth.partnerId) throw registeredElsewhere();
      if (currencies.length > 0) await db.transaction().execute((trx) => requireFreeSlots(trx, auth.partnerId, network, currencies));
      const coins = currencies.length > 0 ? currencies.join('/') : NETWORK_CURRENCIES[network].join('/');
      return { target: { address, network, tag }, words: (t: MailTexts) => t.otpPurpose.walletAdd({ coins, network, address }) };
    },

    /** Before a code is sent to enable a wallet: it is yours, disabled, and a place is free. */
    async checkEnable(auth: Auth, target: Target<'wallet.enable'>) {
      await requireWalletManagement(auth);
      const wallet = await liveWallet(db, auth, target.address, networkOf(target.network));
      if (wallet.status !== 'disabled') throw new AppError(409, 'Conflict', WALLET_MESSAGES.onlyFrom(wallet.status.replace(/_/g, ' '), 'disabled', 'enabled'));
      await db.transaction().execute((trx) => requireFreeSlots(trx, auth.partnerId, wallet.network, wallet.currencies, wallet.id));
      return {
        target: { address: wallet.address, network: wallet.network },
        words: (t: MailTexts) => t.otpPurpose.walletEnable(walletRef(wallet)),
      };
    },

    /** Before a code is sent to delete a wallet: it is one of yours. */
    async checkDelete(auth: Auth, target: Target<'wallet.delete'>) {
      await requireWalletManagement(auth);
      const wallet = await liveWallet(db, auth, target.address, networkOf(target.network));
      return {
        target: { address: wallet.address, network: wallet.network },
        words: (t: MailTexts) => t.otpPurpose.walletDelete(walletRef(wallet)),
      };
    },

    async list(auth: Auth) {
      return { wallets: (await listWallets(db, auth.partnerId)).map((r) => toWallet(r, auth)) };
    },

    /** POST partner/wallet: a new wallet, pending approval by another person; the e-mailed code authorises it. */
    async create(auth: Auth, input: CreateWalletRequest & { tag: string | null }) {
      await requireWalletManagement(auth);
      const { network, address, currencies } = checkNew(input.network, input.address, input.tag, input.currencies);
      const at = now();
      const row = await deps.otp.authorise(auth, input.otp, { action: 'wallet.add', target: { address, network, tag: input.tag } }, async (trx) => {
        await lockPartnerWallets(trx, auth.partnerId);
        if ((await liveWalletsByAddress(trx, auth.partnerId, address, network)).length > 0) {
          throw new AppError(409, 'WalletAddressTaken', WALLET_MESSAGES.alreadyYours(network));
        }
        await requireFreeSlots(trx, auth.partnerId, network, currencies);
        const owner = await claimAddress(trx, addressKey(network, address, input.tag), auth.partnerId, at);
        if (owner !== auth.partnerId) throw registeredElsewhere();
        const wallet = await insertWallet(trx, {
          partner_id: auth.partnerId,
          id: crypto.randomUUID(),
          address,
          network,
          tag: input.tag,
          currencies,
          status: 'pending_approval',
          travel_rule_name: input.travelRuleInfo?.name ?? null,
          travel_rule_registration_number: input.travelRuleInfo?.businessRegistrationNumber ?? null,
          created_by: auth.userId,
          created_by_name: auth.name,
          reviewed_by: null,
          reviewed_by_name: null,
          denial_reason: null,
          deletion_reason: null,
          deleted_by: null,
          created_at: at,
          updated_at: at,
        });
        await auditChange(trx, {
          ...actor(auth),
          action: 'settlement_wallet.created',
          target: wallet.id,
          details: { address, network, tag: input.tag, currencies },
        });
        await announce(trx, 'added', wallet, at);
        await tellAbout(
          trx,
          wallet,
          { roles: rolesFor('manageWallets'), exclude: [auth.userId] },
          (t, w) => t.notices.walletAdded({ actor: person(auth), wallet: w }),
          at,
        );
        return wallet;
      });
      return { wallet: toWallet(row, auth) };
    },

    /** The wallet status update: another admin or treasury user approves (then screening) or denies (with a reason). */
    async review(auth: Auth, input: WalletStatusUpdateRequest) {
      await requireWalletManagement(auth);
      const reason = input.reason?.trim() ?? '';
      if (input.status === 'denied' && !reason) throw badRequest(WALLET_MESSAGES.denyReasonRequired, 'ValidationFailed');
      const at = now();
      const row = await db.transaction().execute(async (trx) => {
        await lockPartnerWallets(trx, auth.partnerId);
        const wallet = await liveWallet(trx, auth, input.address, input.network);
        if (wallet.status !== 'pending_approval') throw new AppError(409, 'Conflict', WALLET_MESSAGES.notWaiting(wallet.status.replace(/_/g, ' ')));
        if (wallet.created_by === auth.userId) throw forbidden(WALLET_MESSAGES.ownReview, 'OwnWalletReview');
        const approved = input.status === 'approved';
        const changed = await updateWallet(
          trx,
          auth.partnerId,
          wallet.id,
          ['pending_approval'],
          {
            status: approved ? 'pending_screening' : 'denied',
            reviewed_by: auth.userId,
            reviewed_by_name: auth.name,
            reviewed_at: at,
            denial_reason: approved ? null : reason,
          },
          at,
        );
        if (!changed) throw new AppError(409, 'Conflict', WALLET_MESSAGES.reviewedMeanwhile);
        await auditChange(trx, {
          ...actor(auth),
          action: approved ? 'settlement_wallet.approved' : 'settlement_wallet.denied',
          target: wallet.id,
          details: { address: wallet.address, network: wallet.network, reason: approved ? null : reason },
        });
        if (approved) await deps.enqueueScreening(trx, { partnerId: auth.partnerId, walletId: wallet.id });
        await announce(trx, approved ? 'approved' : 'denied', changed, at);
        await tellAbout(
          trx,
          changed,
          { userIds: [changed.created_by] },
          (t, w) =>
            approved ? t.notices.walletApproved({ actor: person(auth), wallet: w }) : t.notices.walletDenied({ actor: person(auth), wallet: w, reason }),
          at,
        );
        return changed;
      });
      return { wallet: toWallet(row, auth) };
    },

    /** PUT partner/wallet: enable a disabled wallet (needs the e-mailed code, and a free place) or disable an enabled one. */
    async setEnabled(auth: Auth, input: UpdateWalletRequest) {
      await requireWalletManagement(auth);
      const at = now();
      const change = async (trx: Transaction<DB>) => {
        await lockPartnerWallets(trx, auth.partnerId);
        const wallet = await liveWallet(trx, auth, input.address, input.network);
        const from = input.status === 'enabled' ? 'disabled' : 'enabled';
        if (wallet.status === input.status) return wallet;
        if (wallet.status !== from) throw new AppError(409, 'Conflict', WALLET_MESSAGES.onlyFrom(wallet.status.replace(/_/g, ' '), from, input.status));
        if (input.status === 'enabled') await requireFreeSlots(trx, auth.partnerId, wallet.network, wallet.currencies, wallet.id);
        const changed = await updateWallet(trx, auth.partnerId, wallet.id, [from], { status: input.status }, at);
        if (!changed) throw new AppError(409, 'Conflict', WALLET_MESSAGES.changedMeanwhile);
        await auditChange(trx, {
          ...actor(auth),
          action: `settlement_wallet.${input.status}`,
          target: wallet.id,
          details: { address: wallet.address, network: wallet.network },
        });
        await announce(trx, input.status, changed, at);
        return changed;
      };
      let row: WalletRow;
      if (input.status === 'enabled') {
        // enabling makes it a destination of money again: like adding one, it needs the e-mailed code
        if (!input.otp) throw badRequest(OTP_MESSAGES.invalid, 'InvalidOtp');
        const wallet = await liveWallet(db, auth, input.address, input.network);
        row = await deps.otp.authorise(auth, input.otp, { action: 'wallet.enable', target: { address: wallet.address, network: wallet.network } }, change);
      } else {
        row = await db.transaction().execute(change);
      }
      return { wallet: toWallet(row, auth) };
    },

    /** DELETE partner/wallet/{address}: soft delete with one of the four reasons; the e-mailed code authorises it. */
    async remove(auth: Auth, address: string, input: DeleteWalletRequest) {
      await requireWalletManagement(auth);
      const at = now();
      const target = await liveWallet(db, auth, address, input.network);
      const purpose = { action: 'wallet.delete' as const, target: { address: target.address, network: target.network } };
      const row = await deps.otp.authorise(auth, input.otp, purpose, async (trx) => {
        await lockPartnerWallets(trx, auth.partnerId);
        const wallet = await liveWallet(trx, auth, address, input.network);
        const changed = await updateWallet(
          trx,
          auth.partnerId,
          wallet.id,
          ['pending_approval', 'pending_screening', 'enabled', 'disabled'],
          { status: 'deleted', deletion_reason: input.reason, deleted_by: auth.userId, deleted_at: at },
          at,
        );
        if (!changed) throw new AppError(409, 'Conflict', WALLET_MESSAGES.changedMeanwhile);
        await auditChange(trx, {
          ...actor(auth),
          action: 'settlement_wallet.deleted',
          target: wallet.id,
          details: { address: wallet.address, network: wallet.network, reason: input.reason, previousStatus: wallet.status },
        });
        await announce(trx, 'deleted', changed, at);
        return changed;
      });
      return { wallet: toWallet(row, auth) };
    },

    /** The wallet if it is waiting for screening (else the job has nothing to do). */
    async awaitingScreening(partnerId: string, walletId: string) {
      const wallet = await findWallet(db, partnerId, walletId);
      return wallet?.status === 'pending_screening' ? wallet : undefined;
    },

    /** The screening job's end: enabled, or denied with the reason; the creator is e-mailed either way. */
    async finishScreening(partnerId: string, walletId: string, outcome: { passed: true } | { passed: false; reason: string }) {
      const at = now();
      const row = await db.transaction().execute(async (trx) => {
        await lockPartnerWallets(trx, partnerId);
        const wallet = await findWallet(trx, partnerId, walletId);
        // deleted meanwhile, or screened already by an earlier run of the job: nothing to do
        if (!wallet || wallet.status !== 'pending_screening') return undefined;
        const changed = await updateWallet(
          trx,
          partnerId,
          walletId,
          ['pending_screening'],
          outcome.passed ? { status: 'enabled', screened_at: at } : { status: 'denied', denial_reason: outcome.reason, screened_at: at },
          at,
        );
        await auditChange(trx, {
          partnerId,
          actor: 'system',
          action: outcome.passed ? 'settlement_wallet.screening_passed' : 'settlement_wallet.screening_failed',
          target: walletId,
          details: { address: wallet.address, network: wallet.network, reason: outcome.passed ? null : outcome.reason },
        });
        if (!changed) return undefined;
        await announce(trx, 'screened', changed, at);
        await tellAbout(
          trx,
          changed,
          { userIds: [changed.created_by] },
          (t, w) => (outcome.passed ? t.notices.walletEnabled({ wallet: w }) : t.notices.walletScreeningFailed({ wallet: w, reason: outcome.reason })),
          at,
        );
        return changed;
      });
      if (!row) return undefined;
      return toWallet(row);
    },
  };
}

export type WalletService = ReturnType<typeof createWalletService>;
