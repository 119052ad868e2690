import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean) as string[];

export const chromiumPath = CANDIDATES.find((p) => fs.existsSync(p));

/** In CI a missing Chromium is a failure; elsewhere the browser tests are skipped with a reason. */
export const browserMissing = !chromiumPath && process.env.CI !== 'true';

export function launch(): Promise<Browser> {
  if (!chromiumPath) throw new Error('Chromium not found: apt-get install -y chromium (or set CHROMIUM_PATH)');
  return chromium.launch({
    executablePath: chromiumPath,
    args: ['--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-gpu'],
  });
}
