/**
 * GET /orders/export: the orders GET /orders would list for the same filters, as CSV, newest
 * first. Streamed a page at a time (`pageSize` rows per statement, keyset), so memory holds one
 * page whatever the size of the export, and capped at `maxRows` rows: beyond it the answer says
 * so (`truncated`), and the merchant narrows the filters (createdTo) to fetch the rest.
 *
 * Pages are separate statements, not one snapshot: an order that changes status while the file
 * is written shows the status of the moment its page was read; orders created meanwhile are newer
 * than the first page and are not in the file. No order appears twice or goes missing.
 */
import type { Static } from 'typebox';
import type { Db } from '../../../db/database.ts';
import type { ReadRouter } from '../../../db/read-router.ts';
import type { Clock } from '../../../lib/clock.ts';
import { csvCell, csvRecord, pagedCsvLines } from '../../../lib/csv.ts';
import { decimal } from '../../../lib/money.ts';
import { saoPauloDay } from '../../../lib/sao-paulo-time.ts';
import { type AuditActor, recordDataRelease } from '../../../platform/audit/record.ts';
import { type ExportCursor, type ExportedRow, exportRepo as repo } from './export-repo.ts';
import type { ListFilters } from './listing-repo.ts';
import { checkAmountRange } from './listing.ts';
import type { OrderExportQuery } from '../schemas.ts';

/**
 * The file's columns, in order (documented in the route's description and docs/architecture/orders.md).
 * markupBrl, the partner markup (decision 0042), comes last: a column added later goes at the end,
 * so a spreadsheet or script reading the earlier ones by position reads the same.
 */
export const EXPORT_COLUMNS = [
  'id', 'externalId', 'type', 'status', 'receiverId', 'chain', 'token', 'amountBrl', 'amountToken', 'exchangeRate', 'netAmountBrl',
  'platformFeeBrl', 'merchantFeeBrl', 'createdAt', 'completedAt', 'failureReason', 'markupBrl',
] as const;

/** Decimal text as stored, without an exponent and without trailing zeros (`18.224852`, `100.5`). */
const amount = (value: string) => decimal(value).toFixed();

function record(row: ExportedRow): string {
  const raw = (value: string | null) => csvCell(value, { raw: true });
  return csvRecord([
    raw(row.id),
    // The merchant's own text: the one cell that may start like a formula, with failureReason.
    csvCell(row.external_id),
    raw(row.type),
    raw(row.status),
    raw(row.receiver_id),
    csvCell(row.chain),
    csvCell(row.token),
    raw(amount(row.amount_brl)),
    raw(amount(row.amount_token)),
    raw(amount(row.exchange_rate)),
    raw(amount(row.net_amount_brl)),
    raw(amount(row.platform_fee_amount_brl)),
    raw(amount(row.merchant_fee_amount_brl)),
    raw(row.created_at.toISOString()),
    raw(row.completed_at?.toISOString() ?? null),
    csvCell(row.failure_reason),
    raw(amount(row.markup_amount_brl)),
  ]);
}

export interface OrderExportSettings {
  /** Rows per statement. */
  pageSize: number;
  /** Rows per file at most. */
  maxRows: number;
}

export function createOrderExport(deps: { db: Db; clock: Clock; settings: OrderExportSettings; reads?: Pick<ReadRouter, 'forMerchant'> }) {
  const { db, clock, settings } = deps;
  /** The export's pages from the replica within its freshness bound, or the primary (db/read-router.ts); its audit record on the primary. */
  const dbFor = (merchantId: string) => deps.reads?.forMerchant(merchantId) ?? db;

  const lines = (merchantId: string, filters: ListFilters) =>
    pagedCsvLines<ExportedRow, ExportCursor>({
      header: EXPORT_COLUMNS,
      ...settings,
      record,
      async page(after, limit) {
        const rows = await repo.page(dbFor(merchantId), merchantId, filters, after, limit);
        const last = rows.at(-1);
        return { rows, next: rows.length < limit || !last ? undefined : { createdAt: last.created_at, id: last.id } };
      },
    });

  return {
    /**
     * The export's name, whether the cap cuts it, and its text as it is read. Bad filters are
     * refused here, before the answer starts (after that only the connection can fail). The
     * export is recorded in the merchant's audit log (GET /audit-log) as `orders.export` by `by`,
     * with its filters, before the file starts: a bulk file of the merchant's business leaving the platform.
     */
    async start(merchantId: string, query: Static<typeof OrderExportQuery>, by: AuditActor) {
      checkAmountRange(query);
      await recordDataRelease(db, by, { action: 'orders.export', targetType: 'orders', targetId: null, merchantId, details: { filter: query } });
      const filters = query as ListFilters;
      const filename = `orders-${saoPauloDay(clock.now())}.csv`;
      // PENDING is never stored (tables.ts): the file has its header only.
      if (query.status === 'PENDING') return { filename, truncated: false, body: (async function* () { yield csvRecord([...EXPORT_COLUMNS]); })() };
      const truncated = await repo.moreThan(dbFor(merchantId), merchantId, filters, settings.maxRows);
      return { filename, truncated, body: lines(merchantId, filters) };
    },
  };
}

export type OrderExport = ReturnType<typeof createOrderExport>;
