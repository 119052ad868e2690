// Types of what TypeScript code (tests, benchmarks) imports from release.mjs.

/** Unpacks a release tarball into `into` and installs its production dependencies only; returns the release's folder. */
export function installRelease(tarball: string, into: string): Promise<string>;
