/**
 * CSV as RFC 4180 writes it, for files a person opens in a spreadsheet: a field holding a comma,
 * a semicolon, a tab, a double quote, CR or LF is quoted (its quotes doubled); lines end in CRLF.
 * A semicolon and a tab are quoted too because Excel in pt-BR splits a line at `;` (the list
 * separator of Brazilian locales) and some importers at a tab: unquoted, `inv-2;=2+3` would be two
 * cells there, the second a formula.
 * A text cell is guarded against formulas (CSV injection) piece by piece: every `;`-separated
 * piece that starts with = + - @ (or a tab or CR, which some spreadsheets skip before reading a
 * formula) is prefixed with a single quote, so a merchant's externalId or a failure reason can
 * never run as a formula in whoever opens the file, whichever separator their spreadsheet splits
 * at. Numbers and timestamps we write ourselves are passed as `raw`: a negative amount keeps its
 * minus sign.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",;\t\r\n]/;

/** Each `;`-separated piece of a text neutralised: a formula start gets a leading single quote. */
export function neutraliseFormulas(value: string): string {
  return value
    .split(';')
    .map((piece) => (FORMULA_START.test(piece) ? `'${piece}` : piece))
    .join(';');
}

/** One cell: null is empty; text is neutralised against formulas, then quoted if it must be. */
export function csvCell(value: string | null | undefined, options: { raw?: boolean } = {}): string {
  if (value === null || value === undefined) return '';
  const text = options.raw ? value : neutraliseFormulas(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, CRLF-terminated. */
export function csvRecord(cells: string[]): string {
  return `${cells.join(',')}\r\n`;
}

/**
 * The lines of a CSV export read page by page from a keyset-paged source: the header, then at most
 * `maxRows` records, `pageSize` per statement, so memory holds one page whatever the export's size.
 * `page` answers a page of at most `limit` rows and the cursor after it (undefined: no more).
 */
export async function* pagedCsvLines<Row, Cursor>(source: {
  header: readonly string[];
  pageSize: number;
  maxRows: number;
  page(after: Cursor | undefined, limit: number): Promise<{ rows: Row[]; next: Cursor | undefined }>;
  record(row: Row): string;
}): AsyncGenerator<string> {
  yield csvRecord([...source.header]);
  let after: Cursor | undefined;
  let sent = 0;
  while (sent < source.maxRows) {
    const { rows, next } = await source.page(after, Math.min(source.pageSize, source.maxRows - sent));
    if (rows.length > 0) yield rows.map(source.record).join('');
    sent += rows.length;
    if (next === undefined) return;
    after = next;
  }
}
