export function Logo({ className }: { className?: string }) {
  return (
    <span className={className ?? 'inline-flex items-center gap-2'}>
      <svg viewBox="0 0 32 32" className="size-8" aria-hidden="true">
        <rect width="32" height="32" rx="8" fill="#0f3d3e" />
        <path d="M9 22V10h7.5a4.5 4.5 0 0 1 0 9H13" fill="none" stroke="#5eead4" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      <span className="text-base font-semibold tracking-tight">Partner Dashboard</span>
    </span>
  );
}
