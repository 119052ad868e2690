import { useState } from 'react';
import { dayInZone } from '@portal/contract/time-zone';
import { MAX_EXPORT_ROWS, type SearchQuery } from '@portal/contract/transactions';
import { toast } from '../../../components/ui/toast-store.ts';
import { downloadText } from '../../../lib/download.ts';
import { fetchAll } from '../api/search.ts';
import { buildCsv, cleanRows } from '../export.ts';
import type { TableDef } from './use-transaction-search.ts';

export type ExportProgress = { loaded: number; of: number };

/**
 * The CSV export of what the filters show (transaction-data §7): every row of the query, up to 10,000, with its
 * progress; the file is named after the table and the day, its times in the zone of the query. A failure shows its message as a toast.
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
    } catch (err) {
      toast.show(err instanceof Error ? err.message : 'encountered error retrieving all data');
    } finally {
      setProgress(undefined);
    }
  }

  return { progress, start };
}
