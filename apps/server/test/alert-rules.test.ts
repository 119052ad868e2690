import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The deployment's alerting rules (deploy/alerts, docs/deployment.md "Alerts"): Prometheus's own `promtool` checks the
 * rules and runs their unit tests, and every alert must have a runbook section in docs/deployment.md and a test case
 * where it fires and one where it does not. promtool is a requirement here, not an option: without it the test fails.
 */

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const RULES = 'deploy/alerts/portal.rules.yml';
const RULE_TESTS = 'deploy/alerts/portal.rules.test.yml';
const DEPLOYMENT_DOC = 'docs/deployment.md';
/** Prometheus's rule checker, from Debian's `prometheus` package (a system tool, not an npm one). */
const PROMTOOL = 'promtool';

const read = (file: string) => fs.readFileSync(path.join(repoRoot, file), 'utf8');

function promtool(...args: string[]) {
  const r = spawnSync(PROMTOOL, args, { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 });
  if (r.error && (r.error as NodeJS.ErrnoException).code === 'ENOENT') {
    throw new Error("promtool was not found: install Debian's `prometheus` package (apt-get install prometheus), which provides it");
  }
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

/** Each alert of the rules file: its name and its runbook annotation (the rules are written one key a line). */
function alerts(text: string): { name: string; runbook: string | undefined }[] {
  return text
    .split(/^\s*- alert:\s*/m)
    .slice(1)
    .map((block) => ({ name: block.split(/\s/)[0]!, runbook: /^\s*runbook:\s*(\S+)\s*$/m.exec(block)?.[1] }));
}

/** The alert names of the test file's cases, split into those expected to fire and those expected not to. */
function cases(text: string): { firing: Set<string>; quiet: Set<string> } {
  const firing = new Set<string>();
  const quiet = new Set<string>();
  for (const m of text.matchAll(/^\s*alertname:\s*(\S+)\s*\n\s*exp_alerts:\s*(\[\])?\s*$/gm)) (m[2] ? quiet : firing).add(m[1]!);
  return { firing, quiet };
}

/** The anchors of a Markdown file's headings, as GitHub makes them (lower case, punctuation dropped, spaces to '-'). */
function anchors(markdown: string): Set<string> {
  return new Set(
    [...markdown.matchAll(/^#{1,6}\s+(.+?)\s*$/gm)].map((m) =>
      m[1]!
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-'),
    ),
  );
}

describe('the alerting rules', () => {
  it('are valid rules to promtool', () => {
    const r = promtool('check', 'rules', RULES);
    expect(r.status, r.output).toBe(0);
  });

  it('pass their unit tests, run by promtool', () => {
    const r = promtool('test', 'rules', RULE_TESTS);
    expect(r.status, r.output).toBe(0);
  });

  it('each have a runbook section in the deployment document', () => {
    const found = alerts(read(RULES));
    expect(found.length).toBeGreaterThan(0);
    const headings = anchors(read(DEPLOYMENT_DOC));
    for (const { name, runbook } of found) {
      expect(runbook, `${name} has no runbook annotation`).toBeDefined();
      const [file, anchor] = runbook!.split('#');
      expect(file, `${name}: its runbook is not in ${DEPLOYMENT_DOC}`).toBe(DEPLOYMENT_DOC);
      expect(headings.has(anchor!), `${name}: ${DEPLOYMENT_DOC} has no heading with the anchor #${anchor}`).toBe(true);
    }
  });

  it('each have a test case where they fire and one where they do not, and no case names an unknown alert', () => {
    const names = alerts(read(RULES)).map((a) => a.name);
    const { firing, quiet } = cases(read(RULE_TESTS));
    for (const name of names) {
      expect(firing.has(name), `${name} has no test case where it fires`).toBe(true);
      expect(quiet.has(name), `${name} has no test case where it does not fire`).toBe(true);
    }
    for (const name of [...firing, ...quiet]) expect(names, `the tests name ${name}, which is no alert`).toContain(name);
  });
});
