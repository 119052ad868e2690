import { useState } from 'react';
import { dayInZone } from '@portal/contract/time-zone';
import { MAX_EXPORT_ROWS, type SearchQuery } from '@portal/contract/transactions';
import { toast } from '../../../components/ui/toast-store.ts';
import { downloadText } from '../../../lib/download.ts';
import { translator } from '../../../lib/i18n.ts';
import { fetchAll } from '../api/search.ts';
import { buildCsv, cleanRows } from '../export.ts';
import { transactionsMessages } from '../messages.ts';
import type { TableDef } from './use-transaction-search.ts';

export type ExportProgress = { loaded: number; of: number };

/**
 * The CSV export of what the filters show (transaction-data §7): every row of the query, up to 10,000, with its
 * progress; the file is named after the table and the day, its times in the zone of the query (the file keeps its
 * machine form in every language). A failure shows as a toast, in the language in force.
 */
export function useCsvExport(def: TableDef, walletMode: boolean) {
  const [progress, setProgress] = useState<ExportProgress>();

  async function start(query: SearchQuery, total: number) {
    setProgress({ loaded: 0, of: Math.min(total, MAX_EXPORT_ROWS) });
    try {
      const all = await fetchAll(query, total, (loaded, of) => setProgress({ loaded, of }));
      const zone = query.timeZone ?? 'UTC';
      const file = buildCsv(def.key, cleanRows(def.key, all), walletMode, zone);
      downloadText(`${def.key}-${dayInZone(Date.now(), zone)}.csv`, file, 'text/csv;charset=utf-8');
    } catch {
      // the rows' fetch says what failed in the console (api/search.ts); the reader is told it in their language
      toast.show(translator(transactionsMessages)('export.failed'));
    } finally {
      setProgress(undefined);
    }
  }

  return { progress, start };
}
