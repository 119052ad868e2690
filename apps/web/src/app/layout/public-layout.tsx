import { Outlet } from 'react-router';
import { Logo } from '../../components/ui/logo.tsx';
import { MAIN_ID, SkipLink } from './skip-link.tsx';
import { ConnectionNotice } from '../../components/connection-notice.tsx';
import { commonMessages } from '../../lib/common-messages.ts';
import { useT } from '../../lib/i18n.ts';
import { LanguageSwitch } from '../../components/language-switch.tsx';

/** The frame of the screens before sign-in: the logo and one centred card, every part inside a landmark. */
export function PublicLayout() {
  const t = useT(commonMessages);
  return (
    <div className="flex min-h-dvh flex-col items-center bg-canvas px-4 py-10 sm:justify-center">
      <SkipLink />
      <header className="mb-8">
        <Logo className="inline-flex items-center gap-2 text-brand-900" />
      </header>
      <main id={MAIN_ID} tabIndex={-1} className="w-full max-w-md focus:outline-none">
        <Outlet />
      </main>
      <footer className="mt-10 flex flex-col items-center gap-3 text-xs text-muted">
        <p>{t('publicFooter')}</p>
        <LanguageSwitch />
      </footer>
      <ConnectionNotice />
    </div>
  );
}
