import { z } from 'zod';
import { compareDecimal } from './decimal.ts';

/**
 * Test mode (issue 47, Stripe's): each partner has a test side of its own data (balances, transactions, deposit
 * addresses, webhook endpoints and deliveries), processed by the sandbox and never real money. API keys are made for
 * one mode (api-keys.ts); the portal shows the test side while "Viewing test data" is on, by sending this header with
 * every call. The server follows it only on the routes that serve the partner's data; the rest (team, settings,
 * security) are the account's in both modes.
 */
export const PORTAL_MODE_HEADER = 'x-portal-mode';
export const PORTAL_MODES = ['live', 'test'] as const;
export type PortalMode = (typeof PORTAL_MODES)[number];

/** At most this much per test top-up: enough to try any sandbox amount, small enough to read as a test figure. */
export const MAX_TEST_FUNDS = '100000';

/** What the server says of a test top-up (their French: messages-fr.ts). */
export const TEST_MODE_MESSAGES = {
  amountFormat: 'Enter an amount such as 1000 or 1000.50',
  amountPositive: 'Enter an amount above zero',
  amountMax: `Enter at most ${MAX_TEST_FUNDS}`,
} as const;

/** Whole units and at most two decimals, as a treasurer types them. */
const AMOUNT = /^\d{1,9}(\.\d{1,2})?$/;

/** POST partner/test-funds: adds test money to the test side's USD balance (admin or treasury). */
export const TestFundsRequest = z
  .object({
    amount: z
      .string()
      .trim()
      .superRefine((a, ctx) => {
        if (!AMOUNT.test(a)) ctx.addIssue({ code: 'custom', message: TEST_MODE_MESSAGES.amountFormat });
        else if (compareDecimal(a, '0') <= 0) ctx.addIssue({ code: 'custom', message: TEST_MODE_MESSAGES.amountPositive });
        else if (compareDecimal(a, MAX_TEST_FUNDS) > 0) ctx.addIssue({ code: 'custom', message: TEST_MODE_MESSAGES.amountMax });
      }),
    /** the top-up's own id, made by the caller: the same reference twice adds the money once */
    reference: z.uuid(),
  })
  .strict();
export type TestFundsRequest = z.input<typeof TestFundsRequest>;
/** What was added (nothing more when the reference had been used) and the test side's balance after. */
export const TestFundsResponse = z.object({ currency: z.literal('USD'), amount: z.string(), added: z.boolean(), balance: z.string() });
export type TestFundsResponse = z.infer<typeof TestFundsResponse>;
