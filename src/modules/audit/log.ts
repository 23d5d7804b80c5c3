/**
 * Reading the audit log, newest first: a merchant's own entries (GET /audit-log, `merchantId`
 * set by its route) and the operators' view across the platform (GET /admin/audit-log and its
 * CSV export, GET /admin/receivers/{id}/kyc's history). Ids are UUIDv7, so the id orders by time
 * and is the cursor: a page holds entries older than the cursor, and new entries never shift it.
 * Indexes: merchant_id (migration 0031), target and actor (0035), created_at for a time range.
 * A rename entry's names are sealed at rest and opened here (platform/audit/sealed-details.ts).
 */
import type { Db } from '../../db/database.ts';
import type { PersonalData } from '../../lib/personal-data.ts';
import { openAuditDetails } from '../../platform/audit/sealed-details.ts';

/** What reads the log: the database, and the key that opens the personal values some entries seal. */
export interface AuditReadDeps {
  db: Db;
  personalData: Pick<PersonalData, 'open'>;
}

export interface AuditLogEntry {
  id: string;
  actor: string;
  action: string;
  targetType: string;
  targetId: string | null;
  details: Record<string, unknown>;
  requestId: string | null;
  /** The merchant the entry concerns; null for the platform's own. */
  merchantId: string | null;
  createdAt: string;
}

/** What selects entries; every filter is optional and they combine (and). */
export interface AuditLogFilters {
  merchantId?: string;
  actor?: string;
  action?: string;
  targetType?: string;
  targetId?: string;
  /** ISO 8601: entries at or after. */
  from?: string;
  /** ISO 8601: entries before. */
  to?: string;
}

export interface AuditLogQuery extends AuditLogFilters {
  limit: number;
  /** The `nextCursor` of the previous page: entries older than it. */
  cursor?: string;
}

export interface AuditLogPage {
  data: AuditLogEntry[];
  nextCursor: string | null;
}

function filtered(db: Db, filters: AuditLogFilters) {
  let select = db.selectFrom('admin_audit_log');
  if (filters.merchantId !== undefined) select = select.where('merchant_id', '=', filters.merchantId);
  if (filters.actor !== undefined) select = select.where('actor', '=', filters.actor);
  if (filters.action !== undefined) select = select.where('action', '=', filters.action);
  if (filters.targetType !== undefined) select = select.where('target_type', '=', filters.targetType);
  if (filters.targetId !== undefined) select = select.where('target_id', '=', filters.targetId);
  if (filters.from !== undefined) select = select.where('created_at', '>=', new Date(filters.from));
  if (filters.to !== undefined) select = select.where('created_at', '<', new Date(filters.to));
  return select;
}

export async function listAudit({ db, personalData }: AuditReadDeps, query: AuditLogQuery): Promise<AuditLogPage> {
  let select = filtered(db, query).select(['id', 'actor', 'action', 'target_type', 'target_id', 'details', 'request_id', 'merchant_id', 'created_at']);
  if (query.cursor !== undefined) select = select.where('id', '<', query.cursor);
  // One row more than the page tells whether another page follows.
  const rows = await select.orderBy('id', 'desc').limit(query.limit + 1).execute();
  const page = rows.slice(0, query.limit);
  return {
    data: page.map((row) => ({
      id: row.id,
      actor: row.actor,
      action: row.action,
      targetType: row.target_type,
      targetId: row.target_id,
      details: openAuditDetails(personalData, row.action, row.details as Record<string, unknown>),
      requestId: row.request_id,
      merchantId: row.merchant_id,
      createdAt: row.created_at.toISOString(),
    })),
    nextCursor: rows.length > query.limit ? page[page.length - 1]!.id : null,
  };
}

/** Whether more than `count` entries match: the export's cap, told before the file starts. */
export async function moreAuditThan(db: Db, filters: AuditLogFilters, count: number): Promise<boolean> {
  const row = await filtered(db, filters).select('id').orderBy('id', 'desc').offset(count).limit(1).executeTakeFirst();
  return row !== undefined;
}
