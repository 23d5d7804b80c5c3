/** Proposing a four-eyes action (POST /admin/approvals): another operator decides it on the Approvals page. */
import { api, call } from '../../api/client.ts';
import type { components } from '../../api/schema.ts';

type GeneratedProposal = components['schemas']['Proposal'];
export type Approval = components['schemas']['Approval'];

/**
 * The actions the pages know: the API's, and PAYOUT_RETRY (a PAYOUT whose PIX was refused, tokens
 * held: targetId the order), which the API is gaining in a parallel change. Until `npm run openapi`
 * regenerates schema.ts with it, the generated enum lacks it: values are compared through this
 * wider type, and the cast below only widens; both become plain once the types have it.
 */
export type ApprovalAction = GeneratedProposal['action'] | 'PAYOUT_RETRY';
export type ApprovalProposal = Omit<GeneratedProposal, 'action'> & { action: ApprovalAction };

export const proposeApproval = (body: ApprovalProposal): Promise<Approval> => call(api.POST('/admin/approvals', { body: body as GeneratedProposal }));

/** An action's name, for t(): `opsApprovals.action.*` has one for each. */
export const actionLabelKey = (action: ApprovalAction) => `opsApprovals.action.${action}` as const;
