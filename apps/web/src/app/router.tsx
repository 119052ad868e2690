import {
  UNSAFE_createBrowserHistory as createBrowserHistory,
  UNSAFE_createRouter as createDataRouter,
  UNSAFE_mapRouteProperties as mapRouteProperties,
  type RouteObject,
} from 'react-router';
import { Guarded, HomeRedirect } from './guarded.tsx';
import { PublicLayout } from './layout/public-layout.tsx';
import { RouteError } from './route-error.tsx';
import { ROUTES } from './routes.ts';
import { APP_LAYOUT, APP_SCREENS, PUBLIC_SCREENS, type Screen } from './screens.ts';

type Module = Record<string, unknown>;
type Component = () => React.JSX.Element;

// every module a screen may live in, each its own chunk loaded on demand (portal-core §2); screens.ts says which
const MODULES = import.meta.glob<Module>(['/src/features/*/routes/*.tsx', '/src/app/layout/app-layout.tsx', '!/src/**/*.test.tsx']);

async function load(module: string, name: string): Promise<Component> {
  const loader = MODULES[`/src/${module}`];
  if (!loader) throw new Error(`no screen module ${module}`);
  return (await loader())[name] as Component;
}

/** A route that loads its screen on demand behind the navigation guard. */
function screen({ meta, module, name }: Screen): RouteObject {
  return {
    path: meta.path,
    element: <Guarded meta={meta} />,
    children: [{ index: true, lazy: async () => ({ Component: await load(module, name) }) }],
  };
}

export const routes: RouteObject[] = [
  {
    errorElement: <RouteError />,
    children: [
      {
        Component: PublicLayout,
        children: [...PUBLIC_SCREENS.map(screen), { path: '*', lazy: async () => ({ Component: (await import('./not-found.tsx')).NotFound }) }],
      },
      {
        element: <Guarded meta={ROUTES.home} />,
        children: [
          {
            lazy: async () => ({ Component: await load(APP_LAYOUT, 'AppLayout') }),
            children: [{ index: true, path: '/', Component: HomeRedirect }, ...APP_SCREENS.map(screen)],
          },
        ],
      },
    ],
  },
];

/**
 * The router, made as `createBrowserRouter` makes it (the same history and route properties; the portal has no
 * server-rendered data to hydrate) but not yet started: making it ranks and matches the route table, and its
 * `initialize()` starts the first navigation (the lazy screen and frame); the portal does each in a task of its own
 * (some 40 ms of a phone's main thread together).
 */
export const createRouter = () => createDataRouter({ history: createBrowserHistory({ window }), routes, mapRouteProperties });
