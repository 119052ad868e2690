import { Search } from 'lucide-react';
import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';
import { cn } from './cn.ts';
import { localizeMessage } from '../../lib/i18n.ts';

export const inputClass =
  'block h-10 w-full rounded-lg border border-line bg-white px-3 text-sm text-ink placeholder:text-muted/70 ' +
  'focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/20 disabled:bg-canvas disabled:text-muted ' +
  'aria-[invalid=true]:border-danger';

export type TextFieldProps = InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  error?: string;
  hint?: ReactNode;
  trailing?: ReactNode;
  /** the input itself (react-hook-form's register passes one) */
  ref?: Ref<HTMLInputElement>;
  /** more elements that describe the input (rules shown beside it) */
  describedBy?: string;
};

/** A labelled input with its hint and error wired for assistive technology. */
export function TextField({ label, error, hint, trailing, id, className, describedBy: more, ...rest }: TextFieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const describedBy = [error ? `${inputId}-error` : null, hint && !error ? `${inputId}-hint` : null, more].filter(Boolean).join(' ') || undefined;
  return (
    <div className={cn('space-y-1.5', className)}>
      <div className="flex items-center justify-between">
        <label htmlFor={inputId} className="text-sm font-medium text-ink">
          {label}
        </label>
        {trailing}
      </div>
      <input id={inputId} className={inputClass} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...rest} />
      {hint && !error && (
        <div id={`${inputId}-hint`} className="text-xs text-muted">
          {hint}
        </div>
      )}
      {error && (
        <p id={`${inputId}-error`} className="text-xs text-danger" role="alert">
          {/* a form's check speaks the contract's English: shown in the language in force */}
          {localizeMessage(error)}
        </p>
      )}
    </div>
  );
}

/** A search box with its magnifier, named by `label` (its placeholder says what it finds); `className` places it. */
export function SearchField({
  label,
  placeholder,
  value,
  onChange,
  className,
}: {
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  className: string;
}) {
  return (
    <div className={cn('relative', className)}>
      <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted" aria-hidden="true" />
      <input
        type="search"
        className={cn(inputClass, 'pl-9')}
        placeholder={placeholder}
        aria-label={label}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}
