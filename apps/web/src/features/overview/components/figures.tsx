import { cn } from '../../../components/ui/cn.ts';
import { formatDayRange } from '../../../lib/format.ts';
import { useT } from '../../../lib/i18n.ts';
import type { Figures } from '../links.ts';
import { overviewMessages } from '../messages.ts';
import { FiguresSkeleton } from './figures-skeleton.tsx';
import { BalanceSection } from './balance.tsx';
import { CompletionSection } from './completion.tsx';
import { SuccessSection } from './success.tsx';
import { VolumesSection } from './volumes.tsx';

/**
 * The Overview's figures: the period against the one before, then volumes, success rates, balance and completion
 * times; their skeleton until they come.
 */
export function OverviewFigures({ figures, zone, busy = false }: { figures?: Figures; zone: string; busy?: boolean }) {
  const t = useT(overviewMessages);
  if (!figures) return <FiguresSkeleton />;
  const period = figures.reply.period;
  return (
    <div aria-busy={busy} className={cn('transition-opacity', busy && 'opacity-60')} data-testid="overview-figures">
      {/* two lines' room on a phone, one from `sm` up, whatever the text (as the skeleton's) */}
      <p className="mb-4 min-h-10 text-sm text-muted sm:min-h-5" data-testid="overview-summary">
        {t('summary', {
          period: formatDayRange(period.from, period.to),
          previous: formatDayRange(period.previousFrom, period.previousTo),
          currency: figures.reply.currency,
          zone,
        })}
      </p>
      <div className="space-y-8">
        <VolumesSection figures={figures} />
        <SuccessSection figures={figures} />
        <BalanceSection figures={figures} />
        <CompletionSection figures={figures} />
      </div>
    </div>
  );
}
