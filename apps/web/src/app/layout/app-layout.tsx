import { Outlet } from 'react-router';
import { Logo } from '../../components/ui/logo.tsx';

/** The signed-in frame: side navigation and the page. The full navigation comes with the layout change. */
export function AppLayout() {
  return (
    <div className="flex min-h-dvh flex-col md:flex-row">
      <aside className="border-b border-line bg-brand-900 px-5 py-4 text-white md:w-64 md:border-b-0 md:border-r">
        <Logo className="inline-flex items-center gap-2" />
      </aside>
      <main className="flex-1 px-4 py-6 md:px-10 md:py-8">
        <Outlet />
      </main>
    </div>
  );
}
