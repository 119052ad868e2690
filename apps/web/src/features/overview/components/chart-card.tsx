import { ChevronRight } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card } from '../../../components/ui/card.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { SkeletonBar } from '../../../components/ui/skeleton.tsx';
import { useT } from '../../../lib/i18n.ts';
import { overviewMessages } from '../messages.ts';

/** The height every chart takes, its skeleton's too (Tailwind's h-56): reserved before the data comes. */
export const CHART_HEIGHT = 224;
export const CHART_BOX = 'h-56';

/** How a line is drawn: its colour and its dash, so that colour is never the only difference between two lines. */
export type LineStyle = { label: string; color: string; dash?: number[] };

/** The lines of the Overview's charts: a colour of the palette and a dash each. */
export const LINES = {
  collections: { color: '#0f766e' },
  payments: { color: '#1d5fb8', dash: [7, 4] },
  settlements: { color: '#9a5b00', dash: [2, 3] },
  success: { color: '#127a4a' },
  balance: { color: '#115e59' },
} satisfies Record<string, Omit<LineStyle, 'label'>>;

/** The names of a chart's lines, each beside a sample of its line (its colour and dash). */
export function Legend({ lines }: { lines: LineStyle[] }) {
  const t = useT(overviewMessages);
  return (
    <ul aria-label={t('legend.label')} className="mt-1 flex min-h-5 flex-wrap gap-x-4 gap-y-1 text-xs text-muted">
      {lines.map((l) => (
        <li key={l.label} className="flex items-center gap-1.5">
          <svg width="24" height="8" aria-hidden="true" className="shrink-0">
            <line x1="1" y1="4" x2="23" y2="4" stroke={l.color} strokeWidth="2.5" strokeDasharray={l.dash?.join(' ')} strokeLinecap="butt" />
          </svg>
          {l.label}
        </li>
      ))}
    </ul>
  );
}

/**
 * A chart in its card: the title, the legend, the chart (a grey block of the same height until the data comes) and
 * its figures as a table behind "Show as table", the chart's equivalent for whoever does not see it.
 */
export function ChartCard({
  title,
  lines,
  chart,
  table,
  className,
}: {
  title: string;
  lines: LineStyle[];
  /** the chart, or none yet: its block is drawn grey */
  chart?: ReactNode;
  table?: ReactNode;
  className?: string;
}) {
  const t = useT(overviewMessages);
  return (
    <Card className={cn('min-w-0 p-5', className)}>
      <h3 className="text-sm font-semibold text-ink">{title}</h3>
      <Legend lines={lines} />
      <div className="mt-3" data-testid="chart-box">
        {chart ?? <SkeletonBar className={`${CHART_BOX} w-full`} />}
      </div>
      {table ? (
        <details className="group mt-3">
          <summary className="flex h-6 w-fit cursor-pointer list-none items-center gap-1 rounded text-sm font-medium text-brand-700 hover:underline [&::-webkit-details-marker]:hidden">
            <ChevronRight className="size-4 transition-transform group-open:rotate-90" aria-hidden="true" />
            {t('table.show')}
          </summary>
          <div className="mt-3">{table}</div>
        </details>
      ) : (
        <SkeletonBar className="mt-3 h-6 w-32" />
      )}
    </Card>
  );
}
