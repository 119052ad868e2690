import { PARTNER_MESSAGES } from '@portal/contract/partner';
import type { Kysely } from 'kysely';
import type { FeatureFlag, FeatureFlags, ProductType } from '@portal/contract/domain';
import type { DB } from '../../db/schema.ts';
import type { ErrorCode } from '@portal/contract/errors';
import { forbidden, notFound } from '../../lib/errors.ts';
import { findPartner, toFeatureFlags } from './partners.repository.ts';

/** What another module may know of a partner: its kind, its feature flags and its name. */
export type PartnerFacts = {
  id: string;
  name: string;
  productTypes: ProductType[];
  whitelisted: boolean;
  fiatWalletsEnabled: boolean;
  flags: FeatureFlags;
};

/**
 * The partners module's port for the other modules' services: the partner's facts and the feature rule, read fresh
 * (these calls are rare, and a flag switched off holds at once). Services receive it from the composition root,
 * as `Pick<PartnerAccess, ...>` of what they use.
 */
export type PartnerAccess = {
  /** The partner as it is now, or undefined when there is none. */
  find(partnerId: string): Promise<PartnerFacts | undefined>;
  /** The caller's partner when the flag is on; else 403 with the words (and code) given (404 when the partner is gone). */
  requireFeature(auth: { partnerId: string }, flag: FeatureFlag, refusal: string, code?: ErrorCode): Promise<PartnerFacts>;
};

export function createPartnerAccess(db: Kysely<DB>): PartnerAccess {
  const find = async (partnerId: string): Promise<PartnerFacts | undefined> => {
    const row = await findPartner(db, partnerId);
    if (!row) return undefined;
    return {
      id: row.id,
      name: row.name,
      productTypes: row.product_types as ProductType[],
      whitelisted: row.whitelisted,
      fiatWalletsEnabled: row.fiat_wallets_enabled,
      flags: toFeatureFlags(row.feature_flags),
    };
  };
  return {
    find,
    async requireFeature(auth, flag, refusal, code) {
      const partner = await find(auth.partnerId);
      if (!partner) throw notFound(PARTNER_MESSAGES.noSuchPartner);
      if (!partner.flags[flag]) throw forbidden(refusal, code);
      return partner;
    },
  };
}
