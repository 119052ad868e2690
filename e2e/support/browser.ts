import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean) as string[];

export const chromiumPath = CANDIDATES.find((p) => fs.existsSync(p));

/** In CI a missing Chromium is a failure; elsewhere the browser tests are skipped with a reason. */
export const browserMissing = !chromiumPath && process.env.CI !== 'true';

const CSP_MARK = '[csp-violation]';

/**
 * Records every Content-Security-Policy violation of a page: the document's `securitypolicyviolation` events (what
 * was blocked, by which directive, from where) and Chromium's own console errors about the policy.
 */
export async function watchCsp(page: Page, into: string[]): Promise<void> {
  page.on('console', (message) => {
    const text = message.text();
    if (text.startsWith(CSP_MARK)) into.push(`${page.url()}: ${text.slice(CSP_MARK.length + 1)}`);
    else if (message.type() === 'error' && /Content Security Policy/i.test(text)) into.push(`${page.url()}: ${text}`);
  });
  await page.addInitScript((mark) => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.log(`${mark} ${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber}`);
    });
  }, CSP_MARK);
}

/** Chromium; every page opened with browser.newPage() has its CSP violations recorded in `cspViolations`. */
export async function launch(): Promise<Browser & { cspViolations: string[] }> {
  if (!chromiumPath) throw new Error('Chromium not found: apt-get install -y chromium (or set CHROMIUM_PATH)');
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-gpu'],
  });
  const cspViolations: string[] = [];
  const newPage = browser.newPage.bind(browser);
  // an English browser unless a test says otherwise: the portal follows the browser's language until one is chosen
  browser.newPage = async (options) => {
    const page = await newPage({ locale: 'en-US', ...options });
    await watchCsp(page, cspViolations);
    return page;
  };
  return Object.assign(browser, { cspViolations });
}

/**
 * Holds the context's page clocks (running on real time until then) a moment from now. The moment is reckoned here and
 * reached in each page later: on a busy machine that can take longer than the margin, and a page refuses a moment
 * already past ("Cannot fast-forward to the past"); then the hold is asked again further ahead.
 */
export async function holdClocks(context: BrowserContext) {
  for (let margin = 200; ; margin *= 2) {
    try {
      await context.clock.pauseAt(Date.now() + margin);
      return;
    } catch (error) {
      if (margin >= 6400 || !String(error).includes('to the past')) throw error;
    }
  }
}
