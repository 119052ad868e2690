import type { ReactNode } from 'react';
import { ChevronDown, Menu } from 'lucide-react';
import { Logo } from '../../components/ui/logo.tsx';
import { MAIN_ID, SkipLink } from './skip-link.tsx';
import { frameMessages } from '../../lib/frame-messages.ts';
import { useT } from '../../lib/i18n.ts';

/** The button that opens the navigation on small screens (an accordion under the bar). */
export function MenuButton({ open, onClick }: { open: boolean; onClick?: () => void }) {
  const t = useT(frameMessages);
  return (
    <button
      type="button"
      className="rounded-md p-2 hover:bg-white/10 md:hidden"
      aria-expanded={open}
      aria-controls="side-nav"
      aria-label={open ? t('menu.close') : t('menu.open')}
      onClick={onClick}
    >
      {open ? <ChevronDown className="size-5" aria-hidden="true" /> : <Menu className="size-5" aria-hidden="true" />}
    </button>
  );
}

/**
 * The signed-in frame's layout, with nothing of the session, the router or the data: the side bar (the logo and its
 * buttons, the partner's card, the navigation, the user) and the page. The portal draws it with them
 * (app-layout.tsx); the build draws it without them around each screen's skeleton (shell.tsx), into the page the
 * server sends, so that a reload shows the frame before any script has run.
 */
export function Frame({
  actions,
  partner,
  nav,
  footer,
  after,
  children,
}: {
  actions: ReactNode;
  /** the partner's card; until a partner is known, a block of its height, so that nothing moves when it comes */
  partner?: ReactNode;
  nav?: ReactNode;
  footer?: ReactNode;
  /** what lives beside the page (dialogs, notices, toasts) */
  after?: ReactNode;
  children: ReactNode;
}) {
  const t = useT(frameMessages);
  return (
    <div className="flex min-h-dvh flex-col md:flex-row">
      <SkipLink />
      <aside aria-label={t('aside')} className="bg-brand-900 text-white md:w-64 md:shrink-0">
        <div className="md:sticky md:top-0 md:flex md:h-dvh md:flex-col">
          <div className="flex items-center justify-between px-5 py-4">
            <Logo className="inline-flex items-center gap-2" />
            <div className="flex items-center gap-1">{actions}</div>
          </div>
          {partner ?? <div className="mx-5 mb-2 h-[52px] rounded-lg bg-white/5" aria-hidden="true" />}
          {nav}
          {footer}
        </div>
      </aside>
      <main id={MAIN_ID} tabIndex={-1} className="min-w-0 flex-1 px-4 py-6 focus:outline-none md:px-8 md:py-8">
        {children}
      </main>
      {after}
    </div>
  );
}
