import { Download, FileText } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { inputClass } from '../../../components/ui/field.tsx';
import { apiDownload } from '../../../lib/api-client.ts';
import { downloadBlob, downloadText } from '../../../lib/download.ts';
import { useT } from '../../../lib/i18n.ts';
import { balanceMessages } from '../messages.ts';

const today = () => new Date().toISOString().slice(0, 10);

/**
 * The USD statement of whole UTC days, as CSV (for a spreadsheet) or PDF (to read and file): opening balance, each
 * entry with its running balance, closing balance.
 */
export function StatementDownload() {
  const t = useT(balanceMessages);
  const [from, setFrom] = useState(() => `${today().slice(0, 8)}01`);
  const [to, setTo] = useState(today);
  const [busy, setBusy] = useState<'csv' | 'pdf'>();
  const [error, setError] = useState<string>();
  const download = async (format: 'csv' | 'pdf') => {
    setBusy(format);
    setError(undefined);
    try {
      const blob = await apiDownload(`partner/balance/statement.${format}?from=${from}&to=${to}`);
      const name = `${t('statement.fileName')}-USD-${from}-${to}.${format}`;
      if (format === 'csv') downloadText(name, await blob.text(), 'text/csv;charset=utf-8');
      else downloadBlob(name, new Blob([blob], { type: 'application/pdf' }));
    } catch (err) {
      setError(err instanceof Error ? err.message : t('statement.failed'));
    } finally {
      setBusy(undefined);
    }
  };
  return (
    <Card className="mt-4 p-4 sm:p-6">
      <p className="text-sm font-semibold">{t('statement.title')}</p>
      <p className="mt-0.5 text-xs text-muted">{t('statement.body')}</p>
      <div className="mt-3 flex flex-wrap items-end gap-3">
        <label className="space-y-1 text-sm">
          <span className="block font-medium">{t('statement.from')}</span>
          <input type="date" className={inputClass} value={from} max={to} onChange={(e) => setFrom(e.target.value)} />
        </label>
        <label className="space-y-1 text-sm">
          <span className="block font-medium">{t('statement.to')}</span>
          <input type="date" className={inputClass} value={to} min={from} onChange={(e) => setTo(e.target.value)} />
        </label>
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" onClick={() => void download('csv')} loading={busy === 'csv'} disabled={!from || !to || busy !== undefined}>
            <Download className="size-4" aria-hidden="true" />
            {t('statement.csv')}
          </Button>
          <Button variant="secondary" onClick={() => void download('pdf')} loading={busy === 'pdf'} disabled={!from || !to || busy !== undefined}>
            <FileText className="size-4" aria-hidden="true" />
            {t('statement.pdf')}
          </Button>
        </div>
      </div>
      {error && (
        <p role="alert" className="mt-3 text-sm text-danger">
          {error}
        </p>
      )}
    </Card>
  );
}
