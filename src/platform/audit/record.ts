/**
 * The operators' audit trail: who did what to which target, written in the same transaction
 * as the action itself so an action can never happen without its record.
 */
import type { Db, Trx } from '../../db/database.ts';
import { newId } from '../../lib/ids.ts';
import type { MerchantAuditAction } from './merchant-actions.ts';

export interface AuditActor {
  /** e.g. `admin-api`, `cli`, `system` */
  actor: string;
  requestId?: string;
}

interface AuditEntryBase {
  targetType: string;
  targetId: string | null;
  details?: Record<string, unknown>;
}

/**
 * An entry its merchant's people read (GET /audit-log), or the platform's own. A merchant's entry
 * names one of MERCHANT_AUDIT_ACTIONS: the team log's action filter offers exactly those.
 */
export type AuditEntry =
  | (AuditEntryBase & { action: MerchantAuditAction; /** The merchant the entry concerns. */ merchantId: string })
  | (AuditEntryBase & { action: string; merchantId?: undefined });

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

/**
 * A release of personal data (an export, a KYC file opened), recorded in a transaction of its
 * own: a read has no write to share one with. Called before the data leaves, so no file or file
 * of a person is ever answered without its entry (issue 38 item 5); an export that then fails on
 * the way still shows as attempted, which is what an auditor wants to see.
 */
export async function recordDataRelease(db: Db, by: AuditActor, entry: AuditEntry): Promise<void> {
  await db.transaction().execute((trx) => recordAudit(trx, by, entry));
}
