import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
type AxeResult = { violations: { id: string; impact: string; nodes: { target: string[] }[] }[] };

/**
 * axe-core on the page as it is now, with the rules of these tags (WCAG 2 A and AA by default) and any rule enabled
 * by name besides (axe keeps some, such as label-content-name-mismatch, out of its tag sets); one line per violation.
 */
export async function axe(page: Page, options: { tags?: string[]; enable?: string[] } = {}): Promise<string[]> {
  const tags = options.tags ?? ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
  const rules = Object.fromEntries((options.enable ?? []).map((id) => [id, { enabled: true }]));
  await page.evaluate(AXE);
  const result = await page.evaluate(
    async ({ tags, rules }) => {
      const w = window as unknown as { axe: { run(context: Document, options: object): Promise<AxeResult> } };
      return w.axe.run(document, { runOnly: { type: 'tag', values: tags }, rules });
    },
    { tags, rules },
  );
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
