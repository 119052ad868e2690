import type { StartPart } from '@portal/contract/start';
import { api, csrfFrom } from './api-client.ts';
import { nextTask } from './next-task.ts';

type Parts = Partial<Record<StartPart, unknown>>;

/** A part not taken this long after the start data arrived is old: its query asks its own call. */
const KEEP_MS = 10_000;

let arriving: Promise<unknown> | undefined;
let held: { parts: Parts; at: number } | undefined;
/** Moves on at each logout: a reply asked for before it is not kept. */
let generation = 0;

/**
 * Asks for the start data (GET partner/start): the partner and its flags, balances, the banners' data, the bell, the
 * user's time zone and a request-forgery token, in one round trip. Each query of those takes its part from it once
 * (`fromStart`) instead of making its own call; calls that need the token wait for it. A failed start call leaves
 * each query to its own call.
 */
export function beginStart() {
  if (arriving) return;
  const asked = generation;
  const reply = api.get<Record<string, unknown>>('partner/start');
  csrfFrom(reply.then((r) => (asked === generation && typeof r.csrf === 'string' ? r.csrf : undefined)));
  const done = reply.then(
    (r) => {
      if (asked === generation) held = { parts: r, at: Date.now() };
    },
    () => undefined,
  );
  arriving = done;
  void done.then(() => {
    if (arriving === done) arriving = undefined;
  });
}

/**
 * A query's part of the start data, read with its schema (in a task of its own), once (a later fetch of the query is
 * its own call); undefined when there is none to take (no start data, or it did not hold this part for this user).
 */
export async function fromStart<T>(part: StartPart, schema: { parse: (value: unknown) => T }): Promise<T | undefined> {
  if (arriving) await arriving;
  if (!held || Date.now() - held.at > KEEP_MS) return undefined;
  const value = held.parts[part];
  delete held.parts[part];
  if (value === null || value === undefined) return undefined;
  // the queries of the first screen all ask at once (when its effects run): each reads its part in a task of its own,
  // so that reading them all does not hold the page in one long task
  await nextTask();
  return schema.parse(value);
}

/** A query's data: its part of the start data when there is one, else its own call. */
export async function startOr<T>(part: StartPart, schema: { parse: (value: unknown) => T }, own: () => Promise<T>): Promise<T> {
  return (await fromStart(part, schema)) ?? own();
}

/** Forgets start data not taken yet (logout: the next user's queries must not read it). */
export function forgetStart() {
  generation += 1;
  held = undefined;
}
