import type { Kysely } from 'kysely';
import type { AccountNumberType, Channel, CoverageQuery, PaymentNetwork, RampType, ReferenceStatus } from '@portal/contract/coverage';
import type { DB } from '../../db/schema.ts';
import type { Caller } from '../../lib/access.ts';
import { activeChannels, activeNetworks } from './coverage.repository.ts';

/**
 * Channels and payment networks (portal-core §3, §7): global reference data, the same for every partner, read by
 * any signed-in user (the coverage screen, forms, and partners' scripts). Inactive rows never leave the server.
 */
export function createCoverageService(deps: { db: Kysely<DB> }) {
  const { db } = deps;
  return {
    async channels(_auth: Caller, query: CoverageQuery): Promise<{ channels: Channel[] }> {
      const rows = await activeChannels(db, query);
      return {
        channels: rows.map((r) => ({
          id: r.id,
          vendorId: r.vendor_id,
          rampType: r.ramp_type as RampType,
          channelType: r.channel_type,
          country: r.country,
          currency: r.currency,
          status: r.status as ReferenceStatus,
          commercialStatus: r.commercial_status as ReferenceStatus,
          feeUSD: r.fee_usd,
          feeLocal: r.fee_local,
          min: r.min,
          max: r.max,
          successThreshold: r.success_threshold,
          estimatedSettlementTime: r.estimated_settlement_time,
          settlementType: r.settlement_type as Channel['settlementType'],
          widgetStatus: r.widget_status as ReferenceStatus,
          apiStatus: r.api_status as ReferenceStatus,
          widgetMin: r.widget_min,
          widgetMax: r.widget_max,
        })),
      };
    },

    async networks(_auth: Caller, query: CoverageQuery): Promise<{ networks: PaymentNetwork[] }> {
      const rows = await activeNetworks(db, query);
      return {
        networks: rows.map((r) => ({
          id: r.id,
          code: r.code,
          name: r.name,
          country: r.country,
          status: r.status as ReferenceStatus,
          channelIds: r.channel_ids,
          accountNumberType: r.account_number_type as AccountNumberType,
          featureFlagEnabled: r.feature_flag_enabled,
          tempDisabledFor: r.temp_disabled_for as RampType[],
        })),
      };
    },
  };
}

export type CoverageService = ReturnType<typeof createCoverageService>;
