/**
 * RFC 4180 read back, for the tests of CSV exports: quoted fields with doubled quotes, CRLF
 * records, and a file that ends with CRLF; `;` as the separator reads it as pt-BR Excel does.
 */
import { expect } from 'vitest';

export function parseCsv(text: string, separator: ',' | ';' = ','): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === separator) {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += c;
  }
  expect(field === '' && record.length === 0, 'the file ends with CRLF').toBe(true);
  return records;
}

/** The file's records as objects named by its header line. */
export function csvObjects(text: string): { header: string[]; rows: Array<Record<string, string>> } {
  const [header, ...rows] = parseCsv(text);
  return { header: header!, rows: rows.map((row) => Object.fromEntries(header!.map((name, i) => [name, row[i]!]))) };
}
