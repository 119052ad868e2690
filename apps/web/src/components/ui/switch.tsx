import { cn } from './cn.ts';

export type SwitchProps = {
  checked: boolean;
  onCheckedChange?: (checked: boolean) => void;
  /** the accessible name (a visible label is up to the caller) */
  label: string;
  disabled?: boolean;
  busy?: boolean;
  id?: string;
  /** `dark`: on a dark ground (the side bar), amber when on */
  tone?: 'default' | 'dark';
};

const TONES = {
  default: 'data-[state=checked]:bg-brand-700 data-[state=unchecked]:bg-slate-300',
  dark: 'data-[state=checked]:bg-amber-400 data-[state=unchecked]:bg-white/30',
};

/**
 * An on/off switch: a button with role switch (Space and Enter press it, as any button). A plain button rather than
 * Radix's: that one measures itself in a layout effect and sets state from it, which forces a layout and an extra
 * render in the commit of every screen that shows switches.
 */
export function Switch({ checked, onCheckedChange, label, disabled, busy, id, tone = 'default' }: SwitchProps) {
  const state = checked ? 'checked' : 'unchecked';
  return (
    <button
      type="button"
      role="switch"
      id={id}
      aria-checked={checked}
      aria-label={label}
      aria-busy={busy || undefined}
      data-state={state}
      disabled={disabled || busy}
      onClick={() => onCheckedChange?.(!checked)}
      className={cn(
        'relative inline-flex h-6 w-11 shrink-0 cursor-pointer items-center rounded-full border-2 border-transparent transition-colors',
        TONES[tone],
        'disabled:cursor-not-allowed disabled:opacity-50',
        busy && 'animate-pulse',
      )}
    >
      <span
        data-state={state}
        className="pointer-events-none block size-5 rounded-full bg-white shadow ring-0 transition-transform data-[state=checked]:translate-x-5 data-[state=unchecked]:translate-x-0"
      />
    </button>
  );
}
