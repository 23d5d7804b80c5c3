/**
 * The operators' audit trail: who did what to which target, written in the same transaction
 * as the action itself so an action can never happen without its record.
 */
import type { Trx } from '../../db/database.ts';
import { newId } from '../../lib/ids.ts';

export interface AuditActor {
  /** e.g. `admin-api`, `cli`, `system` */
  actor: string;
  requestId?: string;
}

export interface AuditEntry {
  action: string;
  targetType: string;
  targetId: string | null;
  details?: Record<string, unknown>;
  /** The merchant the entry concerns, so its people read it (GET /audit-log); absent for the platform's own. */
  merchantId?: string;
}

export async function recordAudit(trx: Trx, by: AuditActor, entry: AuditEntry): Promise<void> {
  await trx
    .insertInto('admin_audit_log')
    .values({
      id: newId(),
      actor: by.actor,
      action: entry.action,
      target_type: entry.targetType,
      target_id: entry.targetId,
      details: JSON.stringify(entry.details ?? {}),
      request_id: by.requestId ?? null,
      merchant_id: entry.merchantId ?? null,
    })
    .execute();
}
