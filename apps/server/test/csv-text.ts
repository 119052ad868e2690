import { expect } from 'vitest';

/** A CSV file read back: its header row, and each record as header → value. */
export type Csv = { headers: string[]; records: Record<string, string>[] };

/** RFC 4180 (quoted fields, doubled quotes, CRLF) after the byte-order mark the exports write: enough to check a file. */
export function parseCsv(text: string): Csv {
  expect(text.charCodeAt(0)).toBe(0xfeff);
  const rows: string[][] = [];
  let field = '';
  let row: string[] = [];
  let quoted = false;
  for (let i = 1; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  const [headers = [], ...rest] = rows;
  return { headers, records: rest.map((r) => Object.fromEntries(r.map((v, i) => [headers[i]!, v]))) };
}
