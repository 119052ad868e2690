import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FileText } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import {
  ACTIVE_REPORT_STATUSES,
  ListReportsResponse,
  ReportJobResponse,
  type ReportJob,
  type ReportStatus,
  type SearchTable,
} from '@portal/contract/transactions';
import { dayInZone } from '@portal/contract/time-zone';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { inputClass } from '../../../components/ui/field.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { SearchableSelect } from '../../../components/ui/searchable-select.tsx';
import { LoadingBlock } from '../../../components/ui/spinner.tsx';
import { toast } from '../../../components/ui/toast-store.ts';
import { api, apiDownload } from '../../../lib/api-client.ts';
import { displayTimeZone } from '../../../lib/format.ts';
import { translator, useT } from '../../../lib/i18n.ts';
import { ReportList } from '../components/report-list.tsx';
import { reportsMessages, sourceName } from '../messages.ts';

/** The four B2B tables a report can be made of. */
const SOURCES = ['payments', 'collections', 'settlements', 'fees', 'all'] as const satisfies readonly SearchTable[];
const isActive = (status: ReportStatus) => ACTIVE_REPORT_STATUSES.includes(status);

/** A day from today in the zone the portal shows (UTC unless the user chose theirs). */
const isoDay = (offset: number) => dayInZone(Date.now() + offset * 86400_000, displayTimeZone());

async function save(job: ReportJob) {
  const blob = await apiDownload(job.downloadURL!.replace(/^\/api\/v1\//, ''));
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = `${job.dataSource}-${job.startDate}-to-${job.endDate}.csv`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The clock the expiry times count from, moved every minute. */
function useMinuteClock() {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

type ReportInput = Pick<ReportJob, 'dataSource' | 'startDate' | 'endDate' | 'filters' | 'timeZone'>;

export function DataDownloadScreen() {
  const t = useT(reportsMessages);
  const qc = useQueryClient();
  const [dataSource, setDataSource] = useState<SearchTable>('payments');
  const [startDate, setStartDate] = useState(isoDay(-30));
  const [endDate, setEndDate] = useState(isoDay(0));
  const [error, setError] = useState<string>();
  const now = useMinuteClock();
  const jobs = useQuery({
    queryKey: ['report-jobs'],
    queryFn: () => api.post('report-jobs', { startIndex: 0, size: 50 }, { schema: ListReportsResponse, idempotent: true }),
    // while a report is being built, its progress updates by itself
    refetchInterval: (q) => (q.state.data?.jobs.some((j) => isActive(j.status)) ? 1500 : false),
  });
  const create = useMutation({
    mutationFn: (input: ReportInput) => api.post('report-jobs/create', input, { schema: ReportJobResponse }),
    onSuccess: () => {
      toast.show(translator(reportsMessages)('requested'));
      void qc.invalidateQueries({ queryKey: ['report-jobs'] });
    },
    onError: (err) => setError(err.message),
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    create.mutate({ dataSource, startDate, endDate, filters: {}, timeZone: displayTimeZone() });
  };
  const requestAgain = (job: ReportJob) => {
    setError(undefined);
    create.mutate({ dataSource: job.dataSource, startDate: job.startDate, endDate: job.endDate, filters: job.filters, timeZone: job.timeZone });
  };

  return (
    <div>
      <PageHeader title={t('title')} description={t('description', { zone: displayTimeZone() })} />
      <Card className="mb-6 p-5">
        <form onSubmit={submit} className="flex flex-col gap-3 sm:flex-row sm:items-end" noValidate>
          <div className="sm:w-48">
            <p className="mb-1 text-xs font-medium text-muted">{t('form.data')}</p>
            <SearchableSelect
              label={t('form.data')}
              options={SOURCES.map((value) => ({ value, label: sourceName(value, t) }))}
              value={dataSource}
              onChange={(v) => setDataSource(v as SearchTable)}
            />
          </div>
          <label className="flex flex-col gap-1 text-xs font-medium text-muted">
            {t('form.from', { zone: displayTimeZone() })}
            <input type="date" className={cn(inputClass, 'sm:w-44')} value={startDate} onChange={(e) => setStartDate(e.target.value)} />
          </label>
          <label className="flex flex-col gap-1 text-xs font-medium text-muted">
            {t('form.to', { zone: displayTimeZone() })}
            <input type="date" className={cn(inputClass, 'sm:w-44')} value={endDate} onChange={(e) => setEndDate(e.target.value)} />
          </label>
          <Button type="submit" loading={create.isPending}>
            {t('form.request')}
          </Button>
        </form>
        {error && (
          <Alert tone="danger" className="mt-3">
            {error}
          </Alert>
        )}
      </Card>
      <Card>
        {jobs.isPending ? (
          <LoadingBlock label={t('loading')} />
        ) : !jobs.data?.jobs.length ? (
          <div className="flex flex-col items-center gap-2 px-6 py-14 text-center">
            <FileText className="size-8 text-brand-700" aria-hidden="true" />
            <p className="font-semibold">{t('empty.title')}</p>
            <p className="text-sm text-muted">{t('empty.body')}</p>
          </div>
        ) : (
          <ReportList
            jobs={jobs.data.jobs}
            now={now}
            onDownload={(j) => void save(j).catch((err: Error) => toast.show(err.message))}
            onRequestAgain={requestAgain}
            requestingAgain={create.isPending}
          />
        )}
      </Card>
    </div>
  );
}
