import { PARTNER_MESSAGES } from '@portal/contract/partner';
import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { FeatureFlag, ProductType, Role, type FeatureFlags } from '@portal/contract/domain';
import type { PartnerProfile } from '@portal/contract/partner';
import type { DB } from '../../db/schema.ts';
import { auditChange } from '../../lib/audit.repository.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { isApiKeyCaller, type Caller } from '../../lib/access.ts';
import type { InvitationService } from '../team/index.ts';
import type { Ledger } from '../ledger/index.ts';
import type { InvalidatePartner, PartnerCache } from './partner-cache.ts';
import { findPartner, findPartnerByAbbreviation, insertPartner, toFeatureFlags, toPartner, updatePartner } from './partners.repository.ts';

/** The signed-in user's own partner: always the one of the verified token. */
export function createPartnerService(deps: { partners: PartnerCache; ledger: Pick<Ledger, 'balances'> }) {
  async function ownPartner(auth: Caller) {
    const row = await deps.partners.get(auth.partnerId);
    if (!row) throw notFound(PARTNER_MESSAGES.noSuchPartner);
    return row;
  }
  return {
    /**
     * The partner and its flags; for a signed-in user also the user as authenticate read it from its current row
     * (a role changed since the sign-in shows here; authenticate lets only active users through). An API key has none.
     */
    async profile(auth: Caller): Promise<PartnerProfile> {
      const row = await ownPartner(auth);
      const profile: PartnerProfile = { partner: toPartner(row), featureFlags: toFeatureFlags(row.feature_flags) };
      if (!isApiKeyCaller(auth))
        profile.user = { id: auth.userId, name: auth.name, email: auth.email, role: auth.role, partnerId: auth.partnerId, status: 'active' };
      return profile;
    },
    async accounts(auth: Caller) {
      const row = await ownPartner(auth);
      return { partner: { id: row.id, name: row.name }, accounts: await deps.ledger.balances(row.id) };
    },
  };
}

export const CreatePartnerInput = z.object({
  name: z.string().trim().min(1).max(200),
  abbreviation: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9]{2,10}$/, 'must be 2 to 10 letters or digits'),
  productType: ProductType,
  whitelisted: z.boolean().default(false),
  fiatWalletsEnabled: z.boolean().default(false),
  featureFlags: z.array(FeatureFlag).default([]),
  lowBalanceLimit: z
    .string()
    .regex(/^\d+(\.\d+)?$/)
    .optional(),
});
export type CreatePartnerInput = z.input<typeof CreatePartnerInput>;

export const InviteUserInput = z.object({
  partnerId: z.string().uuid(),
  name: z.string().trim().min(1).max(200),
  email: z.string().trim().toLowerCase().email(),
  role: Role,
});
export type InviteUserInput = z.input<typeof InviteUserInput>;

/** What an operator does to set a partner up (there is no operator UI: the CLI calls these). */
export function createOperatorService(deps: {
  db: Kysely<DB>;
  /** the first admin's invitation (the team module's port) */
  invitations: Pick<InvitationService, 'invite'>;
  /** the new partner's USD account (the ledger module's port) */
  ledger: Pick<Ledger, 'open'>;
  invalidatePartner?: InvalidatePartner;
}) {
  const { db, invitations } = deps;
  return {
    async createPartner(raw: CreatePartnerInput) {
      const input = CreatePartnerInput.parse(raw);
      if (await findPartnerByAbbreviation(db, input.abbreviation)) {
        throw conflict(PARTNER_MESSAGES.abbreviationTaken(input.abbreviation));
      }
      const flags = Object.fromEntries(input.featureFlags.map((f) => [f, true]));
      const id = crypto.randomUUID();
      return db.transaction().execute(async (trx) => {
        const row = await insertPartner(trx, {
          id,
          name: input.name,
          abbreviation: input.abbreviation.toUpperCase(),
          product_types: [input.productType],
          whitelisted: input.whitelisted,
          fiat_wallets_enabled: input.fiatWalletsEnabled,
          feature_flags: JSON.stringify(flags),
          low_balance_limit: input.lowBalanceLimit ?? null,
          wallet_address: null,
          withdrawal_address: null,
          settlement_threshold: null,
          payout_frequency: null,
        });
        await deps.ledger.open(trx, id, 'USD');
        await auditChange(trx, { partnerId: id, actor: 'operator', action: 'partner.created', target: id, details: { ...input } });
        return toPartner(row);
      });
    },

    async setFeatureFlags(partnerId: string, changes: Partial<FeatureFlags>) {
      const flags = await db.transaction().execute(async (trx) => {
        const row = await findPartner(trx, partnerId);
        if (!row) throw notFound(PARTNER_MESSAGES.noPartner(partnerId));
        const next = { ...toFeatureFlags(row.feature_flags), ...changes };
        await updatePartner(trx, partnerId, { feature_flags: JSON.stringify(next) }, new Date());
        await auditChange(trx, { partnerId, actor: 'operator', action: 'partner.flags_changed', target: partnerId, details: changes });
        return next;
      });
      await deps.invalidatePartner?.(partnerId);
      return flags;
    },

    /**
     * Invites the user with a one-time link by mail; using it makes the user. The same code as an admin's invitation
     * from the team screen (modules/team/invitations.service.ts).
     */
    async inviteUser(raw: InviteUserInput, actor = 'operator') {
      const input = InviteUserInput.parse(raw);
      return invitations.invite(input, { userId: null, email: actor });
    },
  };
}

export type PartnerService = ReturnType<typeof createPartnerService>;
