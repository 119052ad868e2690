import { Download, RotateCcw } from 'lucide-react';
import { ACTIVE_REPORT_STATUSES, type ReportJob, type ReportStatus } from '@portal/contract/transactions';
import { Button } from '../../../components/ui/button.tsx';
import { StackBody, StackCell, StackHead, StackRow, StackTable, StackTh } from '../../../components/ui/stack-table.tsx';
import { StatusBadge } from '../../../components/ui/status-badge.tsx';
import { formatDate, formatCount, statusLabel } from '../../../lib/format.ts';
import { useT } from '../../../lib/i18n.ts';
import { reportsMessages, sourceName } from '../messages.ts';
import { expiryText, periodText } from '../report-times.ts';

const isActive = (status: ReportStatus) => ACTIVE_REPORT_STATUSES.includes(status);

type Props = {
  jobs: ReportJob[];
  now: number;
  onDownload: (job: ReportJob) => void;
  /** an expired or failed report, asked for again with the same data and period */
  onRequestAgain: (job: ReportJob) => void;
  requestingAgain: boolean;
};

function Progress({ job }: { job: ReportJob }) {
  const t = useT(reportsMessages);
  const share = job.totalPages ? Math.round((job.processedPages / job.totalPages) * 100) : 0;
  return (
    <div
      className="mt-1.5 w-32"
      role="progressbar"
      aria-label={t('list.progress', { status: statusLabel(job.status), processed: job.processedPages, total: job.totalPages })}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={share}
    >
      <div className="h-1.5 overflow-hidden rounded bg-canvas ring-1 ring-inset ring-line">
        <div className="h-full bg-brand-600 transition-all" style={{ width: `${Math.max(share, 5)}%` }} />
      </div>
    </div>
  );
}

/**
 * The reports of the partner: when and by whom each was asked for, its data and period (UTC days), its status as a
 * badge of the shared colours (with the build's progress), its rows, and when its file expires. A table from the
 * `sm` breakpoint, a card per report below it.
 */
export function ReportList({ jobs, now, onDownload, onRequestAgain, requestingAgain }: Props) {
  const t = useT(reportsMessages);
  return (
    <StackTable aria-label={t('list.label')}>
      <StackHead>
        <StackTh>{t('list.requested')}</StackTh>
        <StackTh>{t('list.data')}</StackTh>
        <StackTh>{t('list.period')}</StackTh>
        <StackTh>{t('list.status')}</StackTh>
        <StackTh className="text-right">{t('list.rows')}</StackTh>
        <StackTh>{t('list.expires')}</StackTh>
        <StackTh>
          <span className="sr-only">{t('list.action')}</span>
        </StackTh>
      </StackHead>
      <StackBody>
        {jobs.map((j) => {
          const expiry = expiryText(j, now);
          const data = sourceName(j.dataSource, t);
          const period = periodText(j.startDate, j.endDate);
          return (
            <StackRow key={j.id} data-testid="report-row">
              <StackCell label={t('list.requested')} wide className="order-4 sm:min-w-36">
                <p>{formatDate(j.createdAt)}</p>
                <p className="max-w-56 truncate text-xs text-muted" title={j.requestedByEmail}>
                  {j.requestedByEmail}
                </p>
              </StackCell>
              <StackCell label={t('list.data')} className="order-1">
                <p className="font-medium text-ink">{data}</p>
              </StackCell>
              <StackCell label={t('list.period')} wide className="order-3 sm:whitespace-nowrap">
                {period}
                <span className="block text-xs text-muted">{j.timeZone}</span>
              </StackCell>
              <StackCell label={t('list.status')} className="order-2">
                <StatusBadge status={j.status}>{statusLabel(j.status)}</StatusBadge>
                {isActive(j.status) && <Progress job={j} />}
              </StackCell>
              <StackCell label={t('list.rows')} className="order-5 tabular-nums sm:text-right">
                {j.rowCount == null ? '—' : formatCount(j.rowCount)}
              </StackCell>
              <StackCell label={t('list.expires')} className="order-6 sm:min-w-36" data-testid="report-expires">
                <p className={j.status === 'expired' ? 'text-muted' : undefined}>{expiry.main}</p>
                {expiry.sub && <p className="text-xs text-muted">{expiry.sub}</p>}
              </StackCell>
              <StackCell wide className="order-7 sm:text-right">
                {j.status === 'complete' && (
                  <Button
                    variant="secondary"
                    size="sm"
                    className="w-full sm:w-auto"
                    onClick={() => onDownload(j)}
                    aria-label={t('list.downloadLabel', { data, period })}
                  >
                    <Download className="size-4" aria-hidden="true" />
                    {t('list.download')}
                  </Button>
                )}
                {(j.status === 'expired' || j.status === 'failed') && (
                  <Button
                    variant="ghost"
                    size="sm"
                    className="w-full whitespace-nowrap sm:w-auto"
                    disabled={requestingAgain}
                    onClick={() => onRequestAgain(j)}
                    aria-label={t('list.againLabel', { data, period })}
                  >
                    <RotateCcw className="size-4" aria-hidden="true" />
                    {t('list.again')}
                  </Button>
                )}
              </StackCell>
            </StackRow>
          );
        })}
      </StackBody>
    </StackTable>
  );
}
