import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LIVE_EVENTS_PATH, sessionEndMessage, type LiveAccessEvent, type LiveEndedEvent, type SessionEndReason, LIVE_MESSAGES } from '@portal/contract/live';
import { logFailure } from '../../db/outage.ts';
import { AppError } from '../../lib/errors.ts';
import { localize, requestLanguage } from '../../lib/language.ts';
import { authOf } from '../../plugins/auth.ts';
import type { LoggedEvent } from '../../lib/live-bus.ts';
import { sessionEnd, type SessionReads } from '../auth/index.ts';

/** Seconds between two comments on an idle stream, so proxies and the browser keep it open. */
export const LIVE_HEARTBEAT_SECONDS = 15;
/** Milliseconds a client waits before it reconnects to a stream that a server ended by shutting down. */
const RECONNECT_AFTER_SHUTDOWN_MS = 250;
/** Times a stream tries a replay that failed again (once a second) before it leaves it to the client's refetch. */
const REPLAY_ATTEMPTS = 60;
/** Ids a stream remembers having sent, so that a replay never sends one twice. */
const SENT_IDS_KEPT = 5000;

/** What a stream does when the cache bus says something of its user changed. */
type Watcher = { check(): void; partnerChanged(): void };

/** The Last-Event-ID a reconnecting client sends: an event id of the log, or nothing usable. */
function lastEventId(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value || !/^\d{1,15}$/.test(value.trim())) return undefined;
  return Number(value.trim());
}

/**
 * GET events: the signed-in user's partner's changes as server-sent events (`event: change`, data a LiveEvent), for
 * the portal's open tables, payment details and balance. Authenticated like every call (bearer token); only the
 * partner of the token is subscribed, so another partner's change never reaches the stream. `event: resync` asks the
 * client to refetch everything (notifications may have been missed while this server's listener reconnected).
 * Every change carries its id in the event log (`id:`); a client that reconnects, to this instance or another, sends
 * the last one as `Last-Event-ID` and is sent what it missed from the log, then the live changes.
 *
 * The stream follows its session and its user's access: when the cache bus drops the session (logout, refresh-token
 * reuse, password reset, removal) or the user (role change, removal), here or on another instance, the stream reads
 * both again (one query) and, if the session ended, sends `event: ended` (a LiveEndedEvent: the reason and its
 * words) and closes; if the role changed, `event: access` (reason 'role'). A change of the partner (its flags, its
 * settings) sends `event: access` (reason 'partner'). Each stream also reads its session every
 * LIVE_SESSION_CHECK_SECONDS, in case a notification was lost.
 */
export const liveEventRoutes: FastifyPluginAsyncZod<{ sessions: Pick<SessionReads, 'sessionUser' | 'partnerName'> }> = async (app, { sessions: repo }) => {
  app.addHook('onRequest', app.authenticate);
  const closing = new Set<() => void>();
  // streams held per user on this server: a tab left open in many windows (or a loop) cannot hold sockets without end
  const open = new Map<string, number>();
  app.addHook('preClose', async () => {
    for (const end of closing) end();
  });
  // the streams that care about a cache-bus key: `session|<sid>`, `user|<partnerId>:<userId>`, `partner|<partnerId>`
  const watchers = new Map<string, Set<Watcher>>();
  const watch = (keys: string[], watcher: Watcher) => {
    for (const key of keys) {
      const set = watchers.get(key) ?? new Set<Watcher>();
      set.add(watcher);
      watchers.set(key, set);
    }
    return () => {
      for (const key of keys) {
        const set = watchers.get(key);
        set?.delete(watcher);
        if (set?.size === 0) watchers.delete(key);
      }
    };
  };
  const heard = (name: string, watcher: Watcher) => {
    if (name === 'partner') watcher.partnerChanged();
    else if (name === 'session' || name === 'user') watcher.check();
  };
  const offDrop = app.cacheBus.onDrop((name, key) => {
    if (key === '*') {
      // the listener came back after a loss: anything may have changed, every stream looks again
      for (const set of watchers.values()) for (const watcher of set) heard(name, watcher);
      return;
    }
    const set = watchers.get(`${name}|${key}`);
    if (set) for (const watcher of [...set]) heard(name, watcher);
  });
  app.addHook('onClose', async () => offDrop());
  app.get(LIVE_EVENTS_PATH, { schema: { hide: true } }, async (request, reply) => {
    const { partnerId, userId, sessionId, role } = authOf(request);
    const held = open.get(userId) ?? 0;
    if (held >= app.config.LIVE_STREAMS_PER_USER) throw new AppError(429, 'TooManyRequests', LIVE_MESSAGES.tooManyStreams);
    open.set(userId, held + 1);
    reply.hijack();
    const res = reply.raw;
    // the reply is written by hand: the headers every reply carries (the security headers) are copied over
    const common: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) common[name] = value;
    res.writeHead(200, {
      ...common,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'x-content-type-options': 'nosniff',
      'x-request-id': request.id,
    });
    // nothing is written once the stream has ended (its session ended, the client left)
    const write = (text: string) => {
      if (!res.writableEnded && !res.destroyed) res.write(text);
    };
    // a client that reconnects waits this long (ms) at least
    write('retry: 2000\n\n');
    // ids sent on this stream (the last ones): a replay and the live events it overlaps are sent once
    const sent = new Set<number>();
    let lastSent = lastEventId(request.headers['last-event-id']);
    const send = ({ id, event }: LoggedEvent) => {
      if (sent.has(id)) return;
      sent.add(id);
      if (sent.size > SENT_IDS_KEPT) sent.delete(sent.values().next().value!);
      lastSent = id;
      write(`id: ${id}\nevent: change\ndata: ${JSON.stringify(event)}\n\n`);
    };
    // what this stream missed (before it opened, or while this server's listener was reconnecting), from the log;
    // live events that arrive meanwhile wait, so that the order stays the log's
    let replaying: LoggedEvent[] | undefined;
    // where the next replay starts (the last id sent when events may have begun to be missed); undefined: none due
    let replayFrom = lastSent;
    let again = false;
    let streaming = true;
    let retry: NodeJS.Timeout | undefined;
    let failures = 0;
    const catchUp = async () => {
      if (!streaming || replayFrom === undefined) return;
      if (replaying) {
        again = true;
        return;
      }
      replaying = [];
      let failed = false;
      try {
        const missed = await app.liveBus.missed(partnerId, replayFrom);
        if (missed) missed.forEach(send);
        else write('event: resync\ndata: {}\n\n');
        failures = 0;
        // a gap that opened while this replay ran starts at or after its start: replay again from there
        if (!again) replayFrom = undefined;
      } catch (err) {
        // the database is out (or this server's pool has not found it again yet): the client refetches what it
        // shows now, and the replay is tried again from the same place, so that the events themselves still come
        failed = true;
        if (failures++ === 0) {
          request.log.warn({ err }, 'live events could not be replayed yet; the stream tries again');
          write('event: resync\ndata: {}\n\n');
        }
      }
      const waiting = replaying;
      replaying = undefined;
      waiting.forEach(send);
      if (again) {
        again = false;
        void catchUp();
      } else if (failed && streaming && failures <= REPLAY_ATTEMPTS) {
        clearTimeout(retry);
        retry = setTimeout(() => void catchUp(), 1000);
      }
    };
    const unsubscribe = app.liveBus.subscribe(
      partnerId,
      (event) => (replaying ? replaying.push(event) : send(event)),
      () => {
        if (lastSent === undefined && replayFrom === undefined) return void write('event: resync\ndata: {}\n\n');
        replayFrom ??= lastSent;
        void catchUp();
      },
    );
    void catchUp();

    // the session and the user's access, as they are now: read again whenever the cache bus says they changed
    let knownRole: string = role;
    let checking = false;
    let checkAgain = false;
    const endSession = async (reason: SessionEndReason) => {
      const name = reason === 'removed' ? await repo.partnerName(partnerId) : undefined;
      const ended: LiveEndedEvent = { reason, message: localize(requestLanguage(request), sessionEndMessage(reason, name)) };
      if (!streaming) return;
      end();
      if (!res.writableEnded) res.end(`event: ended\ndata: ${JSON.stringify(ended)}\n\n`);
    };
    const access = (reason: LiveAccessEvent['reason']) => write(`event: access\ndata: ${JSON.stringify({ reason } satisfies LiveAccessEvent)}\n\n`);
    const check = async () => {
      if (!streaming) return;
      if (checking) {
        checkAgain = true;
        return;
      }
      checking = true;
      try {
        do {
          // a change announced while a read ran may have committed after it: read once more
          checkAgain = false;
          const row = await repo.sessionUser(partnerId, sessionId, userId);
          if (!streaming) return;
          // no row: the session (or the user) is gone altogether
          const reason = row ? sessionEnd(row) : 'expired';
          if (reason) return await endSession(reason);
          if (row && row.role !== knownRole) {
            knownRole = row.role;
            access('role');
          }
        } while (checkAgain && streaming);
      } catch (err) {
        // the database is out: the next change or the periodic check reads again
        logFailure(request.log, err, 'live stream could not read its session; it reads it again at the next change or check');
      } finally {
        checking = false;
      }
    };
    const unwatch = watch([`session|${sessionId}`, `user|${partnerId}:${userId}`, `partner|${partnerId}`], {
      check: () => void check(),
      partnerChanged: () => access('partner'),
    });
    const sessionTimer = setInterval(() => void check(), app.config.LIVE_SESSION_CHECK_SECONDS * 1000);
    sessionTimer.unref();

    const heartbeat = setInterval(() => write(': ping\n\n'), LIVE_HEARTBEAT_SECONDS * 1000);
    heartbeat.unref();
    function end() {
      if (!streaming) return;
      streaming = false;
      clearTimeout(retry);
      clearInterval(heartbeat);
      clearInterval(sessionTimer);
      unwatch();
      unsubscribe();
      const left = (open.get(userId) ?? 1) - 1;
      if (left > 0) open.set(userId, left);
      else open.delete(userId);
    }
    res.on('close', end);
    // the server closing ends every stream, asking the client to come back at once (to another instance)
    const onClose = () => {
      if (!res.writableEnded) res.end(`retry: ${RECONNECT_AFTER_SHUTDOWN_MS}\nevent: reconnect\ndata: {}\n\n`);
    };
    closing.add(onClose);
    res.on('close', () => closing.delete(onClose));
  });
};
