import { Info, X, AlertCircle } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { cn } from './cn.ts';
import { useToasts, type Toast } from './toast-store.ts';
import { commonMessages } from '../../lib/common-messages.ts';
import { useT } from '../../lib/i18n.ts';

function ToastView({ t, hide, tone, duration }: { t: Toast; hide: () => void; tone: 'normal' | 'info'; duration: number }) {
  const text = useT(commonMessages);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const remaining = useRef(duration);
  const started = useRef(0);

  useEffect(() => {
    if (!t.show) return;
    remaining.current = duration;
    started.current = Date.now();
    timer.current = setTimeout(hide, duration);
    return () => clearTimeout(timer.current);
  }, [t.show, t.message, duration, hide]);

  if (!t.show) return null;
  const pause = () => {
    if (!t.pauseOnHover) return;
    clearTimeout(timer.current);
    remaining.current -= Date.now() - started.current;
  };
  const resume = () => {
    if (!t.pauseOnHover) return;
    started.current = Date.now();
    timer.current = setTimeout(hide, Math.max(500, remaining.current));
  };
  const Icon = tone === 'info' ? Info : AlertCircle;
  return (
    <div
      role={tone === 'info' ? 'status' : 'alert'}
      onMouseEnter={pause}
      onMouseLeave={resume}
      onClick={t.onClick}
      className={cn(
        'pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-lg border px-4 py-3 text-sm shadow-lg',
        tone === 'info' ? 'border-brand-600/20 bg-white text-ink' : 'border-ink/10 bg-ink text-white',
      )}
    >
      <Icon className={cn('mt-0.5 size-4 shrink-0', tone === 'info' ? 'text-brand-700' : 'text-brand-300')} aria-hidden="true" />
      <p className="flex-1">{t.message}</p>
      {t.buttonText && (
        <button
          type="button"
          className="font-semibold underline-offset-2 hover:underline"
          onClick={(e) => {
            e.stopPropagation();
            t.onButtonClick?.();
          }}
        >
          {t.buttonText}
        </button>
      )}
      <button
        type="button"
        aria-label={text('toast.dismiss')}
        className="rounded p-0.5 opacity-70 hover:opacity-100"
        onClick={(e) => {
          e.stopPropagation();
          t.onDismiss?.();
          hide();
        }}
      >
        <X className="size-4" aria-hidden="true" />
      </button>
    </div>
  );
}

/** Both toasts, top right. In the layout they last 3000 ms (portal-core §9); elsewhere their own duration. */
export function Toaster({ duration }: { duration?: number }) {
  const { toast, info, hideToast, hideInfoToast } = useToasts();
  return (
    <div aria-live="polite" className="pointer-events-none fixed right-4 top-4 z-[60] flex w-[calc(100vw-2rem)] max-w-sm flex-col items-end gap-2">
      <ToastView t={toast} hide={hideToast} tone="normal" duration={duration ?? toast.duration} />
      <ToastView t={info} hide={hideInfoToast} tone="info" duration={duration ?? info.duration} />
    </div>
  );
}
