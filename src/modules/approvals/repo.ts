/** SQL of four-eyes proposals, with the proposing and deciding operators' emails. */
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { ApprovalStatus } from '../operators/tables.ts';
import type { ApprovalAction } from './actions.ts';
import '../operators/tables.ts';

export interface Approval {
  id: string;
  action: ApprovalAction;
  targetType: string;
  targetId: string;
  merchantId: string | null;
  params: Record<string, unknown>;
  reason: string;
  status: ApprovalStatus;
  proposedBy: { id: string; email: string };
  proposedAt: string;
  decidedBy: { id: string; email: string } | null;
  decidedAt: string | null;
  decisionReason: string | null;
  result: Record<string, unknown> | null;
}

function select(db: Db) {
  return db
    .selectFrom('approvals')
    .innerJoin('operators as proposer', 'proposer.id', 'approvals.proposed_by')
    .leftJoin('operators as decider', 'decider.id', 'approvals.decided_by')
    .select([
      'approvals.id',
      'approvals.action',
      'approvals.target_type',
      'approvals.target_id',
      'approvals.merchant_id',
      'approvals.params',
      'approvals.reason',
      'approvals.status',
      'approvals.proposed_by',
      'approvals.proposed_at',
      'approvals.decided_by',
      'approvals.decided_at',
      'approvals.decision_reason',
      'approvals.result',
      'proposer.email as proposer_email',
      'decider.email as decider_email',
    ]);
}

type Row = Awaited<ReturnType<ReturnType<typeof select>['executeTakeFirstOrThrow']>>;

const toApproval = (row: Row): Approval => ({
  id: row.id,
  // Written only from APPROVAL_ACTIONS (service.ts).
  action: row.action as ApprovalAction,
  targetType: row.target_type,
  targetId: row.target_id,
  merchantId: row.merchant_id,
  params: row.params,
  reason: row.reason,
  status: row.status,
  proposedBy: { id: row.proposed_by, email: row.proposer_email },
  proposedAt: row.proposed_at.toISOString(),
  decidedBy: row.decided_by ? { id: row.decided_by, email: row.decider_email ?? '' } : null,
  decidedAt: row.decided_at?.toISOString() ?? null,
  decisionReason: row.decision_reason,
  result: row.result,
});

export const approvalsRepo = {
  async get(db: Db, id: string): Promise<Approval | undefined> {
    const row = await select(db).where('approvals.id', '=', id).executeTakeFirst();
    return row ? toApproval(row) : undefined;
  },

  /** Newest first; `cursor` is the last id of the previous page (UUIDv7: ids order by time). */
  async list(db: Db, query: { status?: ApprovalStatus; limit: number; cursor?: string }): Promise<{ data: Approval[]; nextCursor: string | null }> {
    let rows = select(db);
    if (query.status) rows = rows.where('approvals.status', '=', query.status);
    if (query.cursor) rows = rows.where('approvals.id', '<', query.cursor);
    const found = await rows.orderBy('approvals.id', 'desc').limit(query.limit + 1).execute();
    const page = found.slice(0, query.limit);
    return { data: page.map(toApproval), nextCursor: found.length > query.limit ? page.at(-1)!.id : null };
  },

  /** false when a proposal of this action on this target is already pending (the unique partial index). */
  async insert(db: Db, row: { id: string; action: string; targetType: string; targetId: string; merchantId: string | null; params: Record<string, unknown>; reason: string; proposedBy: string; now: Date }): Promise<boolean> {
    const inserted = await db
      .insertInto('approvals')
      .values({ id: row.id, action: row.action, target_type: row.targetType, target_id: row.targetId, merchant_id: row.merchantId, params: JSON.stringify(row.params), reason: row.reason, status: 'PENDING', proposed_by: row.proposedBy, proposed_at: row.now })
      // The partial index's predicate as a literal: a parameter there (`status = $n`) cannot prove
      // the index applies once PostgreSQL plans the prepared statement generically (after five runs).
      .onConflict((oc) => oc.columns(['action', 'target_id']).where(sql.ref('status'), '=', sql.lit('PENDING')).doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted !== undefined;
  },

  lockPending(db: Db, id: string) {
    return db.selectFrom('approvals').select(['id', 'action', 'target_id', 'params', 'reason', 'proposed_by', 'status', 'merchant_id']).where('id', '=', id).forUpdate().executeTakeFirst();
  },

  async decide(db: Db, id: string, decision: { status: 'APPROVED' | 'REJECTED'; by: string; at: Date; reason: string | null; result: Record<string, unknown> | null }): Promise<void> {
    await db
      .updateTable('approvals')
      .set({ status: decision.status, decided_by: decision.by, decided_at: decision.at, decision_reason: decision.reason, result: decision.result === null ? null : JSON.stringify(decision.result) })
      .where('id', '=', id)
      .where('status', '=', 'PENDING')
      .execute();
  },
};
