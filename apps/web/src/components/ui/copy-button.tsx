import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { cn } from './cn.ts';
import { toast } from './toast-store.ts';
import { commonMessages } from '../../lib/common-messages.ts';
import { translator, useT } from '../../lib/i18n.ts';

/** Copies a value to the clipboard and says so in a toast; `copied` is true for two seconds after (the button's tick). */
export function useCopy(value: string, label: string) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = () => {
    const t = translator(commonMessages);
    if (!navigator.clipboard) return toast.show(t('copy.failed'));
    navigator.clipboard.writeText(value).then(
      () => {
        setCopied(true);
        toast.show(t('copy.done', { label }));
      },
      () => toast.show(t('copy.failed')),
    );
  };
  return { copied, copy };
}

/**
 * A small icon button that copies a whole value (an id, an address, a hash) even where the screen shows it cut;
 * it turns into a tick for two seconds and says so in a toast.
 */
export function CopyButton({
  value,
  label,
  className,
}: {
  value: string;
  /** what is copied, for the button's name and the toast: "ID" (in French a noun without its article: "ID partenaire") */ label: string;
  className?: string;
}) {
  const t = useT(commonMessages);
  const { copied, copy } = useCopy(value, label);
  return (
    <button
      type="button"
      onClick={copy}
      aria-label={t('copy.button', { label })}
      title={t('copy.button', { label })}
      data-copy={value}
      className={cn('inline-flex size-7 shrink-0 items-center justify-center rounded-md text-muted hover:bg-black/5 hover:text-ink', className)}
    >
      {copied ? <Check className="size-3.5 text-success" aria-hidden="true" /> : <Copy className="size-3.5" aria-hidden="true" />}
    </button>
  );
}
