import type { Transaction } from 'kysely';
import { MAX_IP_ADDRESSES, type AllowedIpAddress } from '@portal/contract/api-keys';
import type { DB } from '../../db/schema.ts';
import { auditChange } from '../../lib/audit.repository.ts';
import type { LivePublisher } from '../../lib/live-bus.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { requireRole, type Auth } from '../../lib/access.ts';
import type { PartnerAccess } from '../partners/index.ts';
import type { AllowedIpsRepository } from './api-keys.repository.ts';

export type AllowedIpsDeps = {
  repo: AllowedIpsRepository;
  /** the caller's partner's feature rule (the partners module's port) */
  partners: Pick<PartnerAccess, 'requireFeature'>;
  now: () => number;
  /** runs a change that the user's e-mailed code authorises, using the code up in the same transaction */
  authorise: <T>(auth: Auth, otp: string, change: (trx: Transaction<DB>) => Promise<T>) => Promise<T>;
  /** drops the partner's list from every instance's cache (after the change is committed) */
  invalidate: (partnerId: string) => Promise<void>;
  /** announces each change of the list to the partner's open screens (topic 'api-keys': the screen shows both) */
  live: LivePublisher;
};

const toAllowed = (r: { ip_address: string; created_at: Date; created_by_email: string | null }): AllowedIpAddress => ({
  ipAddress: r.ip_address,
  status: 'whitelisted',
  createdAt: r.created_at.toISOString(),
  createdBy: r.created_by_email,
});

/**
 * A partner's allowed IP addresses (portal-core §3, §5, §7): admins with the whitelistedIpsEnabled flag list them,
 * and add or delete one with the e-mailed code. While the list is not empty, API-key calls from other addresses are
 * refused (plugins/api-key-auth.ts). Addresses arrive in their canonical form (the contract's parser).
 */
export function createAllowedIpsService(deps: AllowedIpsDeps) {
  const { repo } = deps;

  async function requireManager(auth: Auth) {
    requireRole(auth, 'admin');
    await deps.partners.requireFeature(auth, 'whitelistedIpsEnabled', 'Allowed IP addresses are not enabled for your business. Ask your account manager.');
  }

  return {
    async list(auth: Auth): Promise<{ ipAddresses: AllowedIpAddress[] }> {
      await requireManager(auth);
      return { ipAddresses: (await repo.list(auth.partnerId)).map(toAllowed) };
    },

    async add(auth: Auth, ipAddress: string, otp: string): Promise<AllowedIpAddress> {
      await requireManager(auth);
      const row = await deps.authorise(auth, otp, async (trx) => {
        if ((await repo.countForUpdate(trx, auth.partnerId)) >= MAX_IP_ADDRESSES) {
          throw conflict(`You can allow at most ${MAX_IP_ADDRESSES} addresses. Use a CIDR range for a block of addresses.`);
        }
        const inserted = await repo.insert(trx, {
          partnerId: auth.partnerId,
          ipAddress,
          createdBy: auth.userId,
          createdByEmail: auth.email,
          now: new Date(deps.now()),
        });
        if (!inserted) throw conflict(`${ipAddress} is already on the list.`);
        await auditChange(trx, { partnerId: auth.partnerId, actorUserId: auth.userId, actor: auth.email, action: 'ip_address.added', target: ipAddress });
        await deps.live.publish(trx, {
          partnerId: auth.partnerId,
          table: 'api-keys',
          kind: 'ip_added',
          id: ipAddress,
          status: 'whitelisted',
          at: new Date(deps.now()).toISOString(),
        });
        return inserted;
      });
      await deps.invalidate(auth.partnerId);
      return toAllowed(row);
    },

    async remove(auth: Auth, ipAddress: string, otp: string): Promise<{ message: string }> {
      await requireManager(auth);
      await deps.authorise(auth, otp, async (trx) => {
        const removed = await repo.remove(trx, auth.partnerId, ipAddress);
        if (!removed) throw notFound(`${ipAddress} is not on the list.`);
        await auditChange(trx, { partnerId: auth.partnerId, actorUserId: auth.userId, actor: auth.email, action: 'ip_address.deleted', target: ipAddress });
        await deps.live.publish(trx, {
          partnerId: auth.partnerId,
          table: 'api-keys',
          kind: 'ip_deleted',
          id: ipAddress,
          status: 'deleted',
          at: new Date(deps.now()).toISOString(),
        });
      });
      await deps.invalidate(auth.partnerId);
      return { message: `${ipAddress} removed from the allowed addresses` };
    },
  };
}

export type AllowedIpsService = ReturnType<typeof createAllowedIpsService>;
