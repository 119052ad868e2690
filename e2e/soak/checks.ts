import type pg from 'pg';
import type * as Cluster from '../../scripts/cluster.d.mts';
import type { Journal } from './tabs.ts';
import { OUTAGE_WORDS, type WorkContext } from './work.ts';

/** A fault of the day: from when it began until 15 s after its command returned. */
export type Phase = { name: string; from: number; to: number; ok: boolean; error?: string };

type Db = <T extends pg.QueryResultRow>(text: string, values?: unknown[]) => Promise<T[]>;

type Input = {
  db: Db;
  cluster: typeof Cluster;
  journal: Journal;
  ctx: WorkContext;
  phases: Phase[];
  began: number;
  stoppedAt: number;
  /** the tab left alone, when it signed in, and the seconds after which the idle rule signs it out */
  idle: { tab: string; since: number; seconds: number };
  partners: Record<string, string>;
  tokenSeconds: number;
};

/** What the person's own steps make the portal say (in a toast, which is an alert too): not errors. */
const OWN_MESSAGES = [/^Invitation sent to /, / is now View only$/, /^The invitation to \S+ was withdrawn/, /^Copied/];
/**
 * Chromium's own console line for every call answered 4xx or 5xx: not something the page showed. The answers' checks
 * judge those calls (a 401 is how an expired token is renewed; a 503 must say when to come back).
 */
const RESOURCE_LINE = /^Failed to load resource: the server responded with a status of \d+/;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN;
};
const s = (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : '-');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Prints rows as a table with aligned columns. */
function table(title: string, header: string[], rows: string[][]) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(`\n${title}\n${line(header)}\n|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|\n${rows.map(line).join('\n')}`);
}

/** Every check of the soak, printed as tables; true when all pass. */
export async function checkAll(input: Input): Promise<boolean> {
  const { db, journal, ctx, phases, idle } = input;
  const results: { check: string; goal: string; found: string; ok: boolean }[] = [];
  const check = (name: string, goal: string, found: string, ok: boolean) => results.push({ check: name, goal, found, ok });
  const details: string[] = [];

  // sign-outs nobody asked for: a tab on /login, other than the one left alone (signed out by the idle rule, once),
  // with the tab's last calls before it (the answer that ended it is among them)
  const lastCalls = (tab: string, until: number) =>
    journal.calls
      .filter((c) => c.tab === tab && c.at <= until)
      .slice(-5)
      .map((c) => `${c.method} ${c.path} ${c.status}${c.code ? ` ${c.code}` : ''}`)
      .join('; ');
  const unasked = journal.tabs
    .filter((t) => t.name !== idle.tab)
    .flatMap((t) => t.onLogin.map((l) => `${t.name} at ${new Date(l.at).toISOString()}: ${l.reason} (calls before it: ${lastCalls(t.name, l.at)})`));
  check('sign-outs nobody asked for', '0', String(unasked.length), unasked.length === 0);
  details.push(...unasked.map((u) => `unasked sign-out: ${u}`));
  const idleTab = journal.tabs.find((t) => t.name === idle.tab)!;
  const idleOut = idleTab.onLogin[0];
  const idleAfter = idleOut ? (idleOut.at - idle.since) / 1000 : NaN;
  check(
    'the tab left alone signed out by the idle rule',
    `once, after ${idle.seconds} s, saying why`,
    idleOut ? `after ${idleAfter.toFixed(1)} s: "${/You were[^.]*\./.exec(idleOut.reason)?.[0] ?? idleOut.reason.slice(0, 120)}"` : 'never',
    idleTab.onLogin.length === 1 && idleAfter >= idle.seconds - 1 && idleAfter <= idle.seconds + 30 && /inactivity/i.test(idleOut!.reason),
  );

  // renewals: every person's tabs renewed their token many times, every renewal answered
  const refreshes = journal.calls.filter((c) => c.path === '/api/v1/users/refresh');
  const people = [...new Set(journal.tabs.filter((t) => t.name !== idle.tab).map((t) => t.name.replace(/ tab \d$/, '')))];
  const minutes = (input.stoppedAt - input.began) / 60_000;
  const fewest = Math.min(...people.map((p) => refreshes.filter((r) => r.tab.startsWith(p)).length));
  const refused = refreshes.filter((r) => r.status !== 200 && !(r.status === 503 && r.retryAfter));
  details.push(
    ...refused.map(
      (r) => `renewal refused: ${r.tab} at ${new Date(r.at).toISOString()}: ${r.status}${r.code ? ` ${r.code}` : ''}${r.failure ? ` (${r.failure})` : ''}`,
    ),
  );
  check(
    'token renewals',
    `each person >= ${Math.floor((minutes * 60) / input.tokenSeconds) - 1}, all answered 200`,
    `fewest ${fewest}, in all ${refreshes.length}; refused ${refused.length}; calls answered 401 (token expired) and renewed: ${journal.calls.filter((c) => c.status === 401).length}`,
    fewest >= Math.floor((minutes * 60) / input.tokenSeconds) - 1 && refused.length === 0,
  );

  // money: every acknowledged withdrawal and payment booked exactly once, and finished
  const acked = journal.money.filter((m) => m.status === 200 || m.status === 201);
  const sequences = (kind: string) => acked.filter((m) => m.kind === kind).map((m) => m.sequenceId);
  type Booked = { sequence_id: string; kind: string; status: string; rows: number; debits: number; reversals: number };
  const booked = () =>
    db<Booked>(
      `select r.sequence_id, 'withdrawal' as kind, min(s.status) as status, count(*)::int as rows,
          (select count(*)::int from ledger_entries l where l.partner_id = min(r.partner_id::text)::uuid and l.kind = 'settlement' and l.reference = min(r.settlement_id::text)) as debits,
          (select count(*)::int from ledger_entries l where l.partner_id = min(r.partner_id::text)::uuid and l.kind = 'settlement_reversal' and l.reference = min(r.settlement_id::text)) as reversals
         from settlement_requests r join settlements s on s.partner_id = r.partner_id and s.id = r.settlement_id
        where r.sequence_id = any($1) group by r.sequence_id
       union all
       select o.sequence_id, 'payment', min(o.status), count(*)::int,
          (select count(*)::int from ledger_entries l where l.partner_id = min(o.partner_id::text)::uuid and l.kind = 'disbursement' and l.reference = min(o.id::text)),
          (select count(*)::int from ledger_entries l where l.partner_id = min(o.partner_id::text)::uuid and l.kind = 'disbursement_reversal' and l.reference = min(o.id::text))
         from payment_orders o where o.sequence_id = any($2) group by o.sequence_id`,
      [sequences('withdrawal'), sequences('payment')],
    );
  const FINAL = new Set(['complete', 'failed', 'expired', 'refunded', 'denied', 'cancelled', 'refund_failed']);
  let rows = await booked();
  for (let until = Date.now() + 90_000; rows.some((r) => !FINAL.has(r.status)) && Date.now() < until; rows = await booked()) await sleep(2000);
  const byId = new Map(rows.map((r) => [r.sequence_id, r]));
  const lost = acked.filter((m) => !byId.has(m.sequenceId));
  // a failed withdrawal is given back once (settlement_reversal); a payout that failed, expired or was denied too
  const givenBack = (r: Booked) => (r.kind === 'withdrawal' ? r.status === 'failed' : ['failed', 'expired', 'denied'].includes(r.status));
  const twice = rows.filter((r) => r.rows !== 1 || r.debits !== 1 || r.reversals !== (givenBack(r) ? 1 : 0));
  const unfinished = rows.filter((r) => !FINAL.has(r.status));
  const unacked = journal.money.filter((m) => !(m.status === 200 || m.status === 201));
  check(
    'money acknowledged',
    'each booked once, finished',
    `${sequences('withdrawal').length} withdrawals, ${sequences('payment').length} payouts: ${lost.length} lost, ${twice.length} booked wrong, ${unfinished.length} unfinished`,
    acked.length > 0 && lost.length === 0 && twice.length === 0 && unfinished.length === 0,
  );
  details.push(...lost.map((m) => `lost: ${m.kind} ${m.sequenceId} acknowledged in ${m.tab}`));
  details.push(...twice.map((r) => `booked wrong: ${JSON.stringify(r)}`));
  details.push(...unfinished.map((r) => `unfinished: ${JSON.stringify(r)}`));
  if (unacked.length) details.push(`sent but never acknowledged (the person saw it fail): ${unacked.map((m) => `${m.kind} ${m.status}`).join(', ')}`);
  const reconciled = await input.cluster.reconcile();
  // the command's last two lines: the accounts that differ, the withdrawals without exactly one debit
  check(
    'balances against their ledgers',
    'every account equal, every withdrawal debited once',
    reconciled.output.split('\n').slice(-2).join(' '),
    reconciled.ok,
  );

  // answers: no 5xx but a 503 that says when to come back; no call that failed or waited more than 10 s
  const calls = journal.calls;
  const bad5xx = calls.filter((c) => c.status >= 500 && !(c.status === 503 && c.retryAfter));
  const failedCalls = calls.filter((c) => c.status === 0 && !/ERR_ABORTED/.test(c.failure ?? ''));
  // how long a call waited, as Chromium timed it (queued in the browser, then to the answer's first byte); the soak's
  // own process may hear of the answer later when it is starved of CPU, which the person does not wait for
  const waited = (c: (typeof calls)[number]) => c.waitedMs ?? c.at - c.sent;
  // a call the page cancelled (ERR_ABORTED: it left the screen, or asked again) was not waited for past that moment;
  // it counts as neither a failure (above) nor a wait
  const slow = calls.filter((c) => !/ERR_ABORTED/.test(c.failure ?? '') && waited(c) > 10_000);
  check(
    '5xx other than 503 with Retry-After',
    '0',
    `${bad5xx.length} (503s with Retry-After: ${calls.filter((c) => c.status === 503).length})`,
    bad5xx.length === 0,
  );
  check('calls without an answer', '0', String(failedCalls.length), failedCalls.length === 0);
  // an instance answers a call it cannot within 8 s (503 with Retry-After): no call waits more than 10 s
  check('calls waiting more than 10 s', '0', `${slow.length} of ${calls.length}; longest ${s(Math.max(...calls.map(waited)))}`, slow.length === 0);
  details.push(
    ...[...bad5xx, ...failedCalls, ...slow].map(
      (c) =>
        `call: ${c.tab} ${c.method} ${c.path} ${c.status || c.failure} in ${s(waited(c))} (heard by the soak after ${s(c.at - c.sent)}) at ${new Date(c.sent).toISOString()}` +
        (c.queuedMs === undefined
          ? ''
          : ` (in the browser ${s(c.queuedMs)}, then the answer's first byte in ${c.answerMs === undefined ? '-' : s(c.answerMs)})`),
    ),
  );

  // live events: every tab that stayed open received all of its partner's, and none of another's
  let missedAll = 0;
  let foreignAll = 0;
  const eventRows: string[][] = [];
  for (const tab of journal.tabs) {
    if (tab.name === idle.tab || tab.closed || tab.onLogin.length || tab.firstEventAt === undefined) {
      if (tab.name !== idle.tab) eventRows.push([tab.name, input.partners[tab.partner] ?? tab.partner, '-', '-', 'did not stay open']);
      continue;
    }
    const expected = await db<{ id: string }>('select id::text from live_events where partner_id = $1 and created_at >= $2 and created_at <= $3', [
      tab.partner,
      new Date(tab.firstEventAt + 2000),
      new Date(input.stoppedAt - 3000),
    ]);
    const missed = expected.filter((e) => !tab.events.has(Number(e.id)));
    const foreign = await db<{ id: string }>('select id::text from live_events where partner_id <> $1 and id = any($2)', [tab.partner, [...tab.events]]);
    missedAll += missed.length;
    foreignAll += foreign.length;
    eventRows.push([tab.name, input.partners[tab.partner] ?? tab.partner, String(tab.events.size), String(missed.length), String(foreign.length)]);
    if (missed.length)
      details.push(
        `${tab.name} missed events ${missed
          .slice(0, 20)
          .map((e) => e.id)
          .join(', ')}`,
      );
  }
  const stayed = eventRows.filter((r) => r[4] !== 'did not stay open').length;
  check(
    'live events',
    "every open tab all of its partner's, none of another's",
    `${stayed} tabs: ${missedAll} missed, ${foreignAll} of another partner`,
    stayed > 0 && missedAll === 0 && foreignAll === 0,
  );

  // errors the person did not cause: console errors, uncaught exceptions, error toasts and screens, CSP violations.
  // A change the portal answered "briefly unavailable" (one it does not send again by itself: it may have been made)
  // and the person then sent again is counted apart; any other alert counts, that one on a read included
  // the page reports an alert 50 ms after it appears, and the report crosses to this process after that: the person,
  // who reads the page itself, may see it (and record the resend) a moment before the report arrives
  const answeredChange = (tab: string, a: { at: number; text: string }) =>
    a.text.startsWith(OUTAGE_WORDS) && ctx.sentAgain.some((x) => x.tab === tab && x.at >= a.at - 2_000 && x.at - a.at <= 10_000);
  const shown = journal.tabs.flatMap((t) =>
    t.alerts
      .filter((a) => !OWN_MESSAGES.some((m) => m.test(a.text)) && !(t.name === idle.tab && /inactivity/i.test(a.text)) && !answeredChange(t.name, a))
      .map((a) => `${t.name}: alert "${a.text}" at ${new Date(a.at).toISOString()}`),
  );
  const consoleErrors = journal.tabs.flatMap((t) => t.errors.filter((e) => !RESOURCE_LINE.test(e.text)).map((e) => `${t.name}: ${e.text}`));
  const errors = [...shown, ...consoleErrors, ...journal.cspViolations];
  const sentAgain = ctx.sentAgain.length ? `; changes answered "briefly unavailable" and sent again by the person: ${ctx.sentAgain.length}` : '';
  check('errors shown that the person did not cause', '0', `${errors.length}${sentAgain}`, errors.length === 0);
  details.push(...ctx.sentAgain.map((x) => `sent again: ${x.tab}, ${x.change}, at ${new Date(x.at).toISOString()}`));
  details.push(...errors.slice(0, 30));

  // steps a person could not finish
  check('steps that got stuck', '0', `${ctx.stuck.length} of ${[...ctx.done.values()].reduce((a, b) => a + b, 0) + ctx.stuck.length}`, ctx.stuck.length === 0);
  details.push(
    ...ctx.stuck.map(
      (x) =>
        `stuck: ${x.tab} "${x.step}" at ${new Date(x.at).toISOString()}: ${x.error}${x.shot ? ` (${x.shot})` : ''} (calls before it: ${lastCalls(x.tab, x.at)})`,
    ),
  );
  const faultsFailed = phases.filter((p) => !p.ok);
  check(
    "the day's events carried out",
    `${phases.length} of ${phases.length}`,
    `${phases.length - faultsFailed.length} of ${phases.length}`,
    faultsFailed.length === 0 && phases.length > 0,
  );
  details.push(...faultsFailed.map((p) => `event failed: ${p.name}: ${p.error}`));

  // the screens' own timings, in calm and in each fault
  const phaseOf = (at: number) => phases.find((p) => at >= p.from && at <= p.to)?.name ?? 'calm';
  const screens = [...new Set(ctx.timings.map((t) => t.screen))];
  const phaseNames = ['calm', ...new Set(phases.map((p) => p.name))];
  table(
    'Screens: p50 / p95 (count), in calm and during each event',
    ['screen', ...phaseNames],
    screens.map((screen) => [
      screen,
      ...phaseNames.map((phase) => {
        const ms = ctx.timings.filter((t) => t.screen === screen && phaseOf(t.at) === phase).map((t) => t.ms);
        return ms.length ? `${s(percentile(ms, 50))} / ${s(percentile(ms, 95))} (${ms.length})` : '-';
      }),
    ]),
  );
  table(
    "The day's events",
    ['event', 'at', 'took', 'result'],
    phases.map((p) => [p.name, `${((p.from - input.began) / 1000).toFixed(0)} s`, s(p.to - 15_000 - p.from), p.ok ? 'done' : `failed: ${p.error}`]),
  );
  table('Live events per tab', ['tab', 'partner', 'received', 'missed', 'of another partner'], eventRows);
  table(
    'Steps done',
    ['step', 'done'],
    [...ctx.done].map(([k, v]) => [k, String(v)]),
  );
  if (details.length) console.log(`\nDetails:\n${details.map((d) => `  - ${d}`).join('\n')}`);
  table(
    'The soak',
    ['check', 'goal', 'found', ''],
    results.map((r) => [r.check, r.goal, r.found, r.ok ? 'ok' : 'FAILED']),
  );
  return results.every((r) => r.ok);
}
