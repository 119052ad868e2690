import { ACCESS_MESSAGES } from '@portal/contract/errors';
import type { Transaction } from 'kysely';
import { IpAddressText, IpLabel, MAX_IP_ADDRESSES, type AllowedIpAddress, API_KEY_MESSAGES } from '@portal/contract/api-keys';
import type { OtpAction } from '@portal/contract/otp';
import type { DB } from '../../db/schema.ts';
import { auditChange } from '../../lib/audit.repository.ts';
import type { LivePublisher } from '../../lib/live-bus.ts';
import type { MailTexts, Notice, Person } from '../../lib/mail-texts/index.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { requireCan, type Auth } from '../../lib/access.ts';
import { rolesFor } from '@portal/contract/permissions';
import type { PartnerAccess } from '../partners/index.ts';
import type { Notifier } from '../notifications/index.ts';
import type { AllowedIpsRepository } from './api-keys.repository.ts';

export type AllowedIpsDeps = {
  repo: AllowedIpsRepository;
  /** the caller's partner's feature rule (the partners module's port) */
  partners: Pick<PartnerAccess, 'requireFeature'>;
  now: () => number;
  /** runs a change that the user's e-mailed code authorises, using the code up in the same transaction */
  authorise: <T>(
    auth: Auth,
    otp: string,
    purpose: { action: OtpAction; target: Record<string, string | null> },
    change: (trx: Transaction<DB>) => Promise<T>,
  ) => Promise<T>;
  /** drops the partner's list from every instance's cache (after the change is committed) */
  invalidate: (partnerId: string) => Promise<void>;
  /** announces each change of the list to the partner's open screens (topic 'api-keys': the screen shows both) */
  live: LivePublisher;
  /** tells the partner's admins of each change of the list, in its transaction */
  notifier: Pick<Notifier, 'notify'>;
};

const toAllowed = (r: { ip_address: string; created_at: Date; created_by_email: string | null; label: string | null }): AllowedIpAddress => ({
  ipAddress: r.ip_address,
  label: r.label,
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
    requireCan(auth, 'manageApiKeys');
    await deps.partners.requireFeature(auth, 'whitelistedIpsEnabled', 'Allowed IP addresses are not enabled for your business. Ask your account manager.');
  }

  const tooMany = () => conflict(API_KEY_MESSAGES.tooManyIpAddresses);
  const taken = (ipAddress: string) => conflict(API_KEY_MESSAGES.ipAddressListed(ipAddress));
  const missing = (ipAddress: string) => notFound(API_KEY_MESSAGES.ipAddressNotListed(ipAddress));

  /** An address a code request names, read with the final call's rule (canonical form). */
  function ipOf(text: string): string {
    const parsed = IpAddressText.safeParse(text);
    if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Enter a valid IP address', 'ValidationFailed');
    return parsed.data;
  }

  /** The part of an address change its code is bound to: the address, the new one, and the label (null: unchanged). */
  const updateTarget = (ipAddress: string, newIpAddress: string, label: string | undefined) => ({ ipAddress, newIpAddress, label: label ?? null });

  /** The audit event of an address change, by the signed-in person, in the change's transaction. */
  const audit = (trx: Transaction<DB>, auth: Auth, action: string, target: string, details?: Record<string, unknown>) =>
    auditChange(trx, { partnerId: auth.partnerId, actorUserId: auth.userId, actor: auth.email, action, target, details });
  const publish = (trx: Transaction<DB>, auth: Auth, kind: string, id: string, status: string) =>
    deps.live.publish(trx, { partnerId: auth.partnerId, table: 'api-keys', kind, id, status, at: new Date(deps.now()).toISOString() });
  /** Tells the partner's admins (the one who changed it too: a change of who may call the API is worth a second look). */
  const tellAdmins = (trx: Transaction<DB>, auth: Auth, notice: (texts: MailTexts, actor: Person) => Notice) =>
    deps.notifier.notify(trx, {
      partnerId: auth.partnerId,
      topic: 'developers',
      to: { roles: rolesFor('manageApiKeys') },
      notice: (t) => notice(t, { name: auth.name, email: auth.email }),
      link: '/api-keys',
      at: new Date(deps.now()),
    });

  return {
    /** Before a code is sent to allow an address: the final call's checks (format, duplicate, the limit). */
    async checkAdd(auth: Auth, target: { ipAddress: string }) {
      await requireManager(auth);
      const ipAddress = ipOf(target.ipAddress);
      if (await repo.has(auth.partnerId, ipAddress)) throw taken(ipAddress);
      if ((await repo.count(auth.partnerId)) >= MAX_IP_ADDRESSES) throw tooMany();
      return { target: { ipAddress }, words: (t: MailTexts) => t.otpPurpose.ipAdd(ipAddress) };
    },

    /** Before a code is sent to change an address: the old one is on the list, the new one is valid and not, the label is text. */
    async checkUpdate(auth: Auth, target: { ipAddress: string; newIpAddress: string; label?: string }) {
      await requireManager(auth);
      const ipAddress = ipOf(target.ipAddress);
      const newIpAddress = ipOf(target.newIpAddress);
      let label: string | undefined;
      if (target.label !== undefined) {
        const parsed = IpLabel.safeParse(target.label);
        if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Enter a shorter label', 'ValidationFailed');
        label = parsed.data;
      }
      if (newIpAddress === ipAddress && label === undefined) throw badRequest(ACCESS_MESSAGES.nothingToChange, 'ValidationFailed');
      if (!(await repo.has(auth.partnerId, ipAddress))) throw missing(ipAddress);
      if (newIpAddress !== ipAddress && (await repo.has(auth.partnerId, newIpAddress))) throw taken(newIpAddress);
      const words = (t: MailTexts) =>
        newIpAddress !== ipAddress ? t.otpPurpose.ipChange(ipAddress, newIpAddress, label) : t.otpPurpose.ipRelabel(ipAddress, label);
      return { target: updateTarget(ipAddress, newIpAddress, label), words };
    },

    /** Before a code is sent to remove an address: it is on the list. */
    async checkDelete(auth: Auth, target: { ipAddress: string }) {
      await requireManager(auth);
      const ipAddress = ipOf(target.ipAddress);
      if (!(await repo.has(auth.partnerId, ipAddress))) throw missing(ipAddress);
      return { target: { ipAddress }, words: (t: MailTexts) => t.otpPurpose.ipDelete(ipAddress) };
    },

    /** PUT partner/ip-address: one allowed address becomes another, with the code sent for that change. */
    async change(auth: Auth, input: { ipAddress: string; newIpAddress: string; label?: string; otp: string }): Promise<AllowedIpAddress> {
      const { ipAddress, newIpAddress, label, otp } = input;
      await requireManager(auth);
      if (newIpAddress === ipAddress && label === undefined) throw badRequest(ACCESS_MESSAGES.nothingToChange, 'ValidationFailed');
      const row = await deps.authorise(auth, otp, { action: 'ip.update', target: updateTarget(ipAddress, newIpAddress, label) }, async (trx) => {
        await repo.countForUpdate(trx, auth.partnerId);
        if (!(await repo.has(auth.partnerId, ipAddress, trx))) throw missing(ipAddress);
        if (newIpAddress !== ipAddress && (await repo.has(auth.partnerId, newIpAddress, trx))) throw taken(newIpAddress);
        const changed = await repo.change(trx, auth.partnerId, ipAddress, { ipAddress: newIpAddress, label: label === undefined ? undefined : label || null });
        if (!changed) throw missing(ipAddress);
        await audit(trx, auth, 'ip_address.changed', newIpAddress, {
          from: ipAddress,
          to: newIpAddress,
          ...(label !== undefined ? { label: label || null } : {}),
        });
        if (newIpAddress !== ipAddress) {
          await publish(trx, auth, 'ip_deleted', ipAddress, 'deleted');
          await publish(trx, auth, 'ip_added', newIpAddress, 'whitelisted');
        } else await publish(trx, auth, 'ip_changed', ipAddress, 'whitelisted');
        await tellAdmins(trx, auth, (t, actor) =>
          newIpAddress !== ipAddress ? t.notices.ipReplaced({ actor, ip: ipAddress, newIp: newIpAddress }) : t.notices.ipRelabelled({ actor, ip: ipAddress }),
        );
        return changed;
      });
      await deps.invalidate(auth.partnerId);
      return toAllowed(row);
    },

    async list(auth: Auth): Promise<{ ipAddresses: AllowedIpAddress[] }> {
      await requireManager(auth);
      return { ipAddresses: (await repo.list(auth.partnerId)).map(toAllowed) };
    },

    async add(auth: Auth, ipAddress: string, otp: string): Promise<AllowedIpAddress> {
      await requireManager(auth);
      const row = await deps.authorise(auth, otp, { action: 'ip.add', target: { ipAddress } }, async (trx) => {
        if ((await repo.countForUpdate(trx, auth.partnerId)) >= MAX_IP_ADDRESSES) throw tooMany();
        const inserted = await repo.insert(trx, {
          partnerId: auth.partnerId,
          ipAddress,
          createdBy: auth.userId,
          createdByEmail: auth.email,
          now: new Date(deps.now()),
        });
        if (!inserted) throw taken(ipAddress);
        await audit(trx, auth, 'ip_address.added', ipAddress);
        await publish(trx, auth, 'ip_added', ipAddress, 'whitelisted');
        await tellAdmins(trx, auth, (t, actor) => t.notices.ipAdded({ actor, ip: ipAddress }));
        return inserted;
      });
      await deps.invalidate(auth.partnerId);
      return toAllowed(row);
    },

    async remove(auth: Auth, ipAddress: string, otp: string): Promise<{ message: string }> {
      await requireManager(auth);
      await deps.authorise(auth, otp, { action: 'ip.delete', target: { ipAddress } }, async (trx) => {
        const removed = await repo.remove(trx, auth.partnerId, ipAddress);
        if (!removed) throw missing(ipAddress);
        await audit(trx, auth, 'ip_address.deleted', ipAddress);
        await publish(trx, auth, 'ip_deleted', ipAddress, 'deleted');
        await tellAdmins(trx, auth, (t, actor) => t.notices.ipRemoved({ actor, ip: ipAddress }));
      });
      await deps.invalidate(auth.partnerId);
      return { message: `${ipAddress} removed from the allowed addresses` };
    },
  };
}

export type AllowedIpsService = ReturnType<typeof createAllowedIpsService>;
