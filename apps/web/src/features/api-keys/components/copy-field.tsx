import { Check, Copy } from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';
import { useCopy } from '../../../components/ui/copy-button.tsx';
import { useT } from '../../../lib/i18n.ts';
import { apiKeysMessages } from '../messages.ts';

/**
 * A value to copy (a key id, a secret): shown in full in a monospace box, with a copy button that says it worked.
 * `copyLabel` names the button for assistive technology ("Copy secret key"): written whole, as each language words it.
 */
export function CopyField({
  label,
  copyLabel,
  value,
  testId,
  secret = false,
}: {
  label: string;
  copyLabel: string;
  value: string;
  testId: string;
  secret?: boolean;
}) {
  const t = useT(apiKeysMessages);
  const { copied, copy } = useCopy(value, label);
  return (
    <div>
      <p className="text-xs font-medium uppercase tracking-wide text-muted">{label}</p>
      <div className={`mt-1 flex items-center gap-2 rounded-lg border px-3 py-2 ${secret ? 'border-warning/30 bg-warning-soft/40' : 'border-line bg-canvas'}`}>
        <code data-testid={testId} className="min-w-0 flex-1 break-all font-mono text-[13px] leading-5">
          {value}
        </code>
        <Button variant="secondary" size="sm" aria-label={copyLabel} onClick={copy} className="shrink-0">
          {copied ? <Check className="size-4 text-success" aria-hidden="true" /> : <Copy className="size-4" aria-hidden="true" />}
          {copied ? t('copied') : t('copy')}
        </Button>
      </div>
    </div>
  );
}
