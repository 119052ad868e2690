// Lighthouse (mobile, simulated throttling, cold cache) on the sign-in page and on the signed-in screens people open
// first (/transactions, /overview, /balance and /settings as Acme's admin, /trades as Kora's), against the built portal served by
// the real server. Prints scores and the key metrics, median of LH_RUNS runs (default 5); asserts nothing (budgets:
// docs/performance.md). LH_PAGES=/login,/trades picks pages; LH_SAVE=<dir> keeps the reports and traces. Needs Debian's Chromium
// (CHROME_PATH, default /usr/bin/chromium).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { DEMO_PASSWORD, SECRETS, totp } from '../e2e/support/portal.ts';
// @ts-expect-error -- plain .mjs helper
import { ensureWebBuild } from '../scripts/web-build.mjs';
import { freePort } from '../apps/server/test/server-process.ts';

const root = path.resolve(import.meta.dirname, '..');
const RUNS = Number(process.env.LH_RUNS ?? 5);
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
// the machine has no outside network: Chromium must not try to reach it
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-gpu',
];
/** Each page audited, and who is signed in for it (none: the sign-in page). */
const PAGES: { pathname: string; user?: string }[] = [
  { pathname: '/login' },
  { pathname: '/transactions', user: 'admin@acme.test' },
  { pathname: '/overview', user: 'admin@acme.test' },
  { pathname: '/trades', user: 'admin@kora.test' },
  { pathname: '/balance', user: 'admin@acme.test' },
  { pathname: '/settings', user: 'admin@acme.test' },
];
const PICKED = process.env.LH_PAGES?.split(',').map((p) => p.trim());

const line = (name: string, value: string) => console.log(`${name.padEnd(58)} ${value}`);

/** The real server over a fresh embedded database with the demo data (as `npm start`), on a free port. */
async function startServer(): Promise<{ url: string; stop: () => Promise<void> }> {
  (ensureWebBuild as () => boolean)();
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-lighthouse-'));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', MAIL_CATCHER: 'false' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error('the server exited early');
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error('the server was not ready in time');
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => {
          fs.rmSync(dataDir, { recursive: true, force: true });
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

type Run = {
  performance: number;
  accessibility: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  si: number;
  totalKB: number;
  jsKB: number;
  url: string;
  benchmarkIndex: number;
  failing: string[];
};

/** One Lighthouse run (default mobile config: Moto G Power screen, 4x CPU slowdown, slow 4G simulated). */
async function audit(page: Page, url: string, keepStorage: boolean): Promise<Run> {
  const result = await lighthouse(
    url,
    { output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'], disableStorageReset: keepStorage },
    undefined,
    page,
  );
  if (!result) throw new Error(`no Lighthouse result for ${url}`);
  const { lhr } = result;
  // LH_SAVE=<dir>: keep each report (open it in the Lighthouse viewer, or read its JSON) to see what an audit flags
  if (process.env.LH_SAVE) {
    fs.mkdirSync(process.env.LH_SAVE, { recursive: true });
    const name = `${new URL(url).pathname.slice(1)}-${Date.now()}`;
    fs.writeFileSync(path.join(process.env.LH_SAVE, `${name}.json`), result.report as string);
    // and the page's trace (open it in DevTools' Performance panel): which tasks block, and what runs in them
    fs.writeFileSync(path.join(process.env.LH_SAVE, `${name}.trace.json`), JSON.stringify(result.artifacts.Trace));
  }
  if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const num = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  const requests = (lhr.audits['network-requests']?.details as { items?: { resourceType?: string; transferSize?: number }[] } | undefined)?.items ?? [];
  const a11y = lhr.categories.accessibility!;
  return {
    performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    accessibility: Math.round((a11y.score ?? 0) * 100),
    fcp: num('first-contentful-paint'),
    lcp: num('largest-contentful-paint'),
    tbt: num('total-blocking-time'),
    cls: num('cumulative-layout-shift'),
    si: num('speed-index'),
    totalKB: num('total-byte-weight') / 1024,
    jsKB: requests.filter((r) => r.resourceType === 'Script').reduce((n, r) => n + (r.transferSize ?? 0), 0) / 1024,
    url: lhr.finalDisplayedUrl,
    // the host's speed as Lighthouse measures it (its simulated throttling scales with it): higher is faster
    benchmarkIndex: lhr.environment.benchmarkIndex,
    failing: a11y.auditRefs.filter((ref) => lhr.audits[ref.id]?.score === 0).map((ref) => ref.id),
  };
}

const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

function report(name: string, runs: Run[]) {
  const m = (key: keyof Run) => median(runs.map((r) => r[key] as number));
  const all = (key: 'performance' | 'accessibility') => runs.map((r) => r[key]).join(', ');
  line(`${name}: performance (median; runs)`, `${m('performance')} (${all('performance')})`);
  const failing = [...new Set(runs.flatMap((r) => r.failing))];
  line(`${name}: accessibility`, `${m('accessibility')} (${all('accessibility')})${failing.length ? ` failing: ${failing.join(', ')}` : ''}`);
  line(`${name}: FCP / LCP / Speed Index`, `${(m('fcp') / 1000).toFixed(2)} s / ${(m('lcp') / 1000).toFixed(2)} s / ${(m('si') / 1000).toFixed(2)} s`);
  line(`${name}: TBT / CLS`, `${Math.round(m('tbt'))} ms / ${m('cls').toFixed(3)}`);
  line(`${name}: transferred (all / JavaScript)`, `${m('totalKB').toFixed(0)} KB / ${m('jsKB').toFixed(0)} KB`);
  line(`${name}: the host's benchmark index (median)`, m('benchmarkIndex').toFixed(0));
  const urls = new Set(runs.map((r) => r.url));
  if (urls.size !== 1 || ![...urls][0]!.endsWith(name)) line(`${name}: WARNING the page audited was`, [...urls].join(', '));
}

type Storage = { session: Record<string, string>; local: Record<string, string> };

/**
 * Signs the demo admin in through the screens, as a person would, and returns the page's storage (the session
 * lives in sessionStorage; the refresh token is a cookie the runs do not need while the access token is fresh).
 */
async function signIn(base: string, user: string): Promise<Storage> {
  const browser = await puppeteer.launch({ executablePath: CHROME, headless: true, args: CHROME_FLAGS });
  try {
    const page = await browser.newPage();
    await page.goto(`${base}/login`);
    await page.locator('input[name="email"]').fill(user);
    await page.locator('input[name="password"]').fill(DEMO_PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => location.pathname.startsWith('/two-factor'));
    const code = await page.waitForSelector('input[autocomplete="one-time-code"]');
    await code!.type(totp(SECRETS[user]!));
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => !location.pathname.startsWith('/two-factor') && !location.pathname.startsWith('/login'));
    return await page.evaluate(() => ({ session: { ...sessionStorage }, local: { ...localStorage } }));
  } finally {
    await browser.close();
  }
}

/**
 * One run in a browser of its own (a fresh profile: nothing cached, not even in memory). With `storage`, the tab
 * first holds it (set on a page of the portal's origin that loads nothing) and Lighthouse leaves it in place.
 */
async function run(base: string, pathname: string, storage?: Storage): Promise<Run> {
  const browser: Browser = await puppeteer.launch({ executablePath: CHROME, headless: true, args: CHROME_FLAGS });
  try {
    const page = await browser.newPage();
    if (storage) {
      await page.goto(`${base}/healthz`);
      await page.evaluate((s: Storage) => {
        for (const [k, v] of Object.entries(s.session)) sessionStorage.setItem(k, v);
        for (const [k, v] of Object.entries(s.local)) localStorage.setItem(k, v);
      }, storage);
    }
    return await audit(page, `${base}${pathname}`, storage !== undefined);
  } finally {
    await browser.close();
  }
}

console.log(`── lighthouse: mobile, simulated throttling, cold cache, median of ${RUNS} ──`);
const server = await startServer();
try {
  for (const { pathname, user } of PAGES.filter((p) => !PICKED || PICKED.includes(p.pathname))) {
    // signed in afresh for each page: an access token lasts 15 minutes, and the runs carry no refresh cookie
    const storage = user ? await signIn(server.url, user) : undefined;
    const runs: Run[] = [];
    let lost = 0;
    while (runs.length < RUNS) {
      try {
        runs.push(await run(server.url, pathname, storage));
      } catch (err) {
        // Lighthouse now and then loses the trace of a load (NO_NAVSTART): that run is made again, and counted
        if (!String(err).includes('NO_NAVSTART') || lost >= 3) throw err;
        lost += 1;
      }
    }
    if (lost) line(`${pathname}: runs Lighthouse lost (NO_NAVSTART), made again`, String(lost));
    report(pathname, runs);
  }
} finally {
  await server.stop();
}
