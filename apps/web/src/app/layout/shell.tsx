import { renderToStaticMarkup } from 'react-dom/server';
import { Frame, MenuButton } from './frame.tsx';
import { PageSkeleton } from './page-skeleton.tsx';

/**
 * The markup the server puts in the page of a signed-in screen (the build writes it for each route, beside the
 * route's preloads): the frame with no partner yet, and the screen's skeleton, exactly as the portal's first
 * render draws them. The browser paints it before any script has run; the portal's first render replaces it with
 * the same, so nothing moves. Used by the build only (apps/web/vite.config.ts), never loaded in the browser.
 */
export function shellMarkup(pathname: string): string {
  return renderToStaticMarkup(
    <Frame actions={<MenuButton open={false} />}>
      <PageSkeleton pathname={pathname} />
    </Frame>,
  );
}
