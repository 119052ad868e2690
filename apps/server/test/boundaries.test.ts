import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');

/**
 * The repository's own lint configuration on a probe file that is never written: the file's place decides which zones
 * apply. The type-aware rules are off for the probe (they need the file in a tsconfig); the import rules are not.
 */
async function lintProbe(file: string, code: string) {
  const eslint = new ESLint({ cwd: root, overrideConfig: [tseslint.configs.disableTypeChecked] });
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'import-x/no-restricted-paths').map((m) => m.message);
}

describe('the server modules meet only through their faces (lint)', () => {
  it("refuses a module's import of another module's internals, and takes its face", async () => {
    const inside = await lintProbe('apps/server/src/modules/rates/probe.ts', "export { findPartner } from '../partners/partners.repository.ts';\n");
    expect(inside).toEqual([expect.stringContaining('modules meet through their faces')]);
    expect(await lintProbe('apps/server/src/modules/rates/probe.ts', "export { createPartnerAccess } from '../partners/index.ts';\n")).toEqual([]);
  });

  it('refuses a repository in a face, and takes one in the composition root only (where ports are built)', async () => {
    expect(await lintProbe('apps/server/src/modules/partners/index.ts', "export { findPartner } from './partners.repository.ts';\n")).toEqual([
      expect.stringContaining('a face offers no repository'),
    ]);
    expect(await lintProbe('apps/server/src/composition.ts', "export { findPartner } from './modules/partners/partners.repository.ts';\n")).toEqual([]);
    expect(await lintProbe('apps/server/src/composition.ts', "export { createPartnerCache } from './modules/partners/partner-cache.ts';\n")).toEqual([
      expect.stringContaining('the composition root imports a module through its face'),
    ]);
  });

  it('no face offers a repository today', () => {
    const modules = path.join(root, 'apps/server/src/modules');
    const offering = fs
      .readdirSync(modules)
      .map((m) => [m, fs.readFileSync(path.join(modules, m, 'index.ts'), 'utf8')] as const)
      .filter(([, face]) => /from '\.\/[\w-]+\.repository\.ts'/.test(face))
      .map(([m]) => m);
    expect(offering).toEqual([]);
  });

  it('refuses the internals of a module from the app, the CLI, plugins and jobs', async () => {
    const probes = [
      ['apps/server/src/probe.ts', './modules/wallets/wallets.repository.ts'],
      ['apps/server/src/plugins/probe.ts', '../modules/wallets/wallets.repository.ts'],
      ['apps/server/src/jobs/probe.ts', '../modules/wallets/wallets.repository.ts'],
    ];
    for (const [file, internal] of probes) {
      expect(await lintProbe(file!, `export { findWallet } from '${internal}';\n`), file).toEqual([
        expect.stringContaining('modules meet through their faces'),
      ]);
    }
  });

  it('refuses any module, even its face, from src/lib and src/db', async () => {
    expect(await lintProbe('apps/server/src/lib/probe.ts', "export type { PartnerAccess } from '../modules/partners/index.ts';\n")).toEqual([
      expect.stringContaining('below the modules'),
    ]);
    expect(await lintProbe('apps/server/src/db/probe.ts', "export { walletRoutes } from '../modules/wallets/index.ts';\n")).toEqual([
      expect.stringContaining('below the modules'),
    ]);
  });
}, 60_000);

describe('the cycle check counts type-only imports', () => {
  /** A project of two files that import each other's types (and nothing else), and what the check says of it. */
  function checkProbe(loop: boolean) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cycle-probe-'));
    try {
      const options = { module: 'nodenext', moduleResolution: 'nodenext', allowImportingTsExtensions: true, noEmit: true };
      fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: options, include: ['*.ts'] }));
      fs.writeFileSync(path.join(dir, 'a.ts'), "import type { B } from './b.ts';\nexport type A = { b?: B };\n");
      fs.writeFileSync(path.join(dir, 'b.ts'), loop ? "import type { A } from './a.ts';\nexport type B = { a?: A };\n" : 'export type B = { n: number };\n');
      const run = spawnSync(process.execPath, [path.join(root, 'scripts/check-cycles.mjs'), dir], { encoding: 'utf8' });
      return { status: run.status, output: run.stdout + run.stderr };
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  it('fails on a loop of type imports, with the loop printed', () => {
    const { status, output } = checkProbe(true);
    expect(status).toBe(1);
    expect(output).toMatch(/Import cycle of 2 files[\s\S]*a\.ts\s*\n\s*-> .*b\.ts\s*\n\s*-> .*a\.ts/);
  });

  it('passes the same files without the loop', () => {
    const { status, output } = checkProbe(false);
    expect(output).toContain('No import cycles');
    expect(status).toBe(0);
  });
});

describe("the partner's money is the ledger module's", () => {
  const src = path.join(root, 'apps/server/src');
  const MONEY_TABLES = /\b(currency_accounts|ledger_entries|low_balance_alerts)\b/;
  /** The server's source files (tests aside) whose text names a money table, with the first line that does. */
  function namingMoneyTables() {
    const found = new Map<string, string>();
    for (const entry of fs.readdirSync(src, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) continue;
      const file = path.relative(src, path.join(entry.parentPath, entry.name));
      const line = fs
        .readFileSync(path.join(src, file), 'utf8')
        .split('\n')
        .find((l) => MONEY_TABLES.test(l) && !/^\s*(\*|\/\/|\/\*)/.test(l));
      if (line) found.set(file, line.trim());
    }
    return found;
  }

  it('no code outside modules/ledger reads or writes the accounts, the entries or the low balance state (the database layer aside)', () => {
    const found = namingMoneyTables();
    // the ledger itself names them (the scan sees what it looks for)
    expect(found.get('modules/ledger/ledger.repository.ts')).toMatch(MONEY_TABLES);
    const outside = [...found].filter(([file]) => !file.startsWith('modules/ledger/') && !file.startsWith('db/'));
    expect(outside).toEqual([]);
  });
});
