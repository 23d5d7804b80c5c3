/**
 * Four-eyes approvals (docs/architecture/back-office.md): one operator proposes an action that
 * moves money or changes risk, another approves or rejects it; both are recorded, on the proposal
 * and in the audit log. Nobody decides their own proposal: the service refuses it (403
 * OWN_PROPOSAL) and the database's CHECK would too. Approving runs the action in the same
 * transaction as the decision, so an approved proposal is an applied action and a failed action
 * leaves the proposal pending (to retry, or reject). The entries are the platform's: the merchant
 * concerned is in their details, not on the merchant's own audit log.
 */
import type { Db } from '../../db/database.ts';
import { AppError, notFound } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { inTransaction } from '../../platform/commit-signals.ts';
import { recordAudit } from '../../platform/audit/record.ts';
import { operatorCan, type OperatorRole } from '../operators/roles.ts';
import type { ApprovalStatus } from '../operators/tables.ts';
import type { ApprovalAction, FourEyesAction } from './actions.ts';
import { type Approval, approvalsRepo as repo } from './repo.ts';

/** The operator acting: only a person proposes or decides (the admin token is nobody). */
export interface ApprovalActor {
  operatorId: string;
  role: OperatorRole;
  requestId?: string;
}

const actorOf = (operator: ApprovalActor) => ({ actor: `operator:${operator.operatorId}`, ...(operator.requestId ? { requestId: operator.requestId } : {}) });

function mayAct(operator: ApprovalActor, action: FourEyesAction, name: string): void {
  if (!operatorCan(operator.role, action.permission)) {
    throw new AppError('FORBIDDEN', `An operator with role ${operator.role} cannot propose or decide ${name} (needs ${action.permission})`, { reason: 'ROLE_NOT_ALLOWED', permission: action.permission });
  }
}

export function createApprovalsService(deps: { db: Db; clock: Clock; actions: Record<ApprovalAction, FourEyesAction> }) {
  const { db, clock, actions } = deps;

  async function found(id: string): Promise<Approval> {
    const approval = await repo.get(db, id);
    if (!approval) throw notFound('Approval');
    return approval;
  }

  /** Locks a pending proposal the operator may decide: not theirs, and their role holds its permission. */
  async function lockDecidable(trx: Db, operator: ApprovalActor, id: string) {
    const approval = await repo.lockPending(trx, id);
    if (!approval) throw notFound('Approval');
    if (approval.status !== 'PENDING') throw new AppError('CONFLICT', `This proposal is already ${approval.status}`);
    if (approval.proposed_by === operator.operatorId) throw new AppError('FORBIDDEN', 'Nobody approves or rejects their own proposal: another operator must', { reason: 'OWN_PROPOSAL' });
    const name = approval.action as ApprovalAction;
    mayAct(operator, actions[name], name);
    return { ...approval, action: name };
  }

  return {
    get: found,
    list: (query: { status?: ApprovalStatus; limit: number; cursor?: string }) => repo.list(db, query),

    async propose(operator: ApprovalActor, input: { action: ApprovalAction; targetId: string; params?: Record<string, unknown>; reason: string }): Promise<Approval> {
      const action = actions[input.action];
      mayAct(operator, action, input.action);
      const proposal = { targetId: action.normalizeTarget?.(input.targetId) ?? input.targetId, params: input.params ?? {}, reason: input.reason };
      const { merchantId, before } = await action.check(proposal);
      const id = newId();
      await inTransaction(db, async (trx) => {
        const inserted = await repo.insert(trx, { id, action: input.action, targetType: action.targetType, targetId: proposal.targetId, merchantId, params: proposal.params, reason: input.reason, proposedBy: operator.operatorId, now: clock.now() });
        if (!inserted) throw new AppError('CONFLICT', `A ${input.action} proposal for ${proposal.targetId} is already pending`, { reason: 'PROPOSAL_PENDING' });
        await recordAudit(trx, actorOf(operator), { action: 'approval.propose', targetType: action.targetType, targetId: proposal.targetId, details: { merchantId, approvalId: id, action: input.action, params: proposal.params, reason: input.reason, before } });
      });
      return found(id);
    },

    async approve(operator: ApprovalActor, id: string, note?: string): Promise<Approval> {
      await inTransaction(db, async (trx) => {
        const approval = await lockDecidable(trx, operator, id);
        const action = actions[approval.action];
        const by = { ...actorOf(operator), approvalId: id };
        const result = await action.execute(trx, { targetId: approval.target_id, params: approval.params, reason: approval.reason }, by);
        await repo.decide(trx, id, { status: 'APPROVED', by: operator.operatorId, at: clock.now(), reason: note ?? null, result });
        await recordAudit(trx, by, { action: 'approval.approve', targetType: action.targetType, targetId: approval.target_id, details: { merchantId: approval.merchant_id, approvalId: id, action: approval.action, proposedBy: approval.proposed_by, note: note ?? null, after: result } });
      });
      return found(id);
    },

    async reject(operator: ApprovalActor, id: string, reason: string): Promise<Approval> {
      await inTransaction(db, async (trx) => {
        const approval = await lockDecidable(trx, operator, id);
        await repo.decide(trx, id, { status: 'REJECTED', by: operator.operatorId, at: clock.now(), reason, result: null });
        await recordAudit(trx, actorOf(operator), { action: 'approval.reject', targetType: actions[approval.action].targetType, targetId: approval.target_id, details: { merchantId: approval.merchant_id, approvalId: id, action: approval.action, proposedBy: approval.proposed_by, reason } });
      });
      return found(id);
    },
  };
}

export type ApprovalsService = ReturnType<typeof createApprovalsService>;
