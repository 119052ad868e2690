import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest (seconds on two cores, from a JSON report), started first: vitest orders the files of a
 * fresh checkout by size, and a small slow file then started last and ran alone (the integration tests took 680 s
 * where their files add up to 960 s over two workers). The browser tests that wait on real time (token renewals, an
 * idle sign-out, a server stopped for 20 s) are the longest of all; started first, the others fill the second worker
 * beside them. A file not named here keeps vitest's order after these.
 */
const LONGEST_FIRST = [
  // e2e
  'e2e/sessions.spec.ts', // 150-275 s
  'e2e/renewal.spec.ts', // 135-180 s
  'e2e/accessible-names.spec.ts', // 46 s
  'e2e/auth.spec.ts', // 45 s
  // server
  'apps/server/test/webhooks.test.ts', // 59-67 s
  'apps/server/test/key-check.test.ts', // 54-148 s
  'apps/server/test/exports.test.ts', // 29 s
  'apps/server/test/settlements.test.ts', // 29 s
  'apps/server/test/fuzz.test.ts', // 27-70 s
  'apps/server/test/cli.test.ts', // 26-66 s
  'apps/server/test/faults.test.ts', // 25 s
  'apps/server/test/wallets.test.ts', // 24 s
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = LONGEST_FIRST.findIndex((name) => f.moduleId.endsWith(`/${name}`));
      return i === -1 ? LONGEST_FIRST.length : i;
    };
    // within each project (vitest runs projects one after another), the named files first, in the list's order
    const project = new Map(sorted.map((f, i) => [f.project.name, i]));
    return sorted
      .map((f, i) => ({ f, i }))
      .sort((a, b) => (project.get(a.f.project.name) ?? 0) - (project.get(b.f.project.name) ?? 0) || rank(a.f) - rank(b.f) || a.i - b.i)
      .map(({ f }) => f);
  }
}

export default defineConfig({
  test: {
    sequence: { sequencer: LongestFirst },
    projects: [
      { test: { name: 'contract', include: ['packages/contract/src/**/*.test.ts'], environment: 'node' } },
      { test: { name: 'client', include: ['packages/client/src/**/*.test.ts'], environment: 'node' } },
      'apps/web/vite.config.ts',
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          // a set-up (a fresh PGlite, migrated and seeded) took more than 60 s on a machine busy with other work: a
          // test proves behaviour, not speed (the benchmarks measure that)
          hookTimeout: 180_000,
          pool: 'forks',
          // the files of a worker share one module graph: the app's modules are loaded once per worker, not once per
          // file (the suite takes about 460 s instead of 620 on two cores). A file must not change a module for the
          // others: no vi.mock of a module another file uses; settings go through each test's own app (harness.ts)
          isolate: false,
        },
      },
      // the deployment under load and faults (npm run test:cluster): not part of npm test, run by CI on its own
      {
        test: {
          name: 'cluster',
          root: 'apps/server',
          include: ['test/cluster/**/*.cluster.ts'],
          environment: 'node',
          testTimeout: 300_000,
          hookTimeout: 600_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.spec.ts'],
          globalSetup: ['e2e/support/global-setup.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // a poll waits for the screen to settle (a page's first data, a filter's rows): up to 10 s on a busy machine,
          // where two servers and two browsers share two cores (vitest's 1 s made a slow first paint a failure). A wrong
          // value still fails, once the 10 s are up
          expect: { poll: { timeout: 10_000, interval: 100 } },
          // files run side by side as the workers allow (npm test gives two): each starts its own server on a port of
          // its own and its own browser; within a worker, one module graph for its files
          isolate: false,
        },
      },
    ],
  },
});
