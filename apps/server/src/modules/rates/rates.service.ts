import { rateChangesKey } from '@portal/contract/otp';
import type { Kysely, Transaction } from 'kysely';
import { countryName } from '@portal/contract/countries';
import { partnerKind } from '@portal/contract/partner';
import {
  RATE_MESSAGES,
  isCountryRate,
  isPending,
  rateChange,
  type PartnerRate,
  type PartnerRateStatus,
  type RateChangeRequest,
  type RateReviewRequest,
  type RateStatusResponse,
} from '@portal/contract/rates';
import type { DB } from '../../db/schema.ts';
import { auditChange } from '../../lib/audit.repository.ts';
import { AppError, conflict, forbidden, notFound } from '../../lib/errors.ts';
import type { LivePublisher } from '../../lib/live-bus.ts';
import type { CountryChange, MailTexts } from '../../lib/mail-texts/index.ts';
import { requireCan, type Auth } from '../../lib/access.ts';
import { rolesFor } from '@portal/contract/permissions';
import type { PartnerAccess } from '../partners/index.ts';
import type { Notifier } from '../notifications/index.ts';
import { findPartnerRate, findPlatformRate, listPartnerRates, partnerRateId, requestChange, settleChange } from './rates.repository.ts';

/** Runs a change that an e-mailed code authorises (the otp module's `authorise`). */
export type Authorise = <T>(
  auth: Auth,
  otp: string,
  purpose: { action: 'country.status'; target: { changes: string } },
  change: (trx: Transaction<DB>) => Promise<T>,
) => Promise<T>;

export type RatesDeps = {
  db: Kysely<DB>;
  authorise: Authorise;
  /** the partner's feature rule (the partners module's port) */
  partners: Pick<PartnerAccess, 'requireFeature'>;
  now: () => number;
  /** tells the other admins of a change asked for, and its asker of the decision, in the change's transaction */
  notifier: Pick<Notifier, 'notify'>;
  /** announces each change of a country (asked for, approved, denied) to the partner's open screens */
  live: LivePublisher;
};

type PlatformRate = { id: string; locale: string; code: string };

const fourEyes = () => new AppError(403, 'FourEyesRequired', RATE_MESSAGES.fourEyes);
const noSuchRate = () => notFound(RATE_MESSAGES.noSuchRate);
const place = (rate: { locale: string; code: string }) => `${countryName(rate.locale)} (${rate.code})`;
/** A rate that is not where a change would move it from: it has a change waiting already, or is there already. */
const notMovable = (rate: { locale: string; code: string }, current: PartnerRateStatus) =>
  conflict(isPending(current) ? RATE_MESSAGES.alreadyWaiting(place(rate)) : RATE_MESSAGES.alreadyIs(place(rate), current));
/** A pending change of a rate, as the mails and notifications say it. */
const countryChange = (status: PartnerRateStatus, rate: { locale: string; code: string }): CountryChange => ({
  enable: status === 'pending_enable',
  locale: rate.locale,
  code: rate.code,
});

/**
 * Enabled countries (portal-core §3, §4, §7): the partner's rates, changes asked for by one admin and approved or
 * denied by another. Only B2B partners with the enabled-countries flag have them. Every transition is one
 * conditional statement on the status the caller saw, so two admins acting at once cannot both move a rate.
 */
export function createRatesService(deps: RatesDeps) {
  const { db } = deps;
  const now = () => new Date(deps.now());

  async function requireEnabledCountries(auth: Auth) {
    const partner = await deps.partners.requireFeature(auth, 'enabledCountriesEnabled', RATE_MESSAGES.notEnabled);
    if (!partnerKind(partner.productTypes, partner.whitelisted).isB2B) throw forbidden(RATE_MESSAGES.notEnabled);
    return partner;
  }

  /** The platform rate an item names, when it is a country rate and the partner rate id is the caller's own. */
  async function countryRate(auth: Auth, item: { partnerRateId: string; platformRateId: string }) {
    if (item.partnerRateId !== partnerRateId(auth.partnerId, item.platformRateId)) throw noSuchRate();
    const rate = await findPlatformRate(db, item.platformRateId);
    if (!rate || !isCountryRate(rate)) throw noSuchRate();
    return rate;
  }

  return {
    async list(auth: Auth): Promise<{ rates: PartnerRate[] }> {
      await requireEnabledCountries(auth);
      const rows = await listPartnerRates(db, auth.partnerId);
      return {
        rates: rows.filter(isCountryRate).map((r) => ({
          id: r.id ?? partnerRateId(auth.partnerId, r.rate_id),
          rateId: r.rate_id,
          locale: r.locale,
          code: r.code,
          buy: r.buy,
          sell: r.sell,
          status: (r.status ?? 'disabled') as PartnerRateStatus,
          requestedBy: r.requested_by ? { id: r.requested_by, name: r.requested_by_name ?? 'A former user' } : null,
          requestedAt: r.requested_at ? r.requested_at.toISOString() : null,
        })),
      };
    },

    /** Before a code is sent for country changes: the final call's checks (admin, flag, the caller's own rates, each movable). */
    async checkRequest(auth: Auth, target: { rates: RateChangeRequest['rates'] }) {
      requireCan(auth, 'changeCountries');
      await requireEnabledCountries(auth);
      const changes: CountryChange[] = [];
      for (const item of target.rates) {
        const rate = await countryRate(auth, item);
        const current = ((await findPartnerRate(db, auth.partnerId, item.partnerRateId))?.status ?? 'disabled') as PartnerRateStatus;
        const from = item.status === 'pending_enable' ? 'disabled' : 'enabled';
        if (current !== from) throw notMovable(rate, current);
        changes.push(countryChange(item.status, rate));
      }
      return { target: { changes: rateChangesKey(target.rates) }, words: (t: MailTexts) => t.otpPurpose.countries(changes) };
    },

    /** Asks for changes (admin): each rate goes from enabled or disabled to pending, all of them or none. */
    async request(auth: Auth, body: RateChangeRequest): Promise<RateStatusResponse> {
      requireCan(auth, 'changeCountries');
      const partner = await requireEnabledCountries(auth);
      const items: { item: RateChangeRequest['rates'][number]; rate: PlatformRate }[] = [];
      for (const item of body.rates) items.push({ item, rate: await countryRate(auth, item) });
      const at = now();
      const change = async (trx: Transaction<DB>) => {
        await deps.notifier.notify(trx, {
          partnerId: auth.partnerId,
          topic: 'countries',
          to: { roles: rolesFor('changeCountries'), exclude: [auth.userId] },
          notice: (t) =>
            t.notices.countryChangeRequested({
              actor: { name: auth.name, email: auth.email },
              partner: partner.name,
              changes: items.map(({ item, rate }) => countryChange(item.status, rate)),
            }),
          link: '/countries',
          at,
        });
        for (const { item, rate } of items) {
          const from = item.status === 'pending_enable' ? 'disabled' : 'enabled';
          const done = await requestChange(trx, {
            partnerId: auth.partnerId,
            id: item.partnerRateId,
            platformRateId: rate.id,
            from,
            to: item.status,
            userId: auth.userId,
            at,
          });
          if (!done) {
            const current = (await findPartnerRate(trx, auth.partnerId, item.partnerRateId))?.status ?? 'disabled';
            throw notMovable(rate, current as PartnerRateStatus);
          }
          await auditChange(trx, {
            partnerId: auth.partnerId,
            actorUserId: auth.userId,
            actor: auth.email,
            action: 'partner_rate.change_requested',
            target: item.partnerRateId,
            details: { locale: rate.locale, code: rate.code, from, status: item.status },
          });
          await deps.live.publish(trx, {
            partnerId: auth.partnerId,
            table: 'countries',
            kind: 'requested',
            id: item.partnerRateId,
            status: item.status,
            at: at.toISOString(),
          });
        }
      };
      if (body.otp) await deps.authorise(auth, body.otp, { action: 'country.status', target: { changes: rateChangesKey(body.rates) } }, change);
      else await db.transaction().execute(change);
      return { isValid: true };
    },

    /**
     * Approves or denies pending changes (admin): an item's status is where its rate goes, the change's new status
     * (approve) or its previous one (deny). Only another admin than the one who asked may approve; the one who
     * asked may deny (withdraw) it. All items or none.
     */
    async review(auth: Auth, body: RateReviewRequest): Promise<RateStatusResponse> {
      requireCan(auth, 'changeCountries');
      await requireEnabledCountries(auth);
      const rates: { item: RateReviewRequest['rates'][number]; rate: PlatformRate }[] = [];
      for (const item of body.rates) rates.push({ item, rate: await countryRate(auth, item) });
      await db.transaction().execute(async (trx) => {
        const decided = new Map<string, (CountryChange & { approved: boolean })[]>();
        for (const { item, rate } of rates) {
          const row = await findPartnerRate(trx, auth.partnerId, item.partnerRateId);
          const pending = row && isPending(row.status as PartnerRateStatus) ? (row.status as 'pending_enable' | 'pending_disable') : undefined;
          if (!row || !pending) throw conflict(RATE_MESSAGES.nothingWaiting(place(rate)));
          const approval = item.status === rateChange(pending)!.newStatus;
          if (approval && row.requested_by === auth.userId) throw fourEyes();
          const done = await settleChange(trx, {
            partnerId: auth.partnerId,
            id: row.id,
            from: pending,
            to: item.status,
            reviewerId: auth.userId,
            at: now(),
            approval,
          });
          if (!done) {
            // someone acted between the read and the update: say what holds now
            const current = await findPartnerRate(trx, auth.partnerId, row.id);
            if (approval && current?.status === pending && current.requested_by === auth.userId) throw fourEyes();
            throw conflict(RATE_MESSAGES.changedMeanwhile(place(rate)));
          }
          await auditChange(trx, {
            partnerId: auth.partnerId,
            actorUserId: auth.userId,
            actor: auth.email,
            action: approval ? 'partner_rate.change_approved' : 'partner_rate.change_denied',
            target: row.id,
            details: { locale: rate.locale, code: rate.code, change: pending, status: item.status, requestedBy: row.requested_by },
          });
          await deps.live.publish(trx, {
            partnerId: auth.partnerId,
            table: 'countries',
            kind: approval ? 'approved' : 'denied',
            id: row.id,
            status: item.status,
            at: now().toISOString(),
          });
          const decision = { ...countryChange(pending, rate), approved: approval };
          if (row.requested_by) decided.set(row.requested_by, [...(decided.get(row.requested_by) ?? []), decision]);
        }
        // whoever asked is told of the decision (not when they withdrew their own request)
        for (const [requester, decisions] of decided) {
          if (requester === auth.userId) continue;
          await deps.notifier.notify(trx, {
            partnerId: auth.partnerId,
            topic: 'countries',
            to: { userIds: [requester] },
            notice: (t) => t.notices.countryChangeReviewed({ actor: { name: auth.name, email: auth.email }, decisions }),
            link: '/countries',
            at: now(),
          });
        }
      });
      return { isValid: true };
    },
  };
}

export type RatesService = ReturnType<typeof createRatesService>;
