/**
 * A merchant's own audit log (GET /audit-log): the entries recorded with its merchant id (team
 * changes, invitations, API keys), newest first. Ids are UUIDv7, so the id orders by time and is
 * the cursor: a page holds entries older than the cursor, and new entries never shift it.
 */
import type { Db } from '../../db/database.ts';

export interface AuditLogEntry {
  id: string;
  actor: string;
  action: string;
  targetType: string;
  targetId: string | null;
  details: Record<string, unknown>;
  requestId: string | null;
  createdAt: string;
}

export interface AuditLogQuery {
  limit: number;
  /** The `nextCursor` of the previous page. */
  cursor?: string;
  action?: string;
  actor?: string;
  from?: string;
  to?: string;
}

export async function listMerchantAudit(db: Db, merchantId: string, query: AuditLogQuery): Promise<{ data: AuditLogEntry[]; nextCursor: string | null }> {
  let select = db
    .selectFrom('admin_audit_log')
    .select(['id', 'actor', 'action', 'target_type', 'target_id', 'details', 'request_id', 'created_at'])
    .where('merchant_id', '=', merchantId);
  if (query.cursor !== undefined) select = select.where('id', '<', query.cursor);
  if (query.action !== undefined) select = select.where('action', '=', query.action);
  if (query.actor !== undefined) select = select.where('actor', '=', query.actor);
  if (query.from !== undefined) select = select.where('created_at', '>=', new Date(query.from));
  if (query.to !== undefined) select = select.where('created_at', '<', new Date(query.to));
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
      details: row.details as Record<string, unknown>,
      requestId: row.request_id,
      createdAt: row.created_at.toISOString(),
    })),
    nextCursor: rows.length > query.limit ? page[page.length - 1]!.id : null,
  };
}
