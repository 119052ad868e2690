import { Card } from './card.tsx';

/** A grey bar that stands for text or a control while it loads (give it its size with `className`). */
export function SkeletonBar({ className }: { className: string }) {
  return <span className={`block animate-pulse rounded bg-canvas ${className}`} />;
}

/** Two cards of figures (a title, an amount, a line under it), as the balance screen draws them. */
export function CardsSkeleton() {
  return (
    <div className="grid gap-4 md:grid-cols-2">
      {Array.from({ length: 2 }, (_, i) => (
        <Card key={i} className="space-y-3 p-6">
          <SkeletonBar className="h-4 w-32" />
          <SkeletonBar className="h-10 w-56" />
          <SkeletonBar className="h-4 w-40" />
        </Card>
      ))}
    </div>
  );
}
