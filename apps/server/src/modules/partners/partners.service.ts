import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { FeatureFlag, ProductType, Role, type FeatureFlags } from '@portal/contract/domain';
import type { DB } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { hashPassword, temporaryPassword } from '../../lib/passwords.ts';
import { findPartner, findPartnerByAbbreviation, toFeatureFlags, toPartner } from './partners.repository.ts';

export const CreatePartnerInput = z.object({
  name: z.string().trim().min(1).max(200),
  abbreviation: z.string().trim().regex(/^[A-Za-z0-9]{2,10}$/, 'must be 2 to 10 letters or digits'),
  productType: ProductType,
  whitelisted: z.boolean().default(false),
  fiatWalletsEnabled: z.boolean().default(false),
  featureFlags: z.array(FeatureFlag).default([]),
  lowBalanceLimit: z.string().regex(/^\d+(\.\d+)?$/).optional(),
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
export function createOperatorService(deps: { db: Kysely<DB>; mailer: Mailer; publicUrl: string }) {
  const { db } = deps;
  return {
    async createPartner(raw: CreatePartnerInput) {
      const input = CreatePartnerInput.parse(raw);
      if (await findPartnerByAbbreviation(db, input.abbreviation)) {
        throw conflict(`A partner with the abbreviation ${input.abbreviation} exists already`);
      }
      const flags = Object.fromEntries(input.featureFlags.map((f) => [f, true]));
      const id = crypto.randomUUID();
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('partners')
          .values({
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
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await trx.insertInto('currency_accounts').values({ partner_id: id, currency: 'USD' }).execute();
        await audit(trx, { partnerId: id, actor: 'operator', action: 'partner.created', target: id, details: { ...input } });
        return toPartner(row);
      });
    },

    async setFeatureFlags(partnerId: string, changes: Partial<FeatureFlags>) {
      return db.transaction().execute(async (trx) => {
        const row = await findPartner(trx, partnerId);
        if (!row) throw notFound(`No partner ${partnerId}`);
        const flags = { ...toFeatureFlags(row.feature_flags), ...changes };
        await trx
          .updateTable('partners')
          .set({ feature_flags: JSON.stringify(flags), updated_at: new Date() })
          .where('id', '=', partnerId)
          .execute();
        await audit(trx, { partnerId, actor: 'operator', action: 'partner.flags_changed', target: partnerId, details: changes });
        return flags;
      });
    },

    /** Creates the user with a temporary password and mails it; the first sign-in asks for a new one. */
    async inviteUser(raw: InviteUserInput, actor = 'operator') {
      const input = InviteUserInput.parse(raw);
      const partner = await findPartner(db, input.partnerId);
      if (!partner) throw notFound(`No partner ${input.partnerId}`);
      const exists = await db.selectFrom('users').select('id').where('email', '=', input.email).executeTakeFirst();
      if (exists) throw conflict(`A user with the e-mail ${input.email} exists already`);
      const tempPassword = temporaryPassword();
      const tempHash = await hashPassword(tempPassword);
      const id = crypto.randomUUID();
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('users')
          .values({
            partner_id: partner.id,
            id,
            name: input.name,
            email: input.email,
            role: input.role,
            status: 'invited',
            password_hash: null,
            temp_password_hash: tempHash,
            totp_secret_enc: null,
            totp_last_step: null,
            locked_until: null,
          })
          .execute();
        await audit(trx, { partnerId: partner.id, actor, action: 'user.invited', target: id, details: { email: input.email, role: input.role } });
      });
      await deps.mailer.send({
        to: input.email,
        subject: `You are invited to the ${partner.name} Partner Dashboard`,
        text: [
          `Hello ${input.name},`,
          '',
          `You have been invited to the Partner Dashboard of ${partner.name} as ${input.role}.`,
          `Sign in at ${deps.publicUrl}/login with this e-mail address and the temporary password below.`,
          'You will choose your own password and set up an authenticator app.',
          '',
          `Temporary password: ${tempPassword}`,
        ].join('\n'),
      });
      return { id, email: input.email, tempPassword };
    },
  };
}
