import { Outlet } from 'react-router';
import { Logo } from '../../components/ui/logo.tsx';

/** The frame of the screens before sign-in: the logo and one centred card. */
export function PublicLayout() {
  return (
    <div className="flex min-h-dvh flex-col items-center bg-canvas px-4 py-10 sm:justify-center">
      <Logo className="mb-8 inline-flex items-center gap-2 text-brand-900" />
      <main className="w-full max-w-md">
        <Outlet />
      </main>
      <p className="mt-10 text-xs text-muted">Protected by two-factor authentication.</p>
    </div>
  );
}
