/**
 * How the register's rows become a file. A formatter is handed the month's rows, a page at a
 * time and in order, and writes the file's text as it goes: the official layouts (the Banco
 * Central's monthly VASP report, the Receita Federal's DeCripto under IN RFB 2291/2025) are one
 * more formatter here, on the same query. Shipped: `csv` and `jsonl`.
 */
import { csvCell, csvRecord } from '../../lib/csv.ts';

/** The register's columns, in the order of the CSV header (docs/architecture/operations-register.md). */
export const REGISTER_COLUMNS = [
  'id', 'occurredAt', 'orderId', 'orderType', 'merchantId', 'movement', 'direction', 'asset', 'chain', 'quantity', 'valueBrl',
  'clientDocumentType', 'clientDocument', 'clientName', 'walletAddress', 'walletSelfHosted', 'counterpartyType',
  'originatorName', 'originatorDocumentType', 'originatorDocument', 'originatorAccount',
  'beneficiaryName', 'beneficiaryDocumentType', 'beneficiaryDocument', 'beneficiaryAccount',
  'pixEndToEndId', 'pspReference', 'txSignature',
] as const;
export type RegisterColumn = (typeof REGISTER_COLUMNS)[number];

/** One row of the register as formatters see it: amounts as decimal text, times ISO 8601 UTC, null when unknown. */
export type RegisterEntry = { [K in RegisterColumn]: K extends 'walletSelfHosted' ? boolean | null : K extends 'id' | 'occurredAt' | 'orderId' | 'orderType' | 'merchantId' | 'movement' | 'direction' | 'asset' | 'quantity' | 'valueBrl' | 'clientDocumentType' | 'clientDocument' | 'clientName' | 'counterpartyType' ? string : string | null };

/** What a formatter knows of the file besides its rows. */
export interface ReportContext {
  /** 'YYYY-MM', São Paulo's calendar month. */
  month: string;
}

export interface RegisterFormatter {
  /** The answer's media type, and the file name's extension. */
  contentType: string;
  extension: string;
  /** The file's text, written as the pages of rows arrive (in order of occurredAt, then id). */
  lines(pages: AsyncIterable<RegisterEntry[]>, context: ReportContext): AsyncGenerator<string>;
}

/** A formatter made of an optional header, one text per row and an optional footer (given the row count). */
export function lineFormatter(parts: {
  contentType: string;
  extension: string;
  header?: (context: ReportContext) => string;
  row: (entry: RegisterEntry) => string;
  footer?: (context: ReportContext & { rows: number }) => string;
}): RegisterFormatter {
  return {
    contentType: parts.contentType,
    extension: parts.extension,
    async *lines(pages, context) {
      if (parts.header) yield parts.header(context);
      let rows = 0;
      for await (const page of pages) {
        rows += page.length;
        if (page.length > 0) yield page.map(parts.row).join('');
      }
      if (parts.footer) yield parts.footer({ ...context, rows });
    },
  };
}

/** Cells we write ourselves (ids, times, amounts, enumerations) go as they are; names, documents, keys and addresses are guarded against formulas. */
const OWN_CELLS: ReadonlySet<RegisterColumn> = new Set(['id', 'occurredAt', 'orderId', 'orderType', 'merchantId', 'movement', 'direction', 'quantity', 'valueBrl', 'walletSelfHosted', 'counterpartyType']);

const csvRow = (entry: RegisterEntry) =>
  csvRecord(REGISTER_COLUMNS.map((column) => {
    const value = entry[column];
    return csvCell(typeof value === 'boolean' ? String(value) : value, { raw: OWN_CELLS.has(column) });
  }));

export const FORMATTERS = {
  /** RFC 4180 with the header REGISTER_COLUMNS (src/lib/csv.ts): CRLF, quoting, formula guard; null is an empty cell. */
  csv: lineFormatter({ contentType: 'text/csv; charset=utf-8', extension: 'csv', header: () => csvRecord([...REGISTER_COLUMNS]), row: csvRow }),
  /** One JSON object per line (LF), its keys REGISTER_COLUMNS in order; null stays null. */
  jsonl: lineFormatter({ contentType: 'application/x-ndjson; charset=utf-8', extension: 'jsonl', row: (entry) => `${JSON.stringify(entry)}\n` }),
} satisfies Record<string, RegisterFormatter>;

export type ReportFormat = keyof typeof FORMATTERS;
export const REPORT_FORMATS = Object.keys(FORMATTERS) as ReportFormat[];
