import { z } from 'zod';

/** The tables of transaction-data §1: four B2B tabs, trades and initiated payments for commercial partners. */
export const SEARCH_TABLES = ['payments', 'collections', 'settlements', 'fees', 'trades', 'initiate-payments'] as const;
export const SearchTable = z.enum(SEARCH_TABLES);
export type SearchTable = z.infer<typeof SearchTable>;

export const FILTER_KEYS = ['status', 'country', 'transactionType', 'paymentMethod', 'requestSource', 'cryptoCurrency', 'fiatCurrency', 'currency', 'localCurrency'] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];

/** The filter set of each table (transaction-data §7); other keys add no condition. */
export const TABLE_FILTERS: Record<SearchTable, readonly FilterKey[]> = {
  trades: ['country', 'cryptoCurrency', 'fiatCurrency'],
  payments: ['status', 'country'],
  collections: ['status', 'country', 'requestSource'],
  settlements: ['status'],
  fees: ['paymentMethod', 'transactionType'],
  'initiate-payments': ['localCurrency', 'status'],
};

/** Filters whose value is compared lower-cased. */
export const LOWERCASED_FILTERS: readonly FilterKey[] = ['status', 'transactionType', 'paymentMethod', 'requestSource'];

export const MAX_RESULT_WINDOW = 10_000;
export const MAX_PAGE_SIZE = 6_000;
export const MAX_SCROLL_SIZE = 2_500;
export const MAX_EXPORT_ROWS = 10_000;
export const SCROLL_KEEP_ALIVE_SECONDS = 120;

const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD');

const QueryFields = {
  table: SearchTable,
  filters: z.record(z.string(), z.string().max(100)).default({}),
  idFilter: z.string().max(200).default(''),
  range: z.object({ startDate: Day.or(z.literal('')).optional(), endDate: Day.or(z.literal('')).optional() }).default({}),
  fiatWallet: z.string().max(20).default('all'),
};

export const SearchRequest = z
  .object({
    ...QueryFields,
    startIndex: z.number().int().min(0).default(0),
    size: z.number().int().min(1).max(MAX_PAGE_SIZE).default(10),
  })
  .strict()
  .refine((r) => r.startIndex + r.size <= MAX_RESULT_WINDOW, { message: `startIndex + size must be at most ${MAX_RESULT_WINDOW}`, path: ['startIndex'] });
export type SearchRequest = z.infer<typeof SearchRequest>;
export type SearchQuery = Omit<SearchRequest, 'startIndex' | 'size'>;

export const SearchResponse = z.object({
  data: z.array(z.record(z.string(), z.unknown())),
  total: z.number().int(),
  /** eq: exact; gte: at least `total` (10,000), as Elasticsearch reports large totals */
  totalRelation: z.enum(['eq', 'gte']),
});
export type SearchResponse = z.infer<typeof SearchResponse>;

export const ScrollRequest = z
  .object({
    ...QueryFields,
    scrollSize: z.number().int().min(1).max(MAX_SCROLL_SIZE).default(MAX_SCROLL_SIZE),
    scrollId: z.string().max(4000).optional(),
  })
  .strict();
export const ScrollResponse = z.object({ scrollId: z.string().nullable(), hits: z.array(z.record(z.string(), z.unknown())) });

/** The id search text keeps hex digits and hyphens only (transaction-data §5). */
export const cleanIdFilter = (text: string) => text.replace(/[^0-9a-fA-F-]/g, '');

/**
 * How an id search matches: under 9 characters a prefix; 36 or more the whole id; otherwise the first 8
 * characters (transaction-data §5).
 */
export function idMatch(text: string): { kind: 'none' } | { kind: 'prefix'; prefix: string } | { kind: 'exact'; id: string } {
  const cleaned = cleanIdFilter(text).toLowerCase();
  if (cleaned.length === 0) return { kind: 'none' };
  if (cleaned.length >= 36) return { kind: 'exact', id: cleaned.slice(0, 36) };
  const head = cleaned.length < 9 ? cleaned : cleaned.slice(0, 8);
  return { kind: 'prefix', prefix: head.replace(/-/g, '') };
}

export const REPORT_STATUSES = ['requested', 'in_progress', 'data_downloaded', 'complete', 'expired', 'failed'] as const;
export const ReportStatus = z.enum(REPORT_STATUSES);
/** A report may span up to a year. */
export const MAX_REPORT_DAYS = 366;

export const CreateReportRequest = z
  .object({
    dataSource: SearchTable,
    startDate: Day,
    endDate: Day,
    filters: z.record(z.string(), z.string().max(100)).default({}),
    fiatWallet: z.string().max(20).default('all'),
  })
  .strict();

/** The report job entity of transaction-data §3. */
export const ReportJob = z.object({
  id: z.string().uuid(),
  partnerId: z.string().uuid(),
  status: ReportStatus,
  requestedByEmail: z.string(),
  requestedById: z.string().uuid(),
  startDate: z.string(),
  endDate: z.string(),
  dataSource: SearchTable,
  filters: z.record(z.string(), z.string()),
  expiresAt: z.string().nullable(),
  downloadURL: z.string().nullable(),
  totalPages: z.number().int(),
  processedPages: z.number().int(),
  rowCount: z.number().int().nullable(),
  createdAt: z.string(),
});
export type ReportJob = z.infer<typeof ReportJob>;
export const ReportJobResponse = z.object({ job: ReportJob });
export const ListReportsRequest = z.object({ startIndex: z.number().int().min(0).default(0), size: z.number().int().min(1).max(100).default(20) }).strict();
export const ListReportsResponse = z.object({ jobs: z.array(ReportJob), total: z.number().int() });
