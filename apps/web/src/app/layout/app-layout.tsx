import {
  ArrowLeftRight,
  CandlestickChart,
  ChartLine,
  Download,
  Globe,
  KeyRound,
  Landmark,
  LogOut,
  Radar,
  Scale,
  Send,
  Settings,
  Wallet,
  Webhook,
  type LucideIcon,
} from 'lucide-react';
import { Suspense, lazy, useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { NavLink, Outlet, useLocation } from 'react-router';
import { cn } from '../../components/ui/cn.ts';
import { CopyButton } from '../../components/ui/copy-button.tsx';
import { useFramePartner, useProfile } from '../../lib/partner/profile.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { PageSkeleton } from './page-skeleton.tsx';
import { logout } from '../../lib/session/session.ts';
import { useSession } from '../../lib/session/session-store.ts';
import { isActive, navGroups, type NavIcon } from './nav.ts';
import { guard } from '../guard.ts';
import { ROUTES } from '../routes.ts';
import { buildInfo } from '../../lib/build-info.ts';
import { SessionWatch } from './session-watch.tsx';
import { Frame, MenuButton } from './frame.tsx';
import { Toaster } from '../../components/ui/toaster.tsx';
import { BannerArea } from '../../features/banners/banner-area.tsx';
import { WalletReviewBanners } from '../../features/wallets/components/wallet-review-banners.tsx';
import { everyHourOnTheHour } from '../../lib/hourly.ts';
import { useLiveEvents } from '../../lib/live-events.ts';
import { TimeZoneScope } from '../../lib/time-zone.tsx';
import { onReconnected } from '../../lib/connection.ts';
import { ConnectionNotice } from '../../components/connection-notice.tsx';
import { topicsForRole } from '@portal/contract/notifications';
import { NotificationBell } from '../../features/notifications/components/notification-bell.tsx';
import { frameMessages } from '../../lib/frame-messages.ts';
import { useT } from '../../lib/i18n.ts';
import { useAfterStart } from '../../lib/after-start.ts';
import { setTestMode, useTestMode } from '../../lib/test-mode.ts';
import { TestModeBanner, TestModeSwitch } from './test-mode.tsx';

/** The top-up dialog, loaded when first opened (from the low-balance banner): the frame does not carry it. */
const TopUpDialog = lazy(async () => ({ default: (await import('../../features/balance/components/top-up-dialog.tsx')).TopUpDialog }));

/** What each of the navigation's icons is drawn with. */
const NAV_ICONS: Record<NavIcon, LucideIcon> = {
  overview: ChartLine,
  transactions: ArrowLeftRight,
  countries: Globe,
  coverage: Radar,
  balance: Landmark,
  keys: KeyRound,
  webhooks: Webhook,
  wallet: Wallet,
  dataDownload: Download,
  settings: Settings,
  trades: CandlestickChart,
  payments: Send,
};

/** Toasts last 3000 ms in the layout (portal-core §9). */
const LAYOUT_TOAST_MS = 3000;

/** The signed-in frame: side navigation (an accordion on small screens) and the page. */
export function AppLayout() {
  const t = useT(frameMessages);
  const { pathname } = useLocation();
  const user = useSession((s) => s.user);
  const profile = useProfile();
  const [open, setOpen] = useState(false);
  // open, with why when the low-balance banner opened it (the dialog says the limit)
  const [topUp, setTopUp] = useState<{ reason?: string } | undefined>();
  const queryClient = useQueryClient();
  // the shared data (partner, accounts) loads at start, at the next hour boundary and hourly after
  useEffect(() => everyHourOnTheHour(() => void queryClient.invalidateQueries({ queryKey: ['partner'] })), [queryClient]);
  // open tables, payment details and the balance refetch when the partner's data changes (the live event stream)
  useLiveEvents(Boolean(user));
  // back from an outage: what is on screen is read again (reads that waited go by themselves; this catches the rest)
  useEffect(() => onReconnected(() => void queryClient.invalidateQueries(undefined, { cancelRefetch: false })), [queryClient]);
  // the frame draws at once: with the server's partner, or until it arrives the one this browser last showed
  const frame = useFramePartner();
  // the screen shows once the server's partner has arrived (with the rest of the start data, in one reply)
  const ready = profile.data !== undefined;
  // the screen mounts right after the frame's first commit, in a render of its own: mounted with the frame, its
  // effects (the table's search, its subscriptions) ran in one task with the frame's (the live stream, the bell, the
  // start data's queries), some 20-45 ms on this machine and four times that on a phone
  const [screenMounted] = useAfterStart();
  const partner = frame.data?.partner;
  const groups = partner && frame.data && user ? navGroups(partner, frame.data.featureFlags, user.role) : [];
  // About is linked for whoever the guard lets open it (B2B partners)
  const showAbout =
    !!partner && !!user && guard(ROUTES.about, { isLoggedIn: true, verified: true, role: user.role, partner, featureFlags: frame.data?.featureFlags }) === null;
  // the test view (the partner's test side), for B2B partners: a partner the server says is not one leaves it
  const testMode = useTestMode((s) => s.on);
  const serverB2B = profile.data?.partner.isB2B;
  useEffect(() => {
    if (testMode && serverB2B === false) setTestMode(false);
  }, [testMode, serverB2B]);

  return (
    <Frame
      actions={
        <>
          {user && topicsForRole(user.role).length > 0 && <NotificationBell />}
          <MenuButton open={open} onClick={() => setOpen(!open)} />
        </>
      }
      partner={
        partner && (
          <div className="mx-5 mb-2 rounded-lg bg-white/5 px-3 py-2">
            <p className="truncate text-sm font-semibold" data-testid="partner-name">
              {partner.name}
            </p>
            <div className="flex items-center gap-1">
              <p className="min-w-0 flex-1 truncate font-mono text-[11px] text-brand-200/80" title={partner.id} data-testid="partner-id">
                {t('partnerId', { id: partner.id })}
              </p>
              <CopyButton value={partner.id} label={t('partnerIdCopy')} className="size-6 text-brand-200/80 hover:bg-white/10 hover:text-white" />
            </div>
          </div>
        )
      }
      nav={
        <nav id="side-nav" aria-label={t('nav.label')} className={cn('flex-1 overflow-y-auto px-3 pb-4', open ? 'block' : 'hidden md:block')}>
          {groups.map((g) => (
            <div key={g.title} className="mt-4">
              <p className="px-2 text-[11px] font-semibold uppercase tracking-wider text-brand-200/70">{t(g.title)}</p>
              <ul className="mt-1 space-y-0.5">
                {g.items.map((item) => {
                  const Icon = NAV_ICONS[item.icon];
                  return (
                    <li key={item.to}>
                      <NavLink
                        to={item.to}
                        onClick={() => setOpen(false)}
                        className={cn(
                          'flex items-center gap-2 rounded-md px-2 py-2 text-sm',
                          isActive(pathname, item.to) ? 'bg-white/15 font-medium text-white' : 'text-brand-100/90 hover:bg-white/10',
                        )}
                      >
                        <Icon className="size-4 shrink-0" aria-hidden="true" data-icon={item.icon} />
                        {t(item.label)}
                      </NavLink>
                    </li>
                  );
                })}
                {g.title === 'nav.group.account' && (
                  <li>
                    <button
                      type="button"
                      onClick={() => logout()}
                      className="flex w-full items-center gap-2 rounded-md px-2 py-2 text-left text-sm text-brand-100/90 hover:bg-white/10"
                    >
                      <LogOut className="size-4" aria-hidden="true" />
                      {t('logOut')}
                    </button>
                  </li>
                )}
              </ul>
            </div>
          ))}
        </nav>
      }
      footer={
        user && (
          <div className={cn('border-t border-white/10 px-5 py-3 text-xs text-brand-100/80', open ? 'block' : 'hidden md:block')}>
            {partner?.isB2B && <TestModeSwitch />}
            <p className="truncate font-medium text-white">{user.name}</p>
            <p className="truncate">
              {user.email} · {t(`role.${user.role}`)}
            </p>
            {showAbout && (
              <NavLink
                to="/about"
                onClick={() => setOpen(false)}
                className="mt-2 inline-flex items-center gap-1 rounded text-brand-100/80 underline-offset-2 hover:text-white hover:underline"
              >
                <Scale className="size-3.5 shrink-0" aria-hidden="true" data-icon="legal" />
                {t('about', { version: buildInfo.version })}
              </NavLink>
            )}
          </div>
        )
      }
      after={
        <>
          {topUp && (
            <Suspense fallback={null}>
              <TopUpDialog open={!!topUp} onOpenChange={(next) => !next && setTopUp(undefined)} b2b={partner?.isB2B ?? false} reason={topUp?.reason} />
            </Suspense>
          )}
          <SessionWatch />
          <ConnectionNotice />
          <Toaster duration={LAYOUT_TOAST_MS} />
        </>
      }
    >
      {testMode && <TestModeBanner />}
      {(!ready || !screenMounted) && !profile.isError && <PageSkeleton pathname={pathname} />}
      {!ready && profile.isError && (
        <div className="mx-auto max-w-md p-8">
          <Alert tone="danger">{t('partnerFailed', { error: profile.error.message })}</Alert>
          <Button className="mt-4" variant="secondary" onClick={() => void profile.refetch()}>
            {t('tryAgain')}
          </Button>
        </div>
      )}
      {/* the screen is there (asking for its data) before the start data arrives, and shows with its banners at once */}
      {screenMounted && (
        <div hidden={!ready}>
          <BannerArea onTopUp={(reason) => setTopUp({ reason })} />
          <WalletReviewBanners />
          <TimeZoneScope>
            {/* a switch of view draws the screen anew: nothing it held (rows pinned on screen, the last good page) is the other side's */}
            <Outlet key={testMode ? 'test' : 'live'} />
          </TimeZoneScope>
        </div>
      )}
    </Frame>
  );
}
