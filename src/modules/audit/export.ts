/**
 * GET /admin/audit-log/export: the entries GET /admin/audit-log lists for the same filters, as
 * CSV, newest first. Streamed a page at a time through the listing itself (keyset on the id), so
 * memory holds one page whatever the size, and capped at `maxRows` rows: beyond it the answer
 * says so (`truncated`) and the operator narrows the filters (`to`) to fetch the older rest.
 * Entries recorded while the file is written are newer than its first page and are not in it.
 */
import type { Clock } from '../../lib/clock.ts';
import { csvCell, csvRecord, pagedCsvLines } from '../../lib/csv.ts';
import { type AuditLogEntry, type AuditLogFilters, type AuditReadDeps, listAudit, moreAuditThan } from './log.ts';
import { type AuditActor, recordDataRelease } from '../../platform/audit/record.ts';

/** The file's columns, in order (documented in the route's description and docs/architecture/back-office.md). */
export const AUDIT_EXPORT_COLUMNS = ['id', 'createdAt', 'actor', 'action', 'targetType', 'targetId', 'merchantId', 'requestId', 'details'] as const;

function record(entry: AuditLogEntry): string {
  const raw = (value: string | null) => csvCell(value, { raw: true });
  // Actor, action, target and details may hold text a person typed (a rejection reason, an
  // email, a request id sent by a client): those cells are guarded against formulas.
  return csvRecord([
    raw(entry.id),
    raw(entry.createdAt),
    csvCell(entry.actor),
    csvCell(entry.action),
    csvCell(entry.targetType),
    csvCell(entry.targetId),
    raw(entry.merchantId),
    csvCell(entry.requestId),
    csvCell(JSON.stringify(entry.details)),
  ]);
}

export interface AuditExportSettings {
  /** Entries per statement. */
  pageSize: number;
  /** Entries per file at most. */
  maxRows: number;
}

export function createAuditExport(deps: AuditReadDeps & { clock: Clock; settings: AuditExportSettings }) {
  const { db, clock, settings } = deps;

  const lines = (filters: AuditLogFilters) =>
    pagedCsvLines<AuditLogEntry, string>({
      header: AUDIT_EXPORT_COLUMNS,
      ...settings,
      record,
      async page(cursor, limit) {
        const page = await listAudit(deps, { ...filters, limit, ...(cursor ? { cursor } : {}) });
        return { rows: page.data, next: page.nextCursor ?? undefined };
      },
    });

  return {
    /**
     * The file's name, whether the cap cuts it, and its text as it is read; recorded as
     * `audit_log.export` by `by` with its filters before anything is read, so the file holds its
     * own record when its filters match it (the newest entry, its first line).
     */
    async start(filters: AuditLogFilters, by: AuditActor) {
      await recordDataRelease(db, by, { action: 'audit_log.export', targetType: 'audit_log', targetId: null, details: { filter: filters } });
      const truncated = await moreAuditThan(db, filters, settings.maxRows);
      return { filename: `audit-log-${clock.now().toISOString().slice(0, 10)}.csv`, truncated, body: lines(filters) };
    },
  };
}

export type AuditExport = ReturnType<typeof createAuditExport>;
