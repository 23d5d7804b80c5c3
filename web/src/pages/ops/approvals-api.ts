/** Proposing a four-eyes action (POST /admin/approvals): another operator decides it on the Approvals page. */
import { api, call } from '../../api/client.ts';
import type { components } from '../../api/schema.ts';

export type ApprovalProposal = components['schemas']['Proposal'];
export type Approval = components['schemas']['Approval'];
export type ApprovalAction = ApprovalProposal['action'];

export const proposeApproval = (body: ApprovalProposal): Promise<Approval> => call(api.POST('/admin/approvals', { body }));

/** An action's name, for t(): `opsApprovals.action.*` has one for each. */
export const actionLabelKey = (action: ApprovalAction) => `opsApprovals.action.${action}` as const;
