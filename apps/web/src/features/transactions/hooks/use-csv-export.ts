import { useState } from 'react';
import { MAX_EXPORT_ROWS, type SearchQuery } from '@portal/contract/transactions';
import { toast } from '../../../components/ui/toast-store.ts';
import { fetchAll } from '../api/search.ts';
import { buildCsv, cleanRows } from '../export.ts';
import type { TableDef } from './use-transaction-search.ts';

export type ExportProgress = { loaded: number; of: number };

function download(name: string, csv: string) {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * The CSV export of what the filters show (transaction-data §7): every row of the query, up to 10,000, with its
 * progress; the file is named after the table and the day. A failure shows its message as a toast.
 */
export function useCsvExport(def: TableDef, walletMode: boolean) {
  const [progress, setProgress] = useState<ExportProgress>();

  async function start(query: SearchQuery, total: number) {
    setProgress({ loaded: 0, of: Math.min(total, MAX_EXPORT_ROWS) });
    try {
      const all = await fetchAll(query, total, (loaded, of) => setProgress({ loaded, of }));
      download(`${def.key}-${new Date().toISOString().slice(0, 10)}.csv`, buildCsv(def.key, cleanRows(def.key, all), walletMode));
    } catch (err) {
      toast.show(err instanceof Error ? err.message : 'encountered error retrieving all data');
    } finally {
      setProgress(undefined);
    }
  }

  return { progress, start };
}
