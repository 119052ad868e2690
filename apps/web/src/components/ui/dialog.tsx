import { Dialog as RadixDialog } from 'radix-ui';
import { X } from 'lucide-react';
import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { useOnceTrue } from '../../lib/shown-once.ts';
import { OWN_ESCAPE } from './own-escape.ts';
import { commonMessages } from '../../lib/common-messages.ts';
import { useT } from '../../lib/i18n.ts';

/**
 * Where focus goes back when a dialog closes: what had it when the dialog opened. An item of a menu is gone by
 * then, so the menu's button is taken instead (a Radix menu is labelled by its trigger).
 */
function returnTarget(opener: Element | null): HTMLElement | null {
  if (!(opener instanceof HTMLElement)) return null;
  const menu = opener.closest('[role="menu"]');
  const target = menu ? document.getElementById(menu.getAttribute('aria-labelledby') ?? '') : opener;
  return target?.isConnected && target !== document.body ? target : null;
}

export type DialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  width?: number;
  /** a drawer along the right edge instead of a centred dialog */
  side?: boolean;
};

/**
 * A modal dialog (Radix: focus trap, Esc, labelled by its title), mounted when first opened. Closing it, by Esc,
 * Close or its own buttons, puts focus back on what opened it; Esc inside an open list of the dialog closes only that
 * list.
 */
export function Dialog({ open, onOpenChange, title, description, children, footer, width = 480, side = false }: DialogProps) {
  const t = useT(commonMessages);
  const opener = useRef<Element | null>(null);
  // before Radix moves focus into the dialog (its effect runs after this layout effect)
  useLayoutEffect(() => {
    if (open) opener.current = document.activeElement;
  }, [open]);
  // nothing until first opened: a closed Radix dialog still mounts its parts, and their layout effects' updates
  // would run in the task of the screen's first commit
  const used = useOnceTrue(open);
  if (!used) return null;
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-ink/40" />
        <RadixDialog.Content
          className={
            side
              ? 'fixed inset-y-0 right-0 z-50 w-full overflow-y-auto bg-white p-6 shadow-xl focus:outline-none'
              : 'fixed left-1/2 top-1/2 z-50 max-h-[90vh] w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl bg-white p-6 shadow-xl focus:outline-none'
          }
          style={{ maxWidth: width }}
          onEscapeKeyDown={(e) => {
            if (e.target instanceof Element && e.target.closest(`[${OWN_ESCAPE}]`)) e.preventDefault();
          }}
          onCloseAutoFocus={(e) => {
            const target = returnTarget(opener.current);
            if (!target) return;
            e.preventDefault();
            target.focus();
          }}
        >
          <div className="mb-4 flex items-start justify-between gap-4">
            <div>
              <RadixDialog.Title className="text-lg font-semibold text-ink">{title}</RadixDialog.Title>
              {description ? (
                <RadixDialog.Description className="mt-1 text-sm text-muted">{description}</RadixDialog.Description>
              ) : (
                <RadixDialog.Description className="sr-only">{title}</RadixDialog.Description>
              )}
            </div>
            <RadixDialog.Close className="rounded-md p-1 text-muted hover:bg-black/5" aria-label={t('dialog.close')}>
              <X className="size-5" aria-hidden="true" />
            </RadixDialog.Close>
          </div>
          {children}
          {footer && <div className="mt-6 flex flex-wrap justify-end gap-3">{footer}</div>}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
