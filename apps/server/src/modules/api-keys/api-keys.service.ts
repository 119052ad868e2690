import { PARTNER_MESSAGES } from '@portal/contract/partner';
import crypto from 'node:crypto';
import type { Transaction } from 'kysely';
import {
  MAX_API_KEYS,
  modeOfKeyId,
  type ApiKey,
  type ApiKeyMode,
  type ApiKeyPermission,
  type ApiKeyStatus,
  type ApiKeyWithSecret,
  type RollApiKeyRequest,
  API_KEY_MESSAGES,
} from '@portal/contract/api-keys';
import type { DB } from '../../db/schema.ts';
import { auditChange } from '../../lib/audit.repository.ts';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { encrypt, type KeyRing } from '../../lib/keys.ts';
import type { LivePublisher } from '../../lib/live-bus.ts';
import { requireCan, type Auth } from '../../lib/access.ts';
import { rolesFor } from '@portal/contract/permissions';
import type { PartnerAccess, TestPartners } from '../partners/index.ts';
import type { Notifier } from '../notifications/index.ts';
import type { AllowedIpsRepository, ApiKeyRow, ApiKeysRepository } from './api-keys.repository.ts';

export type ApiKeysDeps = {
  repo: ApiKeysRepository;
  /** the caller's partner, read fresh (the partners module's port) */
  partners: Pick<PartnerAccess, 'find'>;
  /** the partner's test side, for a key made for test (the partners module's port) */
  testPartners: TestPartners;
  encryptionKey: KeyRing;
  now: () => number;
  /** drops a key from every instance's cache of decrypted keys (after the change is committed) */
  invalidateKey: (apiKey: string) => Promise<void>;
  /** announces each change of a key to the partner's open screens */
  live: LivePublisher;
  /** tells the partner's admins of each change of a key, in its transaction */
  notifier: Pick<Notifier, 'notify'>;
};

/** A key as its account lists it: `partnerId` is the account's (the live partner's), for a test key too. */
const toApiKey = (r: ApiKeyRow, partnerId: string, now: number): ApiKey => ({
  partnerId,
  mode: modeOfKeyId(r.api_key),
  apiKey: r.api_key,
  name: r.name,
  status: r.status as ApiKeyStatus,
  permissions: r.permissions as ApiKeyPermission[],
  publicKey: r.public_key,
  secretHint: r.secret_hint,
  expiry: r.expires_at?.toISOString() ?? null,
  expired: r.expires_at !== null && r.expires_at.getTime() <= now,
  previousSecretExpiresAt: r.previous_secret_expires_at && r.previous_secret_expires_at.getTime() > now ? r.previous_secret_expires_at.toISOString() : null,
  lastUsedAt: r.last_used_at?.toISOString() ?? null,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});

/**
 * A fresh secret: 32 random bytes. The key id and the public key are random too (none is derived from another). Each
 * names the key's mode, as Stripe's do, so that a test key is told from a live one wherever it is pasted.
 */
const newSecret = (mode: ApiKeyMode) => `sk_${mode}_${crypto.randomBytes(32).toString('base64url')}`;
const newKeyId = (mode: ApiKeyMode) => `ak_${mode}_${crypto.randomBytes(16).toString('hex')}`;
const newPublicKey = (mode: ApiKeyMode) => `pk_${mode}_${crypto.randomBytes(24).toString('base64url')}`;
const hintOf = (secret: string) => secret.slice(-4);

/**
 * API keys (portal-core §3, §6, §7): admins of B2B partners with API keys enabled list, create, disable and enable,
 * roll and delete them. The secret is returned once, at creation and at each roll, and kept encrypted with the
 * server's ENCRYPTION_KEY (the signature check needs it, so a one-way hash would not do). Every change is audited in
 * its transaction and drops the key from the caches of every instance.
 */
/**
 * What a partner-API call's authentication (plugins/api-key-auth.ts) reads and writes: the key of a call, its last use,
 * and the partner's allowed addresses. The API-keys module's port, built by the composition root.
 */
export type ApiKeyCallReads = {
  keys: Pick<ApiKeysRepository, 'findForCall' | 'touchLastUsed'>;
  allowedIps: Pick<AllowedIpsRepository, 'addresses'>;
};

export function createApiKeysService(deps: ApiKeysDeps) {
  const { repo } = deps;

  /** Admins of a B2B partner whose API keys are enabled (the portal's guard says the same; this is the rule). */
  async function requireManager(auth: Auth) {
    requireCan(auth, 'manageApiKeys');
    const partner = await deps.partners.find(auth.partnerId);
    if (!partner) throw notFound(PARTNER_MESSAGES.noSuchPartner);
    if (!partner.productTypes.includes('B2B')) throw forbidden(API_KEY_MESSAGES.businessOnly);
    if (!partner.flags.apiKeysManagementEnabled) throw forbidden(API_KEY_MESSAGES.notEnabled);
  }

  /** The key's change, for the partner's event stream and its admins (in the change's transaction). */
  const announce = async (trx: Transaction<DB>, auth: Auth, kind: string, key: { apiKey: string; name: string }, status: string) => {
    const at = new Date(deps.now());
    await deps.live.publish(trx, { partnerId: auth.partnerId, table: 'api-keys', kind, id: key.apiKey, status, at: at.toISOString() });
    await deps.notifier.notify(trx, {
      partnerId: auth.partnerId,
      topic: 'developers',
      to: { roles: rolesFor('manageApiKeys') },
      notice: (t) => t.notices.apiKeyChanged({ actor: { name: auth.name, email: auth.email }, change: kind, name: key.name, apiKey: key.apiKey }),
      link: '/api-keys',
      at,
    });
  };

  async function change(
    auth: Auth,
    apiKey: string,
    action: `api_key.${string}`,
    work: (trx: Transaction<DB>) => Promise<ApiKeyRow | undefined>,
    details: Record<string, unknown> = {},
  ) {
    await requireManager(auth);
    const row = await repo.transaction(async (trx) => {
      const changed = await work(trx);
      if (!changed) throw notFound(API_KEY_MESSAGES.noSuchKey);
      await auditChange(trx, {
        partnerId: auth.partnerId,
        actorUserId: auth.userId,
        actor: auth.email,
        action,
        target: apiKey,
        details: { name: changed.name, ...details },
      });
      const kind = action.slice('api_key.'.length);
      await announce(trx, auth, kind, { apiKey, name: changed.name }, kind === 'deleted' ? 'deleted' : changed.status);
      return changed;
    });
    await deps.invalidateKey(apiKey);
    return row;
  }

  return {
    async list(auth: Auth): Promise<{ apiKeys: ApiKey[] }> {
      await requireManager(auth);
      const now = deps.now();
      return { apiKeys: (await repo.list(auth.partnerId)).map((r) => toApiKey(r, auth.partnerId, now)) };
    },

    /** A key for live data, or for the partner's test data (its test partner's, made on first need); at most MAX_API_KEYS of each. */
    async create(
      auth: Auth,
      input: { name: string; permissions: ApiKeyPermission[]; expiry?: string | null | undefined; mode?: ApiKeyMode | undefined },
    ): Promise<ApiKeyWithSecret> {
      await requireManager(auth);
      const now = deps.now();
      const mode = input.mode ?? 'live';
      const expiresAt = input.expiry ? new Date(input.expiry) : null;
      if (expiresAt && expiresAt.getTime() <= now) throw badRequest(API_KEY_MESSAGES.expiryPast, 'ValidationFailed');
      const owner = mode === 'test' ? await deps.testPartners.testPartnerOf(auth.partnerId) : auth.partnerId;
      const secretKey = newSecret(mode);
      const row = await repo.transaction(async (trx) => {
        if ((await repo.countForUpdate(trx, owner)) >= MAX_API_KEYS) {
          throw conflict(API_KEY_MESSAGES.tooManyKeys);
        }
        const inserted = await repo.insert(trx, {
          partnerId: owner,
          apiKey: newKeyId(mode),
          publicKey: newPublicKey(mode),
          name: input.name,
          permissions: input.permissions,
          secretEnc: encrypt(deps.encryptionKey, secretKey),
          secretHint: hintOf(secretKey),
          expiresAt,
          createdBy: auth.userId,
          now: new Date(now),
        });
        await auditChange(trx, {
          partnerId: auth.partnerId,
          actorUserId: auth.userId,
          actor: auth.email,
          action: 'api_key.created',
          target: inserted.api_key,
          details: { name: inserted.name, mode, permissions: input.permissions, expiry: expiresAt?.toISOString() ?? null },
        });
        await announce(trx, auth, 'created', { apiKey: inserted.api_key, name: inserted.name }, inserted.status);
        return inserted;
      });
      return { ...toApiKey(row, auth.partnerId, now), secretKey };
    },

    /** PUT partner/apikey: active or disabled ('Active' / 'Inactive'); a disabled key is refused at once. */
    async setStatus(auth: Auth, apiKey: string, status: ApiKeyStatus): Promise<ApiKey> {
      const now = deps.now();
      const row = await change(auth, apiKey, status === 'active' ? 'api_key.enabled' : 'api_key.disabled', (trx) =>
        repo.setStatus(trx, auth.partnerId, apiKey, status, new Date(now)),
      );
      return toApiKey(row, auth.partnerId, now);
    },

    /**
     * A new secret, shown once. The old one keeps signing until the chosen time (at most 7 days), so that servers can
     * move to the new one without an outage; 0 minutes ends it at once. A secret left from an earlier roll ends now.
     */
    async roll(auth: Auth, apiKey: string, input: RollApiKeyRequest): Promise<ApiKeyWithSecret> {
      const now = deps.now();
      const minutes = input.previousSecretMinutes ?? 0;
      const secretKey = newSecret(modeOfKeyId(apiKey));
      const previousUntil = new Date(now + minutes * 60_000);
      const row = await change(
        auth,
        apiKey,
        'api_key.rolled',
        (trx) =>
          repo.roll(trx, auth.partnerId, apiKey, {
            secretEnc: encrypt(deps.encryptionKey, secretKey),
            secretHint: hintOf(secretKey),
            previousUntil,
            now: new Date(now),
          }),
        { previousSecretExpiresAt: minutes > 0 ? previousUntil.toISOString() : null },
      );
      return { ...toApiKey(row, auth.partnerId, now), secretKey };
    },

    async remove(auth: Auth, apiKey: string): Promise<{ message: string }> {
      const row = await change(auth, apiKey, 'api_key.deleted', (trx) => repo.remove(trx, auth.partnerId, apiKey));
      return { message: `API key ${row.name} deleted` };
    },
  };
}

export type ApiKeysService = ReturnType<typeof createApiKeysService>;
