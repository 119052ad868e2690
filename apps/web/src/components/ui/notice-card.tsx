import type { LucideIcon } from 'lucide-react';
import { Card } from './card.tsx';

/** A screen's whole content when it has nothing to show (a feature not enabled, nothing found): an icon, a heading, a line. */
export function NoticeCard({ icon: Icon, title, body }: { icon: LucideIcon; title: string; body: string }) {
  return (
    <Card className="flex flex-col items-center gap-3 px-6 py-16 text-center">
      <Icon className="size-10 text-brand-600" aria-hidden="true" />
      <h2 className="text-base font-semibold">{title}</h2>
      <p className="max-w-sm text-sm text-muted">{body}</p>
    </Card>
  );
}
