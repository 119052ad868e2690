import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'contract', include: ['packages/contract/src/**/*.test.ts'], environment: 'node' } },
      'apps/web/vite.config.ts',
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
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
