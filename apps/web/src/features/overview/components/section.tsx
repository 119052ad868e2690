import { cn } from '../../../components/ui/cn.ts';
import { formatPercent } from '../../../lib/format.ts';

/** A section's title and what it shows. */
export function SectionHeading({ id, title, description }: { id?: string; title: string; description: string }) {
  return (
    <div>
      <h2 id={id} className="text-lg font-semibold tracking-tight text-ink">
        {title}
      </h2>
      <p className="mt-0.5 text-sm text-muted">{description}</p>
    </div>
  );
}

/**
 * A share written and drawn: "92.4%" beside a bar filled that far. The bar repeats the figure for the eye (hidden from
 * assistive technology); the figure is the text. No share (nothing to reckon it from) writes a dash.
 */
export function ShareBar({ share, className, tone = 'brand' }: { share: number | undefined; className?: string; tone?: 'brand' | 'danger' }) {
  return (
    <span className={cn('flex items-center gap-2', className)}>
      <span className="w-14 shrink-0 text-right tabular-nums">{share === undefined ? '–' : formatPercent(share)}</span>
      <span aria-hidden="true" className="h-1.5 w-16 shrink-0 overflow-hidden rounded-full bg-canvas ring-1 ring-line">
        {share !== undefined && (
          <span className={cn('block h-full rounded-full', tone === 'brand' ? 'bg-brand-600' : 'bg-danger')} style={{ width: `${Math.round(share * 100)}%` }} />
        )}
      </span>
    </span>
  );
}
