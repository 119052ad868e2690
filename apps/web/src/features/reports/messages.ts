import type { SearchTable } from '@portal/contract/transactions';
import en from '../../locales/en/reports.json';
import { defineMessages, translator } from '../../lib/i18n.ts';

/** The data download screen's texts: the request form, the reports' list and their expiry. */
export const reportsMessages = defineMessages('reports', en);

/** A report's data (a table) by name, in the language in force: "Payments", "Paiements". */
export const sourceName = (table: SearchTable, t = translator(reportsMessages)): string => t(`source.${table}`);
