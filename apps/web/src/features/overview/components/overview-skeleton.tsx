import type { ReactNode } from 'react';
import { SkeletonBar } from '../../../components/ui/skeleton.tsx';
import { Segmented } from '../../../components/ui/segmented.tsx';
import { useT } from '../../../lib/i18n.ts';
import { overviewMessages } from '../messages.ts';
import { DEFAULT_PERIOD } from '../period.ts';
import { ControlsFrame, periodOptions } from './controls-frame.tsx';
import { FiguresSkeleton } from './figures-skeleton.tsx';

/** A grey block exactly the size of `children`, which are laid out but not shown (nor read, nor focusable). */
function ShapeOf({ children }: { children: ReactNode }) {
  return (
    <div className="relative self-start">
      <div className="invisible flex flex-col">{children}</div>
      <span className="absolute inset-0 animate-pulse rounded-lg bg-canvas" />
    </div>
  );
}

/**
 * The Overview before anything of it has come: its controls as grey blocks of their size (the period's choices laid
 * out in the language in force, hidden) and its figures' skeleton. The page the server sends draws it under the
 * screen's header (app/layout/page-skeleton.tsx), and the screen replaces it in place. No router, no data: the
 * build draws it outside the portal.
 */
export function OverviewSkeleton() {
  const t = useT(overviewMessages);
  return (
    <>
      <ControlsFrame
        period={
          <ShapeOf>
            <Segmented label={t('period.label')} value={DEFAULT_PERIOD} options={periodOptions(t)} onChange={() => undefined} />
          </ShapeOf>
        }
        walletLabel={t('wallet.label')}
        wallet={<SkeletonBar className="h-10 w-full" />}
      />
      <FiguresSkeleton />
    </>
  );
}
