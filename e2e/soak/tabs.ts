import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { watchCsp } from '../support/browser.ts';

/** An API call of a tab, as the browser saw it: sent and answered (ms since the epoch), its status (0: no answer). */
export type Call = {
  tab: string;
  method: string;
  path: string;
  sent: number;
  at: number;
  status: number;
  retryAfter: boolean;
  failure?: string;
  /** the error body's code of an answer 4xx or 5xx (read a moment after the answer) */
  code?: string;
  /**
   * where its time went, as Chromium timed it (ms): waiting in the browser for a connection (its limit per server, a
   * connection being made) before it was sent, then to the answer's first byte
   */
  queuedMs?: number;
  answerMs?: number;
  /** from the request's start to the answer's first byte, as Chromium timed it: what the page waited */
  waitedMs?: number;
};

/** A money-moving request of a tab (a withdrawal or a payment) and whether the server acknowledged it. */
export type MoneyRequest = { tab: string; kind: 'withdrawal' | 'payment'; sequenceId: string; sent: number; status: number };

/** What went on in one tab: where it went, what it received, what it showed. */
export type TabRecord = {
  name: string;
  partner: string;
  /** every arrival on /login: when, and the words the sign-in page gave for it */
  onLogin: { at: number; reason: string }[];
  /** live events (ids of `change` events) the page's stream received */
  events: Set<number>;
  /** when the first live event arrived */
  firstEventAt?: number;
  /** alerts, error toasts and error screens the page showed, with when */
  alerts: { at: number; text: string }[];
  /** console errors and uncaught exceptions */
  errors: { at: number; text: string }[];
  closed: boolean;
};

/** Everything the soak's browsers did, for the checks at the end. */
export type Journal = {
  calls: Call[];
  money: MoneyRequest[];
  tabs: TabRecord[];
  cspViolations: string[];
};

export const newJournal = (): Journal => ({ calls: [], money: [], tabs: [], cspViolations: [] });

const MONEY_PATHS: Record<string, MoneyRequest['kind']> = {
  '/api/v1/partner/settlement/withdrawal': 'withdrawal',
  '/api/v1/partner/disbursement': 'payment',
  '/api/v1/partner/collection': 'payment',
};

/**
 * In every page before its own scripts: the live stream's response is read a second time (tee) for the ids of its
 * `change` events, as are the events another tab's stream passes on (the portal's BroadcastChannel), and every alert that appears (an error toast, a field's error, an error screen's) is reported,
 * so that the soak knows what the person saw. Plain JavaScript in a string: the page runs it as written (a function
 * passed from here would carry the helpers this file's compiler adds).
 */
const INSTRUMENT = `(() => {
  const report = (kind, value) => window.__soakReport?.(kind, value);
  const original = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    const res = await original(input, init);
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.includes('/api/v1/events') || !res.body) return res;
    const [mine, theirs] = res.body.tee();
    (async () => {
      const reader = mine.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += decoder.decode(value, { stream: true });
          const blocks = buffer.split('\\n\\n');
          buffer = blocks.pop() ?? '';
          for (const block of blocks) {
            const lines = block.split('\\n');
            const type = lines.find((l) => l.startsWith('event:'))?.slice(6).trim();
            const id = lines.find((l) => l.startsWith('id:'))?.slice(3).trim();
            if (type === 'change' && id) report('event', id);
          }
        }
      } catch {}
    })();
    return new Response(theirs, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
  // the tabs of a browser share one stream: the others hear its events on a BroadcastChannel
  const Channel = window.BroadcastChannel;
  if (Channel)
    window.BroadcastChannel = class extends Channel {
      constructor(name) {
        super(name);
        if (String(name).startsWith('portal-live-events:'))
          this.addEventListener('message', (e) => {
            if (e.data && e.data.type === 'change' && e.data.id) report('event', e.data.id);
          });
      }
    };
  const seen = new WeakSet();
  const look = (el) => {
    const found = [...(el.matches('[role="alert"]') ? [el] : []), ...el.querySelectorAll('[role="alert"]')];
    for (const alert of found) {
      if (seen.has(alert)) continue;
      seen.add(alert);
      setTimeout(() => {
        const text = alert.textContent?.trim();
        if (text) report('alert', text);
      }, 50);
    }
  };
  new MutationObserver((changes) => {
    for (const change of changes) for (const node of change.addedNodes) if (node instanceof Element) look(node);
  }).observe(document, { childList: true, subtree: true });
})();`;

/**
 * A persona's browser (a context of its own, as a person's browser is) with tabs that record into the journal.
 * Only the portal's API calls are recorded; the live stream (which stays open) is not a call.
 */
export async function personaBrowser(browser: Browser, journal: Journal, partner: string, name: string) {
  const context: BrowserContext = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  const byPage = new Map<Page, TabRecord>();
  await context.exposeBinding('__soakReport', ({ page }: { page: Page }, kind: string, value: string) => {
    const tab = byPage.get(page);
    if (!tab) return;
    if (kind === 'event') {
      tab.events.add(Number(value));
      tab.firstEventAt ??= Date.now();
    } else tab.alerts.push({ at: Date.now(), text: value });
  });
  await context.addInitScript({ content: INSTRUMENT });

  const open = async (label: string) => {
    const page = await context.newPage();
    const tab: TabRecord = { name: `${name} ${label}`, partner, onLogin: [], events: new Set(), alerts: [], errors: [], closed: false };
    byPage.set(page, tab);
    journal.tabs.push(tab);
    await watchCsp(page, journal.cspViolations);
    const sent = new Map<unknown, number>();
    page.on('request', (req) => {
      const { pathname } = new URL(req.url());
      if (!pathname.startsWith('/api/') || pathname === '/api/v1/events') return;
      sent.set(req, Date.now());
      const kind = MONEY_PATHS[pathname];
      if (kind && req.method() === 'POST') {
        const sequenceId = (req.postDataJSON() as { sequenceId?: string } | null)?.sequenceId;
        // sent again (after a 503, or a lost answer) with the same sequenceId, it is the same request
        if (sequenceId && !journal.money.some((m) => m.sequenceId === sequenceId))
          journal.money.push({ tab: tab.name, kind, sequenceId, sent: Date.now(), status: 0 });
      }
    });
    const finish = (req: Request, status: number, retryAfter: boolean, failure?: string): Call | undefined => {
      const began = sent.get(req);
      if (began === undefined) return undefined;
      sent.delete(req);
      const { pathname } = new URL(req.url());
      const call: Call = { tab: tab.name, method: req.method(), path: pathname, sent: began, at: Date.now(), status, retryAfter, failure };
      const timing = req.timing();
      if (timing.requestStart >= 0) call.queuedMs = Math.round(timing.requestStart);
      if (timing.requestStart >= 0 && timing.responseStart >= 0) call.answerMs = Math.round(timing.responseStart - timing.requestStart);
      if (timing.responseStart >= 0) call.waitedMs = Math.round(timing.responseStart);
      journal.calls.push(call);
      const kind = MONEY_PATHS[pathname];
      if (kind && req.method() === 'POST' && status) {
        const sequenceId = (req.postDataJSON() as { sequenceId?: string } | null)?.sequenceId;
        // the last answer counts: a request sent again after a 503 is acknowledged by its later 201
        const entry = journal.money.find((m) => m.sequenceId === sequenceId);
        if (entry && (entry.status < 200 || entry.status >= 300)) entry.status = status;
      }
      return call;
    };
    page.on('response', (res) => {
      const call = finish(res.request(), res.status(), Boolean(res.headers()['retry-after']));
      if (call && call.status >= 400)
        void res.json().then(
          (body: { code?: unknown }) => (call.code = typeof body?.code === 'string' ? body.code : undefined),
          () => undefined,
        );
    });
    page.on('requestfailed', (req) => finish(req, 0, false, req.failure()?.errorText));
    page.on('console', (message) => {
      if (message.type() === 'error') tab.errors.push({ at: Date.now(), text: message.text() });
    });
    page.on('pageerror', (err) => tab.errors.push({ at: Date.now(), text: `uncaught: ${err.message}` }));
    // an arrival on /login from another screen (a move within /login, or a reload of it, is the same arrival)
    let path = '';
    page.on('framenavigated', (frame) => {
      if (frame !== page.mainFrame()) return;
      const before = path;
      path = new URL(frame.url()).pathname;
      if (path !== '/login' || before === '/login') return;
      const at = Date.now();
      // the sign-in page says why the person is there (signed out after inactivity, removed, ...)
      void page
        .waitForTimeout(1000)
        .then(() => page.locator('body').innerText({ timeout: 5000 }))
        .then(
          (text) => tab.onLogin.push({ at, reason: text.replace(/\s+/g, ' ').trim() }),
          () => tab.onLogin.push({ at, reason: '(the page did not show)' }),
        );
    });
    page.on('close', () => (tab.closed = true));
    return { page, tab };
  };
  return { context, open };
}
