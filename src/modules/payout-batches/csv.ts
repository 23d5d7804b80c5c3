/**
 * A payout batch as CSV (docs/architecture/payout-batches.md, "CSV"): the upload's parser (RFC 4180:
 * a header line, then one line per payout; quoted fields may hold commas, quotes doubled, CRLF or
 * LF) and the report's columns. The parser answers the records or the first format problem with its
 * line; it never guesses (an unterminated quote, a line with more cells than the header: refused).
 */
import { csvCell, csvRecord } from '../../lib/csv.ts';

/** The columns an upload may carry; receiverId, amountCrypto and token are required. */
export const CSV_COLUMNS = ['receiverId', 'amountCrypto', 'token', 'externalId', 'pixKey', 'pixKeyType', 'recipientName'] as const;
export const CSV_REQUIRED = ['receiverId', 'amountCrypto', 'token'] as const;

export type CsvParse = { ok: true; header: string[]; rows: Array<{ line: number; cells: string[] }> } | { ok: false; line: number; problem: string };

/** `line`: the file's line number of each record (the header is line 1). */
export function parseCsv(text: string): CsvParse {
  const records: Array<{ line: number; cells: string[] }> = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let startLine = 1;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endRecord = () => {
    cells.push(cell);
    if (!(cells.length === 1 && cells[0] === '')) records.push({ line: startLine, cells });
    cells = [];
    cell = '';
  };
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else {
        if (c === '\n') line++;
        cell += c;
      }
      continue;
    }
    if (c === '"' && cell === '') quoted = true;
    else if (c === ',') {
      cells.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') continue;
    else if (c === '\n') {
      endRecord();
      line++;
      startLine = line;
    } else cell += c;
  }
  if (quoted) return { ok: false, line: startLine, problem: 'a quoted field is not closed' };
  endRecord();
  const [head, ...rows] = records;
  if (!head) return { ok: false, line: 1, problem: 'the file is empty: a header line is required' };
  const header = head.cells.map((name) => name.trim());
  const unknown = header.find((name) => !(CSV_COLUMNS as readonly string[]).includes(name));
  if (unknown !== undefined) return { ok: false, line: 1, problem: `unknown column "${unknown.slice(0, 40)}"; the columns are ${CSV_COLUMNS.join(', ')}` };
  const missing = CSV_REQUIRED.find((name) => !header.includes(name));
  if (missing) return { ok: false, line: 1, problem: `column ${missing} is required` };
  if (new Set(header).size !== header.length) return { ok: false, line: 1, problem: 'a column is named twice' };
  const long = rows.find((row) => row.cells.length > header.length);
  if (long) return { ok: false, line: long.line, problem: `${long.cells.length} cells for ${header.length} columns` };
  return { ok: true, header, rows };
}

/** A record as the line object the JSON body carries: empty cells are absent. */
export function recordToLine(header: string[], cells: string[]): Record<string, string> {
  const line: Record<string, string> = {};
  header.forEach((name, i) => {
    const value = (cells[i] ?? '').trim();
    if (value !== '') line[name] = value;
  });
  return line;
}

export const REPORT_HEADER = ['line', 'status', 'receiverId', 'externalId', 'amountCrypto', 'amountBrl', 'netAmountBrl', 'orderId', 'orderStatus', 'errors'];

export interface ReportLine {
  line: number;
  status: string;
  receiverId: string | null;
  externalId: string | null;
  amountCrypto: string | null;
  amountBrl: string | null;
  netAmountBrl: string | null;
  orderId: string | null;
  orderStatus: string | null;
  errors: string | null;
}

export function reportCsv(lines: ReportLine[]): string {
  const raw = { raw: true };
  return (
    csvRecord(REPORT_HEADER) +
    lines
      .map((l) =>
        csvRecord([
          String(l.line),
          csvCell(l.status, raw),
          csvCell(l.receiverId),
          csvCell(l.externalId),
          csvCell(l.amountCrypto, raw),
          csvCell(l.amountBrl, raw),
          csvCell(l.netAmountBrl, raw),
          csvCell(l.orderId, raw),
          csvCell(l.orderStatus, raw),
          csvCell(l.errors),
        ]),
      )
      .join('')
  );
}
