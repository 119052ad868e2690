import { ACCESS_MESSAGES } from '@portal/contract/errors';
import crypto from 'node:crypto';
import type { Kysely, Selectable, Transaction } from 'kysely';
import {
  MAX_WEBHOOKS,
  WEBHOOK_MESSAGES,
  WEBHOOK_TEST_EVENT,
  type WebhookEventType,
  type CreatedWebhookResponse,
  type RollWebhookSecretRequest,
  type RolledWebhookSecretResponse,
  type DeliveryResponse,
  type Webhook,
  type WebhookActivityResponse,
  type WebhookDelivery,
  type WebhookResponse,
  type WebhooksResponse,
  WebhookUrl,
} from '@portal/contract/webhooks';
import type { RateLimitRepository } from '../../db/rate-limit.repository.ts';
import type { DB, WebhookAttemptsTable, WebhookEndpointsTable } from '../../db/schema.ts';
import type { LivePublisher } from '../../lib/live-bus.ts';
import type { MailTexts, Notice, Person, WebhookChange } from '../../lib/mail-texts/index.ts';
import { auditChange } from '../../lib/audit.repository.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { encrypt, type KeyRing } from '../../lib/keys.ts';
import { RefusedTargetError, checkPublicHost, hostOf } from '../../lib/ssrf.ts';
import { accountOf, requireCan, type Auth } from '../../lib/access.ts';
import { rolesFor } from '@portal/contract/permissions';
import type { OtpService } from '../otp/index.ts';
import type { PartnerAccess } from '../partners/index.ts';
import type { Notifier } from '../notifications/index.ts';
import { nudgeOutbox, recordEvent } from './webhook-events.ts';
import { newWebhookSecret, webhookMessageId } from './webhook-signing.ts';
import {
  attemptsOf,
  countDeliveries,
  countEndpoints,
  deleteEndpoint,
  findDelivery,
  findEndpoint,
  insertDelivery,
  insertEndpoint,
  listDeliveries,
  listEndpoints,
  lockPartnerWebhooks,
  notifyOutbox,
  resetForResend,
  updateEndpoint,
  type DeliveryRow,
} from './webhooks.repository.ts';

export type WebhooksDeps = {
  db: Kysely<DB>;
  encryptionKey: KeyRing;
  otp: Pick<OtpService, 'authorise'>;
  /** the partner's feature rule (the partners module's port) */
  partners: Pick<PartnerAccess, 'requireFeature'>;
  now: () => number;
  /** production: https only, and the host must resolve to public addresses only (SSRF) */
  production: boolean;
  rateLimits: Pick<RateLimitRepository, 'hit'>;
  /** announces each change of an endpoint, and each delivery a person sent, to the partner's open screens */
  live: LivePublisher;
  /** tells the partner's admins of each change of an endpoint, in its transaction */
  notifier: Pick<Notifier, 'notify'>;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Test events and resends a partner may ask for in a minute (each makes the server call out). */
export const MANUAL_SENDS_PER_MINUTE = 30;

/** Totals of the activity list are exact up to this many. */
const COUNT_CAP = 10_000;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** An endpoint as the portal shows it; `now` decides whether the previous secret (after a roll) still signs. */
export function toWebhook(r: Selectable<WebhookEndpointsTable>, now = Date.now()): Webhook {
  const previousUntil = r.previous_secret_encrypted && r.previous_secret_expires_at ? new Date(r.previous_secret_expires_at) : null;
  return {
    id: r.id,
    partnerId: r.partner_id,
    url: r.url,
    description: r.description,
    events: r.events as WebhookEventType[],
    active: r.active,
    state: r.state as Webhook['state'],
    failingSince: iso(r.failing_since),
    previousSecretExpiresAt: previousUntil && previousUntil.getTime() > now ? previousUntil.toISOString() : null,
    createdAt: iso(r.created_at)!,
    updatedAt: iso(r.updated_at)!,
  };
}

function toDelivery(r: DeliveryRow, attempts: Selectable<WebhookAttemptsTable>[]): WebhookDelivery {
  const eventId = webhookMessageId(r.event_id);
  return {
    id: r.id,
    webhookId: r.endpoint_id,
    url: r.url,
    eventId,
    eventType: r.type,
    payload: { id: eventId, type: r.type, timestamp: iso(r.event_created_at), data: r.data },
    status: r.status as WebhookDelivery['status'],
    note: r.note,
    // a pending delivery with a job is being attempted now; without one it waits for its time
    nextAttemptAt: r.status === 'pending' ? iso(r.next_attempt_at) : null,
    createdAt: iso(r.created_at)!,
    attempts: attempts.map((a) => ({
      attemptedAt: iso(a.attempted_at)!,
      statusCode: a.status_code,
      durationMs: a.duration_ms,
      responseSnippet: a.response_snippet,
      error: a.error,
      trigger: a.trigger as 'automatic' | 'manual',
    })),
  };
}

/**
 * Webhook endpoints and their deliveries for the caller's partner (flag webhooksManagementEnabled, business
 * partners). Every user of the partner reads them; admins change them, each change with an e-mailed code.
 */
export function createWebhooksService(deps: WebhooksDeps) {
  const { db } = deps;
  const now = () => new Date(deps.now());

  async function access(auth: Auth, change: boolean) {
    const partner = await deps.partners.requireFeature(auth, 'webhooksManagementEnabled', WEBHOOK_MESSAGES.notEnabled);
    if (!partner.productTypes.includes('B2B')) throw forbidden(WEBHOOK_MESSAGES.businessOnly);
    if (change) requireCan(auth, 'manageWebhooks');
  }

  /** In production a receiver must be https and public (checked again, on the connected address, at every attempt). */
  async function checkTarget(raw: string) {
    if (!deps.production) return;
    const url = new URL(raw);
    if (url.protocol !== 'https:') throw new AppError(400, 'WebhookUrlRefused', WEBHOOK_MESSAGES.httpsRequired);
    try {
      await checkPublicHost(hostOf(url));
    } catch (err) {
      if (!(err instanceof RefusedTargetError)) throw err;
      throw new AppError(400, 'WebhookUrlRefused', err.address ? WEBHOOK_MESSAGES.privateTarget : WEBHOOK_MESSAGES.unresolvable);
    }
  }

  const tooMany = () => new AppError(409, 'TooManyWebhooks', WEBHOOK_MESSAGES.tooMany);

  /** Test events and resends make the server call out on a person's click: a partner gets a few a minute. */
  async function limitManualSends(auth: Auth) {
    const hit = await deps.rateLimits.hit(`webhook-manual:${auth.partnerId}`, 60_000, now());
    if (hit.hits > MANUAL_SENDS_PER_MINUTE) throw new AppError(429, 'TooManyRequests', WEBHOOK_MESSAGES.tooManySends);
  }
  // the audit trail and the admins told are the account's, for a change of a test endpoint too (the portal's test view)
  const actor = (auth: Auth) => ({ partnerId: accountOf(auth), actorUserId: auth.userId, actor: auth.email });
  /** The change, for the partner's event stream (in the change's transaction): an endpoint's, or a delivery's. */
  const announce = (trx: Transaction<DB>, partnerId: string, kind: string, id: string, status: string) =>
    deps.live.publish(trx, { partnerId, table: 'webhooks', kind, id, status, at: now().toISOString() });
  /** Tells the partner's admins of a change of an endpoint (the one who made it too). */
  const tellAdmins = (trx: Transaction<DB>, auth: Auth, notice: (texts: MailTexts, actor: Person) => Notice) =>
    deps.notifier.notify(trx, {
      partnerId: accountOf(auth),
      topic: 'developers',
      to: { roles: rolesFor('manageWebhooks') },
      notice: (t) => notice(t, { name: auth.name, email: auth.email }),
      link: '/webhooks',
      at: now(),
    });
  const endpointStatus = (r: Selectable<WebhookEndpointsTable>) => (r.active ? r.state : 'disabled');

  async function endpointOrThrow(auth: Auth, id: string) {
    if (!UUID.test(id)) throw notFound(WEBHOOK_MESSAGES.notFound);
    const endpoint = await findEndpoint(db, auth.partnerId, id);
    if (!endpoint) throw notFound(WEBHOOK_MESSAGES.notFound);
    return endpoint;
  }

  async function deliveryWithAttempts(partnerId: string, id: string): Promise<WebhookDelivery> {
    const row = await findDelivery(db, partnerId, id);
    if (!row) throw notFound(WEBHOOK_MESSAGES.deliveryNotFound);
    return toDelivery(row, await attemptsOf(db, partnerId, [id]));
  }

  /** A new endpoint's rules (role, flag, URL incl. the SSRF checks, the limit), refused before a code is spent. */
  async function checkCreate(auth: Auth, url: string) {
    await access(auth, true);
    await checkTarget(url);
    // checked again under the partner's lock
    if ((await countEndpoints(db, auth.partnerId)) >= MAX_WEBHOOKS) throw tooMany();
  }

  /** A URL a code request names, read with the final call's rule. */
  function urlOf(text: string): string {
    const parsed = WebhookUrl.safeParse(text);
    if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Enter a valid URL', 'ValidationFailed');
    return parsed.data;
  }

  return {
    /** Before a code is sent to add an endpoint: the final call's checks, then the mail's words. */
    async checkCreate(auth: Auth, target: { url: string }) {
      const url = urlOf(target.url);
      await checkCreate(auth, url);
      return { target: { url }, words: (t: MailTexts) => t.otpPurpose.webhookCreate(url) };
    },

    /** Before a code is sent to change an endpoint: it is yours, and a new URL passes the rules. */
    async checkUpdate(auth: Auth, target: { id: string; url?: string }) {
      await access(auth, true);
      const existing = await endpointOrThrow(auth, target.id);
      const url = target.url === undefined ? undefined : urlOf(target.url);
      if (url !== undefined && url !== existing.url) await checkTarget(url);
      return { target: { id: existing.id, url: url ?? null }, words: (t: MailTexts) => t.otpPurpose.webhookUpdate(url ?? existing.url) };
    },

    /** Before a code is sent to delete an endpoint: it is yours. */
    async checkDelete(auth: Auth, target: { id: string }) {
      await access(auth, true);
      const existing = await endpointOrThrow(auth, target.id);
      return { target: { id: existing.id }, words: (t: MailTexts) => t.otpPurpose.webhookDelete(existing.url) };
    },

    /** Before a code is sent to roll an endpoint's secret: it is yours. */
    async checkRoll(auth: Auth, target: { id: string }) {
      await access(auth, true);
      const existing = await endpointOrThrow(auth, target.id);
      return { target: { id: existing.id }, words: (t: MailTexts) => t.otpPurpose.webhookRoll(existing.url) };
    },

    async list(auth: Auth): Promise<WebhooksResponse> {
      await access(auth, false);
      return { webhooks: (await listEndpoints(db, auth.partnerId)).map((r) => toWebhook(r, deps.now())) };
    },

    async create(auth: Auth, input: { url: string; events: WebhookEventType[]; description?: string; otp: string }): Promise<CreatedWebhookResponse> {
      await checkCreate(auth, input.url);
      const secret = newWebhookSecret();
      const row = await deps.otp.authorise(auth, input.otp, { action: 'webhook.create', target: { url: input.url } }, async (trx) => {
        await lockPartnerWebhooks(trx, auth.partnerId);
        if ((await countEndpoints(trx, auth.partnerId)) >= MAX_WEBHOOKS) throw tooMany();
        const created = await insertEndpoint(trx, {
          partner_id: auth.partnerId,
          id: crypto.randomUUID(),
          url: input.url,
          description: input.description || null,
          events: input.events,
          secret_encrypted: encrypt(deps.encryptionKey, secret),
          created_at: now(),
          updated_at: now(),
        });
        await auditChange(trx, { ...actor(auth), action: 'webhook.created', target: created.id, details: { url: input.url, events: input.events } });
        await announce(trx, auth.partnerId, 'created', created.id, endpointStatus(created));
        await tellAdmins(trx, auth, (t, actor) => t.notices.webhookAdded({ actor, url: created.url, eventTypes: input.events.length }));
        return created;
      });
      return { webhook: toWebhook(row, deps.now()), secret };
    },

    async update(
      auth: Auth,
      input: { id: string; url?: string; events?: WebhookEventType[]; description?: string; active?: boolean; otp: string },
    ): Promise<WebhookResponse> {
      await access(auth, true);
      const existing = await endpointOrThrow(auth, input.id);
      const changes: Partial<Selectable<WebhookEndpointsTable>> = {};
      if (input.url !== undefined && input.url !== existing.url) {
        await checkTarget(input.url);
        // a new address starts with a clean bill of health
        Object.assign(changes, { url: input.url, state: 'healthy', failing_since: null });
      }
      if (input.events !== undefined) changes.events = input.events;
      if (input.description !== undefined) changes.description = input.description || null;
      if (input.active !== undefined) changes.active = input.active;
      if (Object.keys(changes).length === 0) throw badRequest(ACCESS_MESSAGES.nothingToChange, 'ValidationFailed');
      const purpose = { action: 'webhook.update' as const, target: { id: input.id, url: input.url ?? null } };
      const row = await deps.otp.authorise(auth, input.otp, purpose, async (trx) => {
        const updated = await updateEndpoint(trx, auth.partnerId, input.id, { ...changes, updated_at: now() });
        if (!updated) throw notFound(WEBHOOK_MESSAGES.notFound);
        const { state: _state, failing_since: _since, ...details } = changes;
        await auditChange(trx, { ...actor(auth), action: 'webhook.updated', target: input.id, details });
        await announce(trx, auth.partnerId, 'updated', updated.id, endpointStatus(updated));
        const change: WebhookChange = {
          url: existing.url,
          newUrl: changes.url !== undefined ? updated.url : undefined,
          events: changes.events !== undefined,
          description: changes.description !== undefined,
          active: changes.active !== undefined ? updated.active : undefined,
        };
        await tellAdmins(trx, auth, (t, actor) => t.notices.webhookChanged({ actor, change }));
        return updated;
      });
      return { webhook: toWebhook(row, deps.now()) };
    },

    /**
     * A new signing secret, shown once. The old one keeps signing beside it (both signatures on each delivery) until
     * the chosen time, at most 7 days, so that the receiver can move to the new one without refusing a delivery;
     * 0 minutes ends it at once. A secret left from an earlier roll ends now.
     */
    async rollSecret(auth: Auth, id: string, input: RollWebhookSecretRequest): Promise<RolledWebhookSecretResponse> {
      await access(auth, true);
      const existing = await endpointOrThrow(auth, id);
      const minutes = input.previousSecretMinutes ?? 0;
      const secret = newWebhookSecret();
      const at = now();
      const previousUntil = minutes > 0 ? new Date(at.getTime() + minutes * 60_000) : null;
      const row = await deps.otp.authorise(auth, input.otp, { action: 'webhook.roll', target: { id } }, async (trx) => {
        const current = await findEndpoint(trx, auth.partnerId, id);
        if (!current) throw notFound(WEBHOOK_MESSAGES.notFound);
        const updated = await updateEndpoint(trx, auth.partnerId, id, {
          secret_encrypted: encrypt(deps.encryptionKey, secret),
          previous_secret_encrypted: previousUntil ? current.secret_encrypted : null,
          previous_secret_expires_at: previousUntil,
          updated_at: at,
        });
        if (!updated) throw notFound(WEBHOOK_MESSAGES.notFound);
        const until = previousUntil?.toISOString() ?? null;
        await auditChange(trx, { ...actor(auth), action: 'webhook.secret_rolled', target: id, details: { previousSecretExpiresAt: until } });
        await announce(trx, auth.partnerId, 'updated', id, endpointStatus(updated));
        await tellAdmins(trx, auth, (t, actor) => t.notices.webhookSecretRolled({ actor, url: existing.url, until: previousUntil }));
        return updated;
      });
      return { webhook: toWebhook(row, deps.now()), secret };
    },

    async remove(auth: Auth, id: string, otp: string): Promise<{ id: string }> {
      await access(auth, true);
      const existing = await endpointOrThrow(auth, id);
      await deps.otp.authorise(auth, otp, { action: 'webhook.delete', target: { id } }, async (trx) => {
        // its deliveries and their attempts go with it; a job already queued for one finds nothing and ends
        if (!(await deleteEndpoint(trx, auth.partnerId, id))) throw notFound(WEBHOOK_MESSAGES.notFound);
        await auditChange(trx, { ...actor(auth), action: 'webhook.deleted', target: id, details: { url: existing.url } });
        await announce(trx, auth.partnerId, 'deleted', id, 'deleted');
        await tellAdmins(trx, auth, (t, actor) => t.notices.webhookDeleted({ actor, url: existing.url }));
      });
      return { id };
    },

    async activity(auth: Auth, query: { webhookId?: string; status?: string; startIndex: number; size: number }): Promise<WebhookActivityResponse> {
      await access(auth, false);
      const filter = { webhookId: query.webhookId, status: query.status };
      const [rows, total] = await Promise.all([
        listDeliveries(db, auth.partnerId, { ...filter, offset: query.startIndex, limit: query.size }),
        countDeliveries(db, auth.partnerId, filter, COUNT_CAP),
      ]);
      const attempts = await attemptsOf(
        db,
        auth.partnerId,
        rows.map((r) => r.id),
      );
      return {
        activities: rows.map((r) =>
          toDelivery(
            r,
            attempts.filter((a) => a.delivery_id === r.id),
          ),
        ),
        total,
      };
    },

    /** Sends a finished delivery again now, once (the same event id, a fresh signature). */
    async resend(auth: Auth, deliveryId: string): Promise<DeliveryResponse> {
      await access(auth, true);
      await limitManualSends(auth);
      await db.transaction().execute(async (trx) => {
        if (!(await resetForResend(trx, auth.partnerId, deliveryId))) {
          if (!(await findDelivery(trx, auth.partnerId, deliveryId))) throw notFound(WEBHOOK_MESSAGES.deliveryNotFound);
          throw conflict(WEBHOOK_MESSAGES.stillAttempting);
        }
        await notifyOutbox(trx);
        await auditChange(trx, { ...actor(auth), action: 'webhook.delivery_resent', target: deliveryId });
        await announce(trx, auth.partnerId, 'delivery', deliveryId, 'pending');
      });
      nudgeOutbox();
      return { delivery: await deliveryWithAttempts(auth.partnerId, deliveryId) };
    },

    /** A WEBHOOK.TEST event to one endpoint, whatever it subscribes to: one attempt, shown in its activity. */
    async sendTest(auth: Auth, webhookId: string): Promise<DeliveryResponse> {
      await access(auth, true);
      const endpoint = await endpointOrThrow(auth, webhookId);
      await limitManualSends(auth);
      const deliveryId = crypto.randomUUID();
      await db.transaction().execute(async (trx) => {
        const { eventId } = await recordEvent(trx, {
          partnerId: auth.partnerId,
          type: WEBHOOK_TEST_EVENT,
          key: null,
          data: { webhookId: endpoint.id, message: 'A test event sent from the Partner Dashboard.', sentBy: auth.email },
        });
        await insertDelivery(trx, { partnerId: auth.partnerId, id: deliveryId, eventId, endpointId: endpoint.id, manual: true });
        await notifyOutbox(trx);
        await auditChange(trx, { ...actor(auth), action: 'webhook.test_sent', target: endpoint.id });
        await announce(trx, auth.partnerId, 'delivery', deliveryId, 'pending');
      });
      nudgeOutbox();
      return { delivery: await deliveryWithAttempts(auth.partnerId, deliveryId) };
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
