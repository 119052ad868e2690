import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type PgBoss from 'pg-boss';
import type { ApiKeyPermission } from '@portal/contract/api-keys';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { Caller } from '../lib/access.ts';
import type { CacheBus } from '../lib/cache-bus.ts';
import type { FileStorage } from '../lib/file-storage.ts';
import type { Keys } from '../lib/keys.ts';
import type { LiveBus } from '../lib/live-bus.ts';
import type { Mailer } from '../lib/mailer.ts';
import type { MailRelay } from '../lib/mail-relay.ts';

/**
 * The Fastify instance the server builds (app.ts), typed here with what its plugins add to Fastify's types, so that
 * plugins and routes depend on this file and never on the file that assembles them.
 */
export type App = FastifyInstance<Server, IncomingMessage, ServerResponse, FastifyBaseLogger, ZodTypeProvider>;

/** What a signed call carries, read at the start of the request; the body's hash is added as the body is read. */
export type ApiKeyCall = { apiKey: string; timestamp: string; signature: Buffer; bodySha256?: string };

/** A route as declared: its method, its path (with its parameters) and the flags the plugins read from its config. */
export type DeclaredRoute = { method: string; url: string; readOnly: boolean };

declare module 'fastify' {
  interface FastifyInstance {
    /** every route the app declared, a row per method, as declared (app.ts): what the convention tests walk */
    declaredRoutes: readonly DeclaredRoute[];
    config: Config;
    database: Database;
    keys: Keys;
    mailer: Mailer;
    boss: PgBoss | undefined;
    storage: FileStorage;
    /** keeps in-process caches coherent across server instances (lib/cache-bus.ts) */
    cacheBus: CacheBus;
    /** per-partner changes for the live event stream, heard by every instance (lib/live-bus.ts) */
    liveBus: LiveBus;
    /** delivers the mails changes write in their transactions (notifications) */
    mailRelay: MailRelay;
    /** milliseconds since the epoch; tests move it */
    clock: () => number;
    /** plugins/auth.ts: a bearer token's user, or a verified API-key call, as request.auth */
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
  interface FastifyRequest {
    auth: Caller | undefined;
    /** set when a partner-API route is called with the API-key headers: the key is verified before validation */
    apiKeyCall: ApiKeyCall | undefined;
    /** the Idempotency-Key this request claimed: its reply is kept for the next request with the key */
    idempotencyClaim: { partnerId: string; key: string; token: string } | undefined;
  }
  interface FastifyContextConfig {
    /** the route is part of the partner API: API keys with this permission may call it (besides signed-in users) */
    apiKey?: ApiKeyPermission;
    /**
     * the route serves the partner's data, live or test: in the portal's test view (X-Portal-Mode: test) a signed-in
     * user's call reaches the account's test partner instead (plugins/auth.ts); elsewhere the header is ignored
     */
    testData?: true;
    /**
     * a POST that changes nothing (a search sent as a POST for its body): it needs no request-forgery token, so that a
     * screen's first page is asked for beside the start data that brings the token (plugins/csrf.ts)
     */
    readOnly?: true;
    /** a money-moving or heavy call: a partner runs at most its fair share of them at once (plugins/fair-share.ts) */
    fairShare?: true;
    /** a call bounded otherwise (the PDF statement: its entry cap and its gate), which the request deadline leaves alone */
    deadline?: false;
    /** the route answers none of the errors its routes plugin documents for every route (plugins/route-docs.ts) */
    moduleErrors?: false;
  }
}
