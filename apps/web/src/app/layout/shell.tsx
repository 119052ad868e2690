import { renderToStaticMarkup } from 'react-dom/server';
import { Frame, MenuButton } from './frame.tsx';
import { PageSkeleton } from './page-skeleton.tsx';
import { LANGUAGES } from '@portal/contract/i18n';
import { FRENCH } from '../../lib/french.ts';
import { provideFrench, setLanguage, type Language } from '../../lib/i18n.ts';

/**
 * The markup the server puts in the page of a signed-in screen (the build writes it for each route, beside the
 * route's preloads, once per language): the frame with no partner yet, and the screen's skeleton, exactly as the
 * portal's first render draws them. The browser paints it before any script has run; the portal's first render replaces it with
 * the same, so nothing moves. Used by the build only (apps/web/vite.config.ts), never loaded in the browser.
 */
export async function shellMarkups(pathname: string): Promise<Record<Language, string>> {
  provideFrench(FRENCH);
  const markup: Partial<Record<Language, string>> = {};
  // one language after the other: the language in force is the module's
  for (const language of LANGUAGES) {
    await setLanguage(language);
    markup[language] = renderToStaticMarkup(
      <Frame actions={<MenuButton open={false} />}>
        <PageSkeleton pathname={pathname} />
      </Frame>,
    );
  }
  return markup as Record<Language, string>;
}
