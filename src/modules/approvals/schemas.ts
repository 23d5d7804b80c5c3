import { Type } from 'typebox';
import { StrictObject, Timestamp, Uuid } from '../../http/schemas.ts';
import { APPROVAL_STATUSES } from '../operators/tables.ts';
import { APPROVAL_ACTIONS } from './actions.ts';

const Reason = (description: string) => Type.String({ minLength: 3, maxLength: 500, description });
const OperatorRef = Type.Object({ id: Uuid(), email: Type.String() }, { title: 'OperatorRef' });

// Titled enums: one component each in the OpenAPI document (http/openapi-components.ts).
export const ApprovalActionField = Type.Enum([...APPROVAL_ACTIONS], {
  title: 'ApprovalAction',
  description: 'ORDER_REFUND (a PAYIN that failed holding the PIX: targetId the order), PAYOUT_RETRY (a PAYOUT whose PIX was refused, holding the tokens: its PIX is sent again; targetId the order), MERCHANT_ENABLE (a disabled merchant: targetId the merchant), PLATFORM_FEE_CHANGE (targetId PAYIN or PAYOUT; params {tiers} as PUT /admin/platform-fee-tiers/{orderType} takes), TREASURY_WITHDRAWAL (targetId the currency; params {amount, reference, note?, wallet?}: what was moved out of the treasury, of its wallet `wallet` (default 1), posted to its books), OPERATOR_CREATE (targetId the new operator\'s email; params {role}: approving emails them a single-use set-password link, nobody else sees a credential), OPERATOR_ROLE_CHANGE (targetId the operator; params {role}, a role giving a permission the current one lacks), OPERATOR_ENABLE (targetId a disabled operator), SERVICE_ACCOUNT_ACTIVATE (targetId a PENDING service account; no params: its token works from the approval on; never approved by the account\'s creator), SETTLEMENT_PIX_KEY (targetId a PENDING settlement PIX key, asked for by POST /admin/merchants/{id}/settlement-pix-key, which proposes it; no params: the merchant\'s settlements are paid to it from the approval on; never approved by the operator who asked for it)',
});

const ApprovalStatusField = Type.Enum([...APPROVAL_STATUSES], { title: 'ApprovalStatus', description: 'PENDING until another operator approves or rejects it' });

export const ApprovalSchema = Type.Object(
  {
    id: Uuid(),
    action: ApprovalActionField,
    targetType: Type.String({ description: 'order, merchant, platform_fee_tiers, treasury, operator, operator_invitation, service_account or settlement_pix_key' }),
    targetId: Type.String(),
    merchantId: Type.Union([Uuid(), Type.Null()], { description: 'The merchant an order belongs to; null otherwise' }),
    params: Type.Record(Type.String(), Type.Unknown()),
    reason: Type.String({ description: "The proposer's reason" }),
    status: ApprovalStatusField,
    proposedBy: OperatorRef,
    proposedAt: Timestamp(),
    decidedBy: Type.Union([OperatorRef, Type.Null()], { description: 'Another operator than the proposer, always' }),
    decidedAt: Type.Union([Timestamp(), Type.Null()]),
    decisionReason: Type.Union([Type.String(), Type.Null()], { description: "The approver's note, or the rejection's reason" }),
    result: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], { description: 'What the approved action did (e.g. the order, now REFUNDING)' }),
  },
  { title: 'Approval' },
);

export { Reason };

export const ProposeBody = StrictObject(
  {
    action: ApprovalActionField,
    targetId: Type.String({ minLength: 1, maxLength: 100 }),
    params: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'What the action needs besides its target (PLATFORM_FEE_CHANGE: {tiers})' })),
    reason: Reason('Why: read by the approver and kept in the audit log'),
  },
  { title: 'Proposal' },
);
export const ApproveBody = Type.Optional(StrictObject({ note: Type.Optional(Type.String({ maxLength: 500 })) }, { title: 'ApprovalNote' }));
export const RejectBody = StrictObject({ reason: Reason('Why it is rejected') }, { title: 'Rejection' });
export const ApprovalsQuery = StrictObject({
  status: Type.Optional(ApprovalStatusField),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 50 }),
  cursor: Type.Optional(Uuid('nextCursor of the previous page')),
});
export const ApprovalPageSchema = Type.Object({ data: Type.Array(ApprovalSchema), nextCursor: Type.Union([Uuid(), Type.Null()]) }, { title: 'ApprovalPage' });
export const MarkFailedBody = StrictObject({ reason: Reason('Why the order is ended: kept in failureReason and the audit log') }, { title: 'MarkFailed' });
