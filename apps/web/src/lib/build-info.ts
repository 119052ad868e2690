/** Written by the build (vite.config.ts `define`): the product's version, the commit and when the portal was built. */
declare const __PORTAL_BUILD__: { version: string; commit: string; builtAt: string };

export type BuildInfo = { version: string; commit: string; builtAt: string };

export const buildInfo: BuildInfo = typeof __PORTAL_BUILD__ === 'undefined' ? { version: '0.0.0', commit: 'unknown', builtAt: '' } : __PORTAL_BUILD__;
