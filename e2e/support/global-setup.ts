import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startServerProcess } from '../../apps/server/test/server-process.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** a data directory with the demo data already in it (its keys too), made once for the run */
    seededDataDir: string;
  }
}

/**
 * Once for the browser tests: a server started in an empty data directory makes the schema and the demo data there,
 * and stops. Each test's server then starts in a copy of it (some 4 s instead of 9: no migrations, no seeding, no
 * password hashing), a fresh database all the same.
 */
export default async function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-seeded-'));
  const server = await startServerProcess({ DATA_DIR: dir });
  await server.stop();
  project.provide('seededDataDir', dir);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
