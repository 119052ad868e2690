import { DropdownMenu } from 'radix-ui';
import { MoreHorizontal } from 'lucide-react';
import { cn } from './cn.ts';

export type MenuItem = { label: string; onSelect: () => void; danger?: boolean; disabled?: boolean };

/** A row's actions behind a "more" button (Radix: arrow keys, typeahead, Esc). */
export function Menu({ label, items }: { label: string; items: MenuItem[] }) {
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger
        className="inline-flex size-8 items-center justify-center rounded-lg text-muted hover:bg-black/5 hover:text-ink data-[state=open]:bg-black/5"
        aria-label={label}
      >
        <MoreHorizontal className="size-4" aria-hidden="true" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="end" sideOffset={4} className="z-50 min-w-48 rounded-lg border border-line bg-white p-1 shadow-lg">
          {items.map((item) => (
            <DropdownMenu.Item
              key={item.label}
              disabled={item.disabled}
              onSelect={item.onSelect}
              className={cn(
                'flex cursor-pointer select-none items-center rounded-md px-3 py-2 text-sm outline-none data-[highlighted]:bg-canvas data-[disabled]:cursor-not-allowed data-[disabled]:opacity-50',
                item.danger ? 'text-danger' : 'text-ink',
              )}
            >
              {item.label}
            </DropdownMenu.Item>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
