/**
 * Proposing a four-eyes action (POST /admin/approvals, the lead's approvals contract of issue 29).
 * The route is not in this branch's docs/openapi.json yet, so the call and its answer are typed
 * by hand here; once `npm run openapi` has it, replace `loose` by `api.POST('/admin/approvals', …)`.
 */
import { api, call } from '../../api/client.ts';

export interface ApprovalProposal {
  action: 'ORDER_REFUND' | 'MERCHANT_ENABLE' | 'PLATFORM_FEE_CHANGE';
  targetId: string;
  params?: Record<string, unknown>;
  reason: string;
}

/** The fields of the contract's Approval this app reads. */
export interface Approval {
  id: string;
  action: ApprovalProposal['action'];
  targetId: string;
  status: 'PENDING' | 'APPROVED' | 'REJECTED';
  proposedAt: string;
}

type LooseAnswer = { data?: unknown; error?: unknown; response: Response };
const loose = api as unknown as { POST: (path: string, init: { body: unknown }) => Promise<LooseAnswer> };

export const proposeApproval = async (body: ApprovalProposal): Promise<Approval> => (await call(loose.POST('/admin/approvals', { body }))) as Approval;
