import { MAX_RESULT_WINDOW } from '@portal/contract/transactions';
import { Button } from '../../../components/ui/button.tsx';
import { PAGE_SIZE } from '../api/search.ts';
import { useT } from '../../../lib/i18n.ts';
import { transactionsMessages } from '../messages.ts';

type Props = {
  startIndex: number;
  /** rows on the page shown */
  shown: number;
  total: number;
  totalText: string;
  /** false until a first page arrived */
  loaded: boolean;
  busy: boolean;
  onPage: (startIndex: number) => void;
};

/**
 * "1–10 of 1,234" and Previous / Next by pages of 10; no page starts at or past the 10,000th row. The buttons are
 * never disabled under the keyboard's focus (a disabled button drops it to the page): one that cannot move says
 * so with aria-disabled and does nothing, so focus stays on the pager after Next or Previous.
 */
export function Pager({ startIndex, shown, total, totalText, loaded, busy, onPage }: Props) {
  const t = useT(transactionsMessages);
  const canBack = startIndex > 0 && !busy;
  const canForward = startIndex + PAGE_SIZE < Math.min(total, MAX_RESULT_WINDOW) && !busy;
  const off = 'aria-disabled:cursor-not-allowed aria-disabled:text-muted aria-disabled:hover:bg-white';
  return (
    <nav aria-label={t('pager.label')} className="flex items-center justify-between gap-3 px-4 py-3 text-sm">
      <p className="text-muted tabular-nums" data-testid="page-summary" aria-live="polite">
        {loaded && total > 0 ? t('pager.summary', { from: startIndex + 1, to: startIndex + shown, total: totalText }) : ' '}
      </p>
      <div className="flex gap-2">
        <Button variant="secondary" size="sm" className={off} aria-disabled={!canBack} onClick={() => canBack && onPage(Math.max(0, startIndex - PAGE_SIZE))}>
          {t('pager.previous')}
        </Button>
        <Button variant="secondary" size="sm" className={off} aria-disabled={!canForward} onClick={() => canForward && onPage(startIndex + PAGE_SIZE)}>
          {t('pager.next')}
        </Button>
      </div>
    </nav>
  );
}
