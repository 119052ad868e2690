import { cn } from './cn.ts';

export function Spinner({ className, label }: { className?: string; label?: string }) {
  return (
    <span role={label ? 'status' : undefined} className="inline-flex items-center gap-2">
      <svg className={cn('animate-spin text-current', className ?? 'size-5')} viewBox="0 0 24 24" aria-hidden="true">
        <circle cx="12" cy="12" r="10" stroke="currentColor" strokeOpacity="0.25" strokeWidth="4" fill="none" />
        <path d="M22 12a10 10 0 0 0-10-10" stroke="currentColor" strokeWidth="4" fill="none" strokeLinecap="round" />
      </svg>
      {label && <span className="text-muted">{label}</span>}
    </span>
  );
}

/** A block that keeps its height while loading, so that the layout does not shift when content arrives. */
export function LoadingBlock({ label, minHeight = 160 }: { label: string; minHeight?: number }) {
  return (
    <div className="flex items-center justify-center" style={{ minHeight }}>
      <Spinner label={label} />
    </div>
  );
}
