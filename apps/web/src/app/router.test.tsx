import { readFileSync } from 'node:fs';
import path from 'node:path';
import { UNSAFE_createBrowserHistory, UNSAFE_createRouter, UNSAFE_mapRouteProperties } from 'react-router';
import { describe, expect, it } from 'vitest';
import { createRouter } from './router.tsx';

const WEB = path.resolve(import.meta.dirname, '../..');
const version = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as { version?: string; dependencies?: Record<string, string> };

/**
 * The router is made as createBrowserRouter makes it, through three of react-router's UNSAFE_ exports, so that the
 * portal can make it and start it in tasks of their own (router.tsx). Those exports may change in any release: the
 * version is pinned, without a range, and these tests say what the portal relies on, so that an upgrade is a decision
 * taken with them.
 */
describe("the router's private parts of react-router", () => {
  it('are pinned to one version of react-router, the one installed', () => {
    const wanted = version(path.join(WEB, 'package.json')).dependencies?.['react-router'];
    expect(wanted).toMatch(/^\d+\.\d+\.\d+$/);
    expect(version(path.join(WEB, '../../node_modules/react-router/package.json')).version).toBe(wanted);
  });

  it('are the functions the portal calls', () => {
    for (const part of [UNSAFE_createBrowserHistory, UNSAFE_createRouter, UNSAFE_mapRouteProperties]) expect(part).toBeTypeOf('function');
  });

  it('make a router that is not started until asked, then goes to the page the address names', async () => {
    window.history.replaceState(null, '', '/login');
    const router = createRouter();
    // made, the route table ranked: nothing loaded or navigated yet
    expect(router.state.initialized).toBe(false);
    expect(router.state.location.pathname).toBe('/login');
    router.initialize();
    await expect.poll(() => router.state.initialized).toBe(true);
    expect(router.state.matches.map((m) => m.route.path).filter(Boolean)).toContain('/login');
    router.dispose();
  });
});
