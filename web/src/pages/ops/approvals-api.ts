/** Proposing a four-eyes action (POST /admin/approvals): another operator decides it on the Approvals page. */
import { api, call } from '../../api/client.ts';
import type { components } from '../../api/schema.ts';

export type ApprovalProposal = components['schemas']['Proposal'];
export type Approval = components['schemas']['Approval'];

export const proposeApproval = (body: ApprovalProposal): Promise<Approval> => call(api.POST('/admin/approvals', { body }));
