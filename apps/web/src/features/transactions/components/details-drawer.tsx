import { Dialog } from '../../../components/ui/dialog.tsx';
import { titleCase } from '../../../lib/format.ts';
import type { Row } from '../tables.ts';

/** Every field of one transaction in a side drawer, labelled from its name (createdAt → Created At). */
export function DetailsDrawer({ row, onClose }: { row: Row | undefined; onClose(): void }) {
  return (
    <Dialog open={!!row} onOpenChange={(open) => !open && onClose()} title="Transaction details" width={480} side>
      {row && (
        <dl className="grid grid-cols-1 gap-y-3 text-sm">
          {Object.entries(row)
            .filter(([k]) => k !== 'partnerId')
            .map(([k, v]) => (
              <div key={k} className="min-w-0">
                <dt className="text-xs text-muted">{titleCase(k.replace(/([A-Z])/g, ' $1'))}</dt>
                <dd className="break-all font-medium">{v ?? '—'}</dd>
              </div>
            ))}
        </dl>
      )}
    </Dialog>
  );
}
