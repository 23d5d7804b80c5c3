/** What a four-eyes action is (actions.ts lists them; operator-actions.ts holds those on operators). */
import type { Trx } from '../../db/database.ts';
import type { AuditActor } from '../../platform/audit/record.ts';
import type { OperatorPermission } from '../operators/roles.ts';

export interface Proposed {
  targetId: string;
  params: Record<string, unknown>;
  reason: string;
}

export interface FourEyesAction {
  /** Both the proposer and the approver need it. */
  permission: OperatorPermission;
  targetType: string;
  /** The target as stored, when two spellings name one target (an email's case): one pending proposal per target holds then. */
  normalizeTarget?(targetId: string): string;
  /** 404 for an unknown target, 409 when the action does not apply now, 400 for bad params; the state it would change. */
  check(proposal: Proposed): Promise<{ merchantId: string | null; before: unknown }>;
  /** Runs on approval, in the approval's transaction, as the approver; answers what it did. */
  execute(trx: Trx, proposal: Proposed, by: AuditActor & { approvalId: string }): Promise<Record<string, unknown>>;
}

