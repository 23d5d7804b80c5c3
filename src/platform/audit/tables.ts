/**
 * The audit trail table. Merged into the database's table map
 * (`Database` in src/db/schema.ts) so repos query them through the one Kysely instance.
 */
import type { DefaultedTimestamp, Json } from '../../db/schema.ts';

export interface AdminAuditLogTable {
  id: string;
  actor: string;
  action: string;
  target_type: string;
  target_id: string | null;
  details: Json<Record<string, unknown>>;
  request_id: string | null;
  merchant_id: string | null;
  created_at: DefaultedTimestamp;
}

declare module '../../db/schema.ts' {
  interface Database {
    admin_audit_log: AdminAuditLogTable;
  }
}
