import { Download, RotateCcw } from 'lucide-react';
import { ACTIVE_REPORT_STATUSES, type ReportJob, type ReportStatus } from '@portal/contract/transactions';
import { statusLabel, titleCase } from '@portal/contract/labels';
import { Button } from '../../../components/ui/button.tsx';
import { StackBody, StackCell, StackHead, StackRow, StackTable, StackTh } from '../../../components/ui/stack-table.tsx';
import { StatusBadge } from '../../../components/ui/status-badge.tsx';
import { formatDate, formatCount } from '../../../lib/format.ts';
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
  const share = job.totalPages ? Math.round((job.processedPages / job.totalPages) * 100) : 0;
  return (
    <div
      className="mt-1.5 w-32"
      role="progressbar"
      aria-label={`${statusLabel(job.status)}: ${job.processedPages} of ${job.totalPages} pages`}
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
  return (
    <StackTable aria-label="Reports">
      <StackHead>
        <StackTh>Requested</StackTh>
        <StackTh>Data</StackTh>
        <StackTh>Period</StackTh>
        <StackTh>Status</StackTh>
        <StackTh className="text-right">Rows</StackTh>
        <StackTh>Expires</StackTh>
        <StackTh>
          <span className="sr-only">Action</span>
        </StackTh>
      </StackHead>
      <StackBody>
        {jobs.map((j) => {
          const expiry = expiryText(j, now);
          return (
            <StackRow key={j.id} data-testid="report-row">
              <StackCell label="Requested" wide className="order-4 sm:min-w-36">
                <p>{formatDate(j.createdAt)}</p>
                <p className="max-w-56 truncate text-xs text-muted" title={j.requestedByEmail}>
                  {j.requestedByEmail}
                </p>
              </StackCell>
              <StackCell label="Data" className="order-1">
                <p className="font-medium text-ink">{titleCase(j.dataSource)}</p>
              </StackCell>
              <StackCell label="Period" wide className="order-3 sm:whitespace-nowrap">
                {periodText(j.startDate, j.endDate)}
                <span className="block text-xs text-muted">{j.timeZone}</span>
              </StackCell>
              <StackCell label="Status" className="order-2">
                <StatusBadge status={j.status}>{statusLabel(j.status)}</StatusBadge>
                {isActive(j.status) && <Progress job={j} />}
              </StackCell>
              <StackCell label="Rows" className="order-5 tabular-nums sm:text-right">
                {j.rowCount == null ? '—' : formatCount(j.rowCount)}
              </StackCell>
              <StackCell label="Expires" className="order-6 sm:min-w-36" data-testid="report-expires">
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
                    aria-label={`Download ${titleCase(j.dataSource)} ${periodText(j.startDate, j.endDate)}`}
                  >
                    <Download className="size-4" aria-hidden="true" />
                    Download
                  </Button>
                )}
                {(j.status === 'expired' || j.status === 'failed') && (
                  <Button
                    variant="ghost"
                    size="sm"
                    className="w-full whitespace-nowrap sm:w-auto"
                    disabled={requestingAgain}
                    onClick={() => onRequestAgain(j)}
                    aria-label={`Request ${titleCase(j.dataSource)} ${periodText(j.startDate, j.endDate)} again`}
                  >
                    <RotateCcw className="size-4" aria-hidden="true" />
                    Request again
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
