import { Switch as RadixSwitch } from 'radix-ui';
import { cn } from './cn.ts';

export type SwitchProps = {
  checked: boolean;
  onCheckedChange?: (checked: boolean) => void;
  /** the accessible name (a visible label is up to the caller) */
  label: string;
  disabled?: boolean;
  busy?: boolean;
  id?: string;
};

/** An on/off switch (Radix: a button with role switch, Space and Enter toggle it). */
export function Switch({ checked, onCheckedChange, label, disabled, busy, id }: SwitchProps) {
  return (
    <RadixSwitch.Root
      id={id}
      checked={checked}
      onCheckedChange={onCheckedChange}
      disabled={disabled || busy}
      aria-label={label}
      aria-busy={busy || undefined}
      className={cn(
        'relative inline-flex h-6 w-11 shrink-0 cursor-pointer items-center rounded-full border-2 border-transparent transition-colors',
        'data-[state=checked]:bg-brand-700 data-[state=unchecked]:bg-slate-300',
        'disabled:cursor-not-allowed disabled:opacity-50',
        busy && 'animate-pulse',
      )}
    >
      <RadixSwitch.Thumb className="pointer-events-none block size-5 rounded-full bg-white shadow ring-0 transition-transform data-[state=checked]:translate-x-5 data-[state=unchecked]:translate-x-0" />
    </RadixSwitch.Root>
  );
}
