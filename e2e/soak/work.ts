import type { Locator, Page } from 'playwright-core';

/** How long a screen took to show what was asked of it (a table's first rows, a search's row...), and when. */
export type Timing = { screen: string; at: number; ms: number };
/** A step a person could not finish (the screen did not show what it should within its time). */
export type Stuck = { tab: string; step: string; at: number; error: string; shot?: string };

export type WorkContext = {
  timings: Timing[];
  stuck: Stuck[];
  /** a change the portal answered "briefly unavailable" (it met a failover or a cut), which the person sent again */
  sentAgain: { tab: string; at: number; change: string }[];
  /** what the person took a step to do, done, for the table */
  done: Map<string, number>;
  /** a counter shared by every tab, to make each invitation's address and name new */
  serial: () => number;
  shot: (page: Page, name: string) => Promise<string | undefined>;
};

/** A step of a person's work in one tab. */
export type Step = { name: string; run: (page: Page, ctx: WorkContext, tab: string) => Promise<void> };

/** The longest a screen may take to answer during a fault before the step counts as stuck. */
const WAIT = 45_000;

const timed = async (ctx: WorkContext, screen: string, fn: () => Promise<unknown>) => {
  const began = performance.now();
  await fn();
  ctx.timings.push({ screen, at: Date.now(), ms: performance.now() - began });
};

const nav = async (page: Page, name: string) => {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).first().click();
};

const rows = (page: Page) => page.getByTestId('transaction-row');

/** What the portal says when a change met an outage: it is not sent again by itself (it may have been made). */
export const OUTAGE_WORDS = 'The service is briefly unavailable';

/**
 * A change sent with `button`, done once `done` shows. When the portal answers that the service is briefly
 * unavailable (a change that met a failover or a cut, without a key that makes sending it again safe), the person
 * does what it says: waits a few seconds and sends it again; each time is recorded (the checks print them).
 */
async function sendChange(page: Page, ctx: WorkContext, tab: string, change: string, button: Locator, done: Locator) {
  for (let tries = 1; ; tries++) {
    await button.click({ timeout: WAIT });
    // the button shows it is sending (disabled) until the answer; a moment for that to begin
    await page.waitForTimeout(300);
    const deadline = Date.now() + WAIT;
    let unavailable = false;
    while (!unavailable) {
      if (await done.first().isVisible()) return;
      unavailable =
        (await page.getByRole('alert').filter({ hasText: OUTAGE_WORDS }).first().isVisible()) && (await button.isEnabled({ timeout: 100 }).catch(() => false));
      if (Date.now() > deadline) throw new Error(`${change}: no answer within ${WAIT / 1000} s`);
      if (!unavailable) await page.waitForTimeout(250);
    }
    ctx.sentAgain.push({ tab, at: Date.now(), change });
    if (tries >= 6) throw new Error(`${change}: the service stayed unavailable`);
    await page.waitForTimeout(5000);
  }
}

/** The transactions screen on one of its tabs, until its first rows show. */
const tableTab = (tab: string): Step => ({
  name: `table: ${tab}`,
  run: async (page, ctx) => {
    if (new URL(page.url()).pathname !== '/transactions') await nav(page, 'Transactions');
    await page.getByRole('tab', { name: tab, exact: true }).click({ timeout: WAIT });
    await timed(ctx, "a table's first rows", () => rows(page).first().waitFor({ timeout: WAIT }));
  },
});

const nextPage: Step = {
  name: 'next page',
  run: async (page, ctx) => {
    await rows(page).first().waitFor({ timeout: WAIT });
    const summary = page.getByTestId('page-summary');
    const before = await summary.textContent();
    // the pager cannot move while its page loads (aria-disabled: a refetch, waiting through an outage): a person waits
    // until it can, and stops at the last page
    const next = page.getByRole('button', { name: 'Next' });
    const movable = next.and(page.locator(':not([aria-disabled="true"])'));
    await movable.waitFor({ timeout: WAIT }).catch(() => undefined);
    if (!(await movable.isVisible())) {
      const [shownTo, total] = (/–([\d,]+) of ([\d,]+)/.exec((await summary.textContent()) ?? '') ?? []).slice(1);
      if (shownTo && shownTo === total) return;
      throw new Error(`the pager stayed unable to move for ${WAIT / 1000} s`);
    }
    await movable.click();
    await timed(ctx, 'the next page', async () => {
      // the summary says anything else than it did ("1–10 of 300" → "11–20 of 300")
      const same = new RegExp(`^${(before ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
      await summary.filter({ hasNotText: same }).waitFor({ timeout: WAIT });
      await rows(page).first().waitFor({ timeout: WAIT });
    });
  },
};

const details: Step = {
  name: 'details',
  run: async (page, ctx) => {
    await rows(page).first().waitFor({ timeout: WAIT });
    await page
      .getByRole('button', { name: /^View details of / })
      .first()
      .click();
    await timed(ctx, 'details', () => page.getByRole('dialog', { name: 'Transaction details' }).waitFor({ timeout: WAIT }));
    await page.waitForTimeout(800);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Transaction details' }).waitFor({ state: 'hidden', timeout: WAIT });
  },
};

/** A search by the first row's ID, then the whole table again. */
const search: Step = {
  name: 'search',
  run: async (page, ctx) => {
    await rows(page).first().waitFor({ timeout: WAIT });
    const id = await rows(page).first().locator('button[data-copy]').first().getAttribute('data-copy', { timeout: WAIT });
    if (!id) throw new Error('the first row has no ID to copy');
    const box = page.getByLabel('Search by ID');
    await box.fill(id);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await timed(ctx, 'a search', () =>
      page
        .getByTestId('page-summary')
        .filter({ hasText: /^1–1 of 1$/ })
        .waitFor({ timeout: WAIT }),
    );
    await box.fill('');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await rows(page).nth(1).waitFor({ timeout: WAIT });
  },
};

const exportCsv: Step = {
  name: 'export CSV',
  run: async (page, ctx) => {
    await rows(page).first().waitFor({ timeout: WAIT });
    await timed(ctx, 'an export', async () => {
      const [download] = await Promise.all([page.waitForEvent('download', { timeout: WAIT }), page.getByRole('button', { name: 'Export CSV' }).click()]);
      const failure = await download.failure();
      if (failure) throw new Error(`the export failed: ${failure}`);
    });
  },
};

const balance: Step = {
  name: 'balance',
  run: async (page, ctx) => {
    await nav(page, 'Balance');
    await timed(ctx, 'the balance', () =>
      page
        .getByTestId('usd-available')
        .getByText(/^USD [\d,]+\.\d{2}$/)
        .waitFor({ timeout: WAIT }),
    );
  },
};

/** A withdrawal of USD 10.00 (the least one may withdraw) to the partner's wallet, confirmed, until the portal says it is on its way. */
const withdraw: Step = {
  name: 'withdraw',
  run: async (page, ctx, tab) => {
    await balance.run(page, ctx, tab);
    await page.getByRole('button', { name: 'Withdraw' }).click();
    await page.getByLabel('Amount (USD)').fill('10.00');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByTestId('confirm-receive').waitFor({ timeout: WAIT });
    await page.getByRole('button', { name: 'Confirm withdrawal' }).click();
    await timed(ctx, 'a withdrawal acknowledged', () => page.getByTestId('withdrawal-pending').waitFor({ timeout: 60_000 }));
    await page.keyboard.press('Escape');
  },
};

/** A payout to an M-Pesa number in Kenya: the form, the quote, the confirmation. */
const payout: Step = {
  name: 'initiate a payout',
  run: async (page, ctx) => {
    await nav(page, 'Initiate payments');
    await page.getByRole('link', { name: 'Initiate payment', exact: true }).click({ timeout: WAIT });
    const form = page.getByRole('form', { name: 'Payment details' });
    await form.waitFor({ timeout: WAIT });
    await form.getByRole('radio', { name: 'Pay out' }).click();
    await form.getByLabel('Country').selectOption({ label: 'Kenya' });
    const channel = form.getByLabel('Channel');
    const option = (await channel.locator('option').allTextContents()).find((t) => /mobile|m-pesa|momo/i.test(t));
    if (!option) throw new Error('no mobile money channel for Kenya');
    await channel.selectOption({ label: option });
    const network = form.getByLabel('Network');
    if (await network.count()) await network.selectOption({ label: 'M-Pesa' });
    await form.getByLabel("Recipient's name").fill('Amina Soak');
    await form.getByLabel('Phone number').fill('254712345678');
    await form.getByLabel(/^Amount/).fill('150');
    await form.getByRole('button', { name: 'Review' }).click();
    const quote = page.getByRole('region', { name: 'Quote' });
    await quote.waitFor({ timeout: WAIT });
    await quote.getByRole('button', { name: /^Confirm/ }).click();
    await timed(ctx, 'a payout acknowledged', () => page.getByRole('heading', { name: 'Disbursement', exact: true }).waitFor({ timeout: 60_000 }));
  },
};

const notifications: Step = {
  name: 'notifications',
  run: async (page, ctx) => {
    await page.getByTestId('notification-bell').click();
    await timed(ctx, 'the notifications', () => page.getByTestId('notification-list').waitFor({ timeout: WAIT }));
    await page.waitForTimeout(600);
    await page.keyboard.press('Escape');
  },
};

/** An invitation, its role changed, then withdrawn (so that the team does not grow without end). */
const inviteAndChangeRole: Step = {
  name: 'invite, change the role, withdraw',
  run: async (page, ctx, tab) => {
    await nav(page, 'Settings');
    await page.getByRole('link', { name: /Team/ }).click({ timeout: WAIT });
    await timed(ctx, 'the team', () => page.getByRole('list', { name: 'Team members' }).waitFor({ timeout: WAIT }));
    const n = ctx.serial();
    const email = `soak-${Date.now().toString(36)}-${n}@acme.test`;
    const name = `Soak Member ${String.fromCharCode(65 + (n % 26))}${String.fromCharCode(65 + ((n / 26) % 26))}`;
    const member = () => page.getByTestId('team-member').filter({ hasText: email });
    await page.getByRole('button', { name: 'Invite member' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite a team member' });
    await dialog.getByLabel('Full name').fill(name);
    await dialog.getByLabel('E-mail').fill(email);
    await dialog.getByText('Treasury', { exact: true }).click();
    await timed(ctx, 'an invitation sent', () =>
      sendChange(page, ctx, tab, 'an invitation', dialog.getByRole('button', { name: 'Send invitation' }), page.getByText(`Invitation sent to ${email}`)),
    );
    await member().waitFor({ timeout: WAIT });
    await member()
      .getByRole('button', { name: `Actions for ${email}` })
      .click();
    await page.getByRole('menuitem', { name: 'Change role' }).click();
    const roleDialog = page.getByRole('dialog', { name: `Change the role of ${name}` });
    await roleDialog.getByText('View only', { exact: true }).click();
    await sendChange(page, ctx, tab, 'a role change', roleDialog.getByRole('button', { name: 'Save role' }), page.getByText(`${email} is now View only`));
    await member()
      .getByRole('button', { name: `Actions for ${email}` })
      .click();
    await page.getByRole('menuitem', { name: 'Withdraw invitation' }).click();
    await sendChange(
      page,
      ctx,
      tab,
      'an invitation withdrawn',
      page.getByRole('dialog', { name: 'Withdraw the invitation?' }).getByRole('button', { name: 'Withdraw invitation' }),
      page.getByText(/^The invitation to \S+ was withdrawn/),
    );
    await member().waitFor({ state: 'detached', timeout: WAIT });
  },
};

/** Kora's trades (a commercial partner's one table) until their first rows show. */
const trades: Step = {
  name: 'trades',
  run: async (page, ctx) => {
    await nav(page, 'Trades');
    await timed(ctx, "a table's first rows", () => rows(page).first().waitFor({ timeout: WAIT }));
  },
};

/** What each role does, per tab: a person works in two tabs at once, each on its own round of steps. */
export const WORK = {
  acmeAdmin: [
    [tableTab('Payments'), nextPage, details, search, tableTab('Settlements'), details],
    [withdraw, notifications, inviteAndChangeRole, tableTab('Collections'), exportCsv],
  ],
  acmeTreasury: [
    [withdraw, balance, notifications, tableTab('Fees'), details],
    [tableTab('Settlements'), exportCsv, nextPage, tableTab('Payments'), search],
  ],
  acmeView: [
    [tableTab('Payments'), search, details, nextPage, tableTab('Collections'), details],
    [balance, tableTab('Settlements'), exportCsv, tableTab('Fees')],
  ],
  koraAdmin: [
    [trades, details, search, nextPage, exportCsv],
    [payout, notifications, balance, trades, details],
  ],
} satisfies Record<string, Step[][]>;

/**
 * One tab's round of steps until `until()`: each step, then a think time (2 to 5 s) with the mouse moving, as a
 * person's would. A step that fails is recorded (with a screenshot) and the tab goes back to its first screen; a tab
 * on the sign-in page stops (the checks count it).
 */
export async function workIn(tab: string, page: Page, steps: Step[], ctx: WorkContext, until: () => boolean) {
  for (let i = 0; !until(); i++) {
    if (new URL(page.url()).pathname === '/login') return;
    const step = steps[i % steps.length]!;
    try {
      await step.run(page, ctx, tab);
      ctx.done.set(step.name, (ctx.done.get(step.name) ?? 0) + 1);
    } catch (err) {
      if (new URL(page.url()).pathname === '/login') return;
      const error = (err instanceof Error ? err.message : String(err)).split('\n')[0]!;
      const shot = await ctx.shot(page, `${tab}-${step.name}`);
      ctx.stuck.push({ tab, step: step.name, at: Date.now(), error, shot });
      await page.keyboard.press('Escape').catch(() => undefined);
      await nav(page, 'Transactions').catch(() => undefined);
    }
    const think = 2000 + Math.random() * 3000;
    const end = Date.now() + think;
    while (Date.now() < end && !until()) {
      await page.mouse.move(100 + Math.random() * 900, 150 + Math.random() * 500).catch(() => undefined);
      await page.waitForTimeout(700).catch(() => undefined);
    }
  }
}
