// Types of what TypeScript code (tests, benchmarks) imports from worktree.mjs.

/** Runs git in this repository; answers its output, trimmed. */
export function git(...args: string[]): string;
/** A worktree of `rev` in a temporary folder, sharing this checkout's packages when its lockfile is the same. */
export function addWorktree(rev: string, prefix?: string): string;
export function removeWorktree(dir: string): void;
/** What the server's code is made of. */
export const SERVER_PATHS: string[];
/** PREVIOUS_RELEASE, else the newest commit before HEAD that changed the server's code. */
export function previousRelease(): string | undefined;
/** The release artifact of `rev`, made by that commit's own `npm run release` in a worktree, written to `out`; its tarball's path. */
export function makeReleaseOf(rev: string, out: string): Promise<string>;
