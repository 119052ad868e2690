import { Card } from './card.tsx';
import { commonMessages } from '../../lib/common-messages.ts';
import { useT } from '../../lib/i18n.ts';

/** A grey bar that stands for text or a control while it loads (give it its size with `className`). */
export function SkeletonBar({ className }: { className: string }) {
  return <span className={`block animate-pulse rounded bg-canvas ${className}`} />;
}

/** Cards of grey bars (each bar's size in `bars`), laid out by `className` (a grid, a column). */
export function CardSkeletons({ count, bars, className }: { count: number; bars: string[]; className: string }) {
  return (
    <div className={className}>
      {Array.from({ length: count }, (_, i) => (
        <Card key={i} className="space-y-3 p-6">
          {bars.map((bar) => (
            <SkeletonBar key={bar} className={bar} />
          ))}
        </Card>
      ))}
    </div>
  );
}

/** Two cards of figures (a title, an amount, a line under it), as the balance screen draws them. */
export function CardsSkeleton() {
  return <CardSkeletons count={2} className="grid gap-4 md:grid-cols-2" bars={['h-4 w-32', 'h-10 w-56', 'h-4 w-40']} />;
}

/** Lines of a list while it loads: a round mark, a name, a figure at the end (sizes in the props). */
export function RowSkeletons({ rows, mark, name, end }: { rows: number; mark: string; name: string; end: string }) {
  const t = useT(commonMessages);
  return (
    <ul className="divide-y divide-line" aria-label={t('loading')}>
      {Array.from({ length: rows }, (_, i) => (
        <li key={i} className="flex items-center gap-4 px-6 py-5">
          <span className={`animate-pulse rounded-full bg-canvas ${mark}`} />
          <span className={`h-4 animate-pulse rounded bg-canvas ${name}`} />
          <span className={`ml-auto h-4 animate-pulse rounded bg-canvas ${end}`} />
        </li>
      ))}
    </ul>
  );
}
