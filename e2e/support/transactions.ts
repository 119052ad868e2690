import type { BrowserContextOptions, Page } from 'playwright-core';
import { signedInPage } from './portal.ts';
import type { serverAndBrowser } from './server.ts';

/** A 1280×900 page (and `options` beside) on which `email` has signed in and landed on the transactions. */
export async function transactionsPage(env: ReturnType<typeof serverAndBrowser>, email: string, options: BrowserContextOptions = {}) {
  const page = await signedInPage(env, email, { viewport: { width: 1280, height: 900 }, ...options });
  await page.waitForURL('**/transactions');
  return page;
}

/** The whole ids of the rows on screen (each row's copy action carries its whole id). */
export const rowIds = (page: Page) =>
  page.locator('[data-testid="transaction-row"] button[aria-label="Copy ID"]').evaluateAll((b) => b.map((e) => e.getAttribute('data-copy')!));

/** The statuses of the rows, as their badges say. */
export const rowStatuses = (page: Page) => page.locator('[data-testid="transaction-row"] [data-tone]').allTextContents();
