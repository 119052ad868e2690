import { z } from 'zod';
import { ROW_SCHEMAS, type TransactionRowOf } from './transaction-rows.ts';
import { CalendarDate, safeText } from './validation.ts';
import { TimeZoneName } from './time-zone.ts';

/** The tables of transaction-data §1: four B2B tabs, trades and initiated payments for commercial partners. */
export const SEARCH_TABLES = ['payments', 'collections', 'settlements', 'fees', 'trades', 'initiate-payments', 'all'] as const;
export const SearchTable = z.enum(SEARCH_TABLES);
export type SearchTable = z.infer<typeof SearchTable>;

export const FILTER_KEYS = [
  'status',
  'country',
  'transactionType',
  'paymentMethod',
  'requestSource',
  'cryptoCurrency',
  'fiatCurrency',
  'currency',
  'localCurrency',
  'amount',
] as const;
export const FilterKey = z.enum(FILTER_KEYS);
export type FilterKey = (typeof FILTER_KEYS)[number];

/** The filter set of each table (transaction-data §7); other keys add no condition. */
export const TABLE_FILTERS: Record<SearchTable, readonly FilterKey[]> = {
  trades: ['country', 'cryptoCurrency', 'fiatCurrency', 'amount'],
  payments: ['status', 'country'],
  collections: ['status', 'country', 'requestSource'],
  settlements: ['status'],
  fees: ['paymentMethod', 'transactionType'],
  'initiate-payments': ['localCurrency', 'status'],
  // the combined table: payments and collections together (transaction-data §3)
  all: ['country', 'status', 'paymentMethod', 'transactionType', 'requestSource'],
};

/** Filters whose value is compared lower-cased. */
export const LOWERCASED_FILTERS: readonly FilterKey[] = ['status', 'transactionType', 'paymentMethod', 'requestSource'];

export const MAX_RESULT_WINDOW = 10_000;
export const MAX_PAGE_SIZE = 6_000;
export const MAX_SCROLL_SIZE = 2_500;
export const MAX_EXPORT_ROWS = 10_000;
export const SCROLL_KEEP_ALIVE_SECONDS = 120;

/**
 * The Amount filter of trades (transaction-data §3): the trade's crypto amount from the first number (included) to
 * the second (excluded), no upper bound when the second is missing. The portal offers these ranges; the request
 * takes any "min-max" of whole numbers.
 */
export const TRADE_AMOUNT_RANGES = ['0-1000', '1000-5000', '5000-10000', '10000-'] as const;
export const AMOUNT_RANGE = /^(\d{1,15})-(\d{1,15})?$/;

/**
 * Selected filters by key (transaction-data §3 "filter category": an empty value means none). Keys outside the
 * list are refused; a key outside the table's set adds no condition (§7). Shared by the search and report requests.
 */
export const Filters = z
  // a status filter may list several statuses, separated by commas (status-groups.ts)
  .partialRecord(FilterKey, safeText({ max: 600 }))
  .refine((f) => !f.amount || AMOUNT_RANGE.test(f.amount), { message: 'Choose an amount range such as 1000-5000', path: ['amount'] });

/** A date range whose end is before its start (the search and the report requests say the same). */
export const REVERSED_RANGE_MESSAGE = 'The end date must be on or after the start date.';
/** The fiat wallet to show, or 'all' (transaction-data §3). */
export const FiatWalletChoice = safeText({ max: 20 });

const QueryFields = {
  table: SearchTable,
  filters: Filters.default({}),
  idFilter: safeText({ max: 200 }).default(''),
  range: z
    .object({ startDate: CalendarDate.or(z.literal('')).optional(), endDate: CalendarDate.or(z.literal('')).optional() })
    .strict()
    .default({}),
  fiatWallet: FiatWalletChoice.default('all'),
  /** the zone whose calendar days the date range means (default UTC) */
  timeZone: TimeZoneName.optional(),
};

/**
 * A keyset hint (optional; the page is still the one at startIndex): a row the client was shown for the same search
 * and its position in it, e.g. the last row of the page before for Next, or the first row of the page after for
 * Previous. The server then reads the page from that row instead of skipping startIndex rows, so a deep page costs
 * what the first one costs. It is used only when that row is a row of this search (the caller's partner, every
 * filter, the same createdAt to the millisecond); otherwise it is ignored and the page is found by its startIndex.
 */
export const SearchAnchor = z
  .object({
    index: z
      .number()
      .int()
      .min(0)
      .max(MAX_RESULT_WINDOW - 1),
    createdAt: z.iso.datetime(),
    id: z.guid(),
  })
  .strict();
export type SearchAnchor = z.infer<typeof SearchAnchor>;

export const SearchRequest = z
  .object({
    ...QueryFields,
    startIndex: z.number().int().min(0).default(0),
    size: z.number().int().min(1).max(MAX_PAGE_SIZE).default(10),
    anchor: SearchAnchor.optional(),
  })
  .strict()
  .refine((r) => r.startIndex + r.size <= MAX_RESULT_WINDOW, { message: `startIndex + size must be at most ${MAX_RESULT_WINDOW}`, path: ['startIndex'] });
export type SearchRequest = z.infer<typeof SearchRequest>;
export type SearchQuery = Omit<SearchRequest, 'startIndex' | 'size' | 'anchor'>;

const searchPage = <T extends SearchTable>(table: T) =>
  z.object({
    /** the table that was searched: which row schema `data` follows */
    table: z.literal(table),
    data: z.array(ROW_SCHEMAS[table]),
    total: z.number().int(),
    /** eq: exact; gte: at least `total` (10,000), as Elasticsearch reports large totals */
    totalRelation: z.enum(['eq', 'gte']),
  });

/** A page of one table, its rows typed by the table that was asked for. */
export const SearchResponse = z.discriminatedUnion('table', [
  searchPage('payments'),
  searchPage('collections'),
  searchPage('settlements'),
  searchPage('fees'),
  searchPage('trades'),
  searchPage('initiate-payments'),
  searchPage('all'),
]);
export type SearchResponse = z.infer<typeof SearchResponse>;
export type SearchResponseOf<T extends SearchTable> = Extract<SearchResponse, { table: T }>;
export type { TransactionRowOf };

export const ScrollRequest = z
  .object({
    ...QueryFields,
    scrollSize: z.number().int().min(1).max(MAX_SCROLL_SIZE).default(MAX_SCROLL_SIZE),
    scrollId: safeText({ max: 4000 }).optional(),
  })
  .strict();
export type ScrollRequest = z.infer<typeof ScrollRequest>;

const scrollBatch = <T extends SearchTable>(table: T) =>
  z.object({
    /** the table being exported (the one of the first call: a scroll id carries its query) */
    table: z.literal(table),
    scrollId: z.string().nullable(),
    hits: z.array(ROW_SCHEMAS[table]),
  });

/** A batch of an export, its rows typed by the table. */
export const ScrollResponse = z.discriminatedUnion('table', [
  scrollBatch('payments'),
  scrollBatch('collections'),
  scrollBatch('settlements'),
  scrollBatch('fees'),
  scrollBatch('trades'),
  scrollBatch('initiate-payments'),
  scrollBatch('all'),
]);
export type ScrollResponse = z.infer<typeof ScrollResponse>;
export type ScrollResponseOf<T extends SearchTable> = Extract<ScrollResponse, { table: T }>;

/** One transaction of a table by its id (the partner API's `GET transactions/{table}/{id}`). */
export const TransactionParams = z.object({ table: SearchTable, id: z.guid() });
const oneRow = <T extends SearchTable>(table: T) => z.object({ table: z.literal(table), data: ROW_SCHEMAS[table] });
export const TransactionResponse = z.discriminatedUnion('table', [
  oneRow('payments'),
  oneRow('collections'),
  oneRow('settlements'),
  oneRow('fees'),
  oneRow('trades'),
  oneRow('initiate-payments'),
  oneRow('all'),
]);
export type TransactionResponse = z.infer<typeof TransactionResponse>;

/**
 * The id a table shows, searched as the person sees it. Trades show their trade id (`TRD-5F41110478`); the other
 * tables show the transaction's id (a uuid, `3f2a9c1e-7d41-4c2b-9a5e-0b6f2d8c1a73`, possibly cut to its start).
 * Case does not matter; spaces around are trimmed; a trailing ellipsis (an id the table cut short) is dropped.
 *
 * - `uuid`: the first `hex.length` hex digits of the id (1 to 32; 32 is the whole id). Hyphens may be typed where
 *   the id has them, or left out.
 * - `tradeId`: trade ids starting with `prefix` (`TRD-5F41`, up to the whole `TRD-5F41110478`); `TRD-` may be left
 *   out. A trade's uuid (the partner API's `id`) finds it too, when given whole.
 *
 * Text that cannot be (the start of) an id the table shows is refused with `message`, by the portal before it sends
 * and by the server (400 `InvalidIdSearch`, the same message): nothing is silently cleaned into another search.
 */
export type IdSearch = { kind: 'none' } | { kind: 'uuid'; hex: string } | { kind: 'tradeId'; prefix: string };
export type IdSearchResult = { ok: true; search: IdSearch } | { ok: false; message: string };

/** The shape of an id each table shows, for the search box's placeholder and the refusal. */
export const ID_SEARCH_EXAMPLE: Record<SearchTable, string> = {
  payments: '3f2a9c1e',
  collections: '3f2a9c1e',
  settlements: '3f2a9c1e',
  fees: '3f2a9c1e',
  'initiate-payments': '3f2a9c1e',
  all: '3f2a9c1e',
  trades: 'TRD-5F41110478',
};
export const TRADE_ID_PREFIX = 'TRD-';
/** Hex digits after TRD- in a trade id. */
export const TRADE_ID_DIGITS = 10;

export const idSearchMessage = (table: SearchTable) =>
  table === 'trades'
    ? `Enter a trade ID as the table shows it, or its first characters, like ${ID_SEARCH_EXAMPLE.trades}.`
    : `Enter an ID as the table shows it, or its first characters: digits, letters a to f and hyphens, like ${ID_SEARCH_EXAMPLE[table]}.`;

// the start of an 8-4-4-4-12 id with its hyphens, or up to 32 hex digits without them
const UUID_START = /^(?:[0-9a-f]{1,8}|[0-9a-f]{8}-(?:[0-9a-f]{0,4}|[0-9a-f]{4}-(?:[0-9a-f]{0,4}|[0-9a-f]{4}-(?:[0-9a-f]{0,4}|[0-9a-f]{4}-[0-9a-f]{0,12}))))$/;
const HEX_ONLY = /^[0-9a-f]{1,32}$/;
const TRADE_ID_START = new RegExp(`^(?:${TRADE_ID_PREFIX.slice(0, -1).toLowerCase()}-?)?([0-9a-f]{0,${TRADE_ID_DIGITS}})$`);

/** The uuid hex digits of a text that is the start of an id, or undefined. */
function uuidHex(text: string): string | undefined {
  if (HEX_ONLY.test(text) || UUID_START.test(text)) return text.replace(/-/g, '');
  return undefined;
}

/** What an id search of a table looks for, or why the text cannot be an id there. */
export function parseIdSearch(table: SearchTable, input: string): IdSearchResult {
  const text = input
    .trim()
    .replace(/(?:…|\.\.\.)$/, '')
    .trim()
    .toLowerCase();
  if (text === '') return { ok: true, search: { kind: 'none' } };
  if (table === 'trades') {
    const hex = uuidHex(text);
    if (hex?.length === 32) return { ok: true, search: { kind: 'uuid', hex } };
    // the first letters of TRD- alone: every trade id starts so
    if (TRADE_ID_PREFIX.toLowerCase().startsWith(text)) return { ok: true, search: { kind: 'tradeId', prefix: TRADE_ID_PREFIX } };
    const trade = TRADE_ID_START.exec(text);
    if (trade) return { ok: true, search: { kind: 'tradeId', prefix: TRADE_ID_PREFIX + trade[1]!.toUpperCase() } };
    return { ok: false, message: idSearchMessage(table) };
  }
  const hex = uuidHex(text);
  return hex ? { ok: true, search: { kind: 'uuid', hex } } : { ok: false, message: idSearchMessage(table) };
}

/**
 * Where an id is: the tables the caller's partner may see (transaction-data §1: the four B2B tabs; trades, and
 * initiated payments for whitelisted commercial partners) that hold a transaction with that id (the id as each table
 * shows it, or its first characters). The server decides the tables from the session, never the client.
 */
export const LocateRequest = z.object({ id: safeText({ max: 200 }) }).strict();
export const LocateResponse = z.object({ found: z.array(SearchTable) });
export type LocateResponse = z.infer<typeof LocateResponse>;

/** The tables a partner's screens show, as the portal's route guard decides by the partner's kind. */
export function visibleTables(kind: { isB2B: boolean; isCommercial: boolean; isWhitelistedCommercial: boolean }): SearchTable[] {
  if (kind.isCommercial) return kind.isWhitelistedCommercial ? ['trades', 'initiate-payments'] : ['trades'];
  if (kind.isB2B) return ['payments', 'collections', 'settlements', 'fees'];
  return [];
}

export const REPORT_STATUSES = ['requested', 'in_progress', 'data_downloaded', 'complete', 'expired', 'failed'] as const;
export const ReportStatus = z.enum(REPORT_STATUSES);
export type ReportStatus = z.infer<typeof ReportStatus>;
/** A report in one of these is still being built: its progress is shown and polled. */
export const ACTIVE_REPORT_STATUSES: readonly ReportStatus[] = ['requested', 'in_progress', 'data_downloaded'];
/** A report may span up to a year. */
export const MAX_REPORT_DAYS = 366;

export const CreateReportRequest = z
  .object({
    dataSource: SearchTable,
    startDate: CalendarDate,
    endDate: CalendarDate,
    filters: Filters.default({}),
    fiatWallet: FiatWalletChoice.default('all'),
    /** the zone of the days and of the file's times (default UTC) */
    timeZone: TimeZoneName.optional(),
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
  /** the zone the report was requested in: its days and its file's times */
  timeZone: z.string(),
  createdAt: z.string(),
});
export type ReportJob = z.infer<typeof ReportJob>;
export const ReportJobResponse = z.object({ job: ReportJob });
export const ListReportsRequest = z.object({ startIndex: z.number().int().min(0).default(0), size: z.number().int().min(1).max(100).default(20) }).strict();
export const ListReportsResponse = z.object({ jobs: z.array(ReportJob), total: z.number().int() });

/** What the server says of a search, an export or a transaction it cannot serve. */
export const TRANSACTION_MESSAGES = {
  scrollExpired: 'The scroll id is not valid or has expired; start the export again.',
  notFound: 'No transaction with that id',
} as const;

/** What the server says of a report it cannot make or give. */
export const REPORT_MESSAGES = {
  reversedRange: REVERSED_RANGE_MESSAGE,
  tooLong: 'A report can span a year at most.',
  notFound: 'No such report',
  expired: 'This report has expired. Request it again.',
  notReady: 'This report is not ready yet.',
  tooManyActive: (active: number) => `You already have ${active} ${active === 1 ? 'report' : 'reports'} being prepared. Wait for one to finish.`,
} as const;
