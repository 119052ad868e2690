import { ROW_SCHEMAS, type TransactionRowOf } from '@portal/contract/transaction-rows';
import type { SearchTable } from '@portal/contract/transactions';
import type { TableRowOf } from './transactions.repository.ts';

/**
 * Database rows to the rows of the contract: each field of a contract row is read from the column of its name in
 * snake_case (`fiatAmountUsd` from `fiat_amount_usd`), a time as its ISO 8601 text. Only the fields the contract lists
 * are read, so partner_id (like any column not listed) never reaches a reply; a column renamed on either side, or of
 * another type, fails the typecheck of TO_ROW below.
 */

/** The column a field is read from: `fiatAmountUsd` → `fiat_amount_usd`. */
type ColumnOf<F extends string> = F extends `${infer C}${infer Rest}` ? `${C extends Lowercase<C> ? C : `_${Lowercase<C>}`}${ColumnOf<Rest>}` : F;
const columnOf = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** What the field of a contract row is given: its column's value (a time as text), or a note of the missing column. */
type FieldOf<Row, F extends string> =
  ColumnOf<F> extends keyof Row ? (Row[ColumnOf<F>] extends Date ? string : Row[ColumnOf<F>]) : { missingColumn: ColumnOf<F> };
type MappedRow<T extends SearchTable> = { [F in keyof TransactionRowOf<T> & string]: FieldOf<TableRowOf<T>, F> };

/** The mapping of a table's rows, field by field as its contract row lists them. */
function rowMapper<T extends SearchTable>(table: T): (row: TableRowOf<T>) => MappedRow<T> {
  const fields = Object.keys(ROW_SCHEMAS[table].shape).map((field) => [field, columnOf(field)] as const);
  return (row) => {
    const columns = row as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [field, column] of fields) {
      const value = columns[column];
      out[field] = value instanceof Date ? value.toISOString() : value;
    }
    return out as MappedRow<T>;
  };
}

const TO_ROW: { [T in SearchTable]: (row: TableRowOf<T>) => TransactionRowOf<T> } = {
  payments: rowMapper('payments'),
  collections: rowMapper('collections'),
  settlements: rowMapper('settlements'),
  fees: rowMapper('fees'),
  trades: rowMapper('trades'),
  'initiate-payments': rowMapper('initiate-payments'),
  all: rowMapper('all'),
};

/** The rows of a table as a client receives them. */
export function toRows<T extends SearchTable>(table: T, rows: readonly TableRowOf<T>[]): TransactionRowOf<T>[] {
  const toRow: (row: TableRowOf<T>) => TransactionRowOf<T> = TO_ROW[table];
  return rows.map((r) => toRow(r));
}
