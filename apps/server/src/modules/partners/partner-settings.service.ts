import type { Kysely } from 'kysely';
import {
  LOW_BALANCE_MESSAGE,
  LowBalanceLimitForm,
  MANUAL_PAYOUT,
  PayoutConfig,
  nextPayoutDate,
  normalisePayoutConfig,
  payoutConfigProblem,
} from '@portal/contract/payout';
import type { DB } from '../../db/schema.ts';
import { auditChange } from '../../lib/audit.repository.ts';
import { badRequest } from '../../lib/errors.ts';
import { requireCan, type Auth } from '../../lib/access.ts';
import type { Notifier } from '../notifications/index.ts';
import type { InvalidatePartner } from './partner-cache.ts';
import { findPayoutConfig, upsertPayoutConfig } from './partner-settings.repository.ts';
import { updatePartner } from './partners.repository.ts';

/** Low-balance limit and payout schedule of the caller's partner (portal-core §4, §7). */
export function createPartnerSettingsService(deps: {
  db: Kysely<DB>;
  now: () => number;
  invalidatePartner: InvalidatePartner;
  /** a new limit is held against the balance at once (approaching, below, or clear again) */
  notifier: Pick<Notifier, 'checkLowBalance'>;
}) {
  const { db } = deps;

  async function readPayout(partnerId: string): Promise<{ config: PayoutConfig; savedAt?: Date }> {
    const stored = await findPayoutConfig(db, partnerId);
    const parsed = PayoutConfig.safeParse(stored?.config);
    return parsed.success ? { config: normalisePayoutConfig(parsed.data), savedAt: stored?.savedAt } : { config: { ...MANUAL_PAYOUT } };
  }

  /** The next payout date; a repeat frequency above 1 counts from the day the schedule was saved. */
  const withNext = (config: PayoutConfig, savedAt?: Date) => ({ config, nextPayoutDate: nextPayoutDate(config, new Date(deps.now()), savedAt) });

  return {
    async setLowBalanceLimit(auth: Auth, value: string | number | null | undefined) {
      requireCan(auth, 'editSettings');
      const parsed = LowBalanceLimitForm.safeParse({ lowBalanceLimit: typeof value === 'number' ? String(value) : (value ?? '') });
      if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? LOW_BALANCE_MESSAGE);
      const text = parsed.data.lowBalanceLimit;
      await db.transaction().execute(async (trx) => {
        await updatePartner(trx, auth.partnerId, { low_balance_limit: text }, new Date(deps.now()));
        await auditChange(trx, {
          partnerId: auth.partnerId,
          actorUserId: auth.userId,
          actor: auth.email,
          action: 'partner.low_balance_limit_changed',
          details: { lowBalanceLimit: text },
        });
        await deps.notifier.checkLowBalance(trx, auth.partnerId, new Date(deps.now()));
      });
      await deps.invalidatePartner(auth.partnerId);
      return { lowBalanceLimit: text };
    },

    async payoutConfig(auth: Auth) {
      const { config, savedAt } = await readPayout(auth.partnerId);
      return withNext(config, savedAt);
    },

    async savePayoutConfig(auth: Auth, input: PayoutConfig) {
      requireCan(auth, 'editSettings');
      const problem = payoutConfigProblem(input);
      if (problem) throw badRequest(problem, 'ValidationFailed');
      const config = normalisePayoutConfig(input);
      await db.transaction().execute(async (trx) => {
        const at = new Date(deps.now());
        await upsertPayoutConfig(trx, auth.partnerId, config, auth.userId, at);
        await updatePartner(trx, auth.partnerId, { payout_type: config.type, payout_frequency: config.frequency }, at);
        await auditChange(trx, {
          partnerId: auth.partnerId,
          actorUserId: auth.userId,
          actor: auth.email,
          action: 'partner.payout_config_changed',
          details: config,
        });
      });
      await deps.invalidatePartner(auth.partnerId);
      return withNext(config);
    },
  };
}

export type PartnerSettingsService = ReturnType<typeof createPartnerSettingsService>;
